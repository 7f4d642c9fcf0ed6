import { Alert, Badge, Box, Button, Container, Divider, Flex, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import type { PricingPlan } from '../../../../../contract/pricing.ts';
import { InternalLink } from '../../../components/InternalLink.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { pricingRequests, useLoaded } from '../api/pricing.ts';
import classes from './home.module.css';

/** "$49/month" → big "$49" and small "/month"; any other text is shown whole. */
function splitPrice(price: string) {
  const m = price.match(/^(\S*\d[\d.,]*)\s*(\/.+)$/);
  return m ? { amount: m[1], unit: m[2] } : { amount: price, unit: '' };
}

function PlanCard({ plan }: { plan: PricingPlan }) {
  const { amount, unit } = splitPrice(plan.price);
  const features = [...plan.features].sort((a, b) => Number(b.included) - Number(a.included));
  return (
    <Paper
      withBorder
      radius="lg"
      p="xl"
      className={`${classes.card} ${classes.planCell} ${plan.isDefault ? classes.popular : ''}`}
      data-testid={`home-plan-${plan.id}`}
      pos="relative"
    >
      {plan.isDefault && (
        <Badge variant="filled" size="lg" className={classes.popularBadge} data-testid="most-popular">
          Most Popular
        </Badge>
      )}
      <Stack gap="md" h="100%">
        <Title order={3} fz="xl">
          {plan.name}
        </Title>
        <Group gap={4} align="baseline">
          <Text fz={amount.length > 8 ? 26 : 38} fw={850} lh="46px" style={{ letterSpacing: '-0.02em' }}>
            {amount}
          </Text>
          {unit && <Text c="dimmed">{unit}</Text>}
        </Group>
        {plan.description && (
          <Text c="dimmed" size="sm" mih={40}>
            {plan.description}
          </Text>
        )}
        <Button component={InternalLink} to={`/login?signup=1&plan=${encodeURIComponent(plan.id)}`} variant={plan.isDefault ? 'filled' : 'default'} fullWidth size="md">
          Choose Plan
        </Button>
        <Divider />
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            Up to {plan.maxUsers} users · {plan.maxClients} clients
          </Text>
        </Stack>
        <List spacing={8} size="sm" center>
          {features.map((f) => (
            <List.Item
              key={f.id}
              c={f.included ? undefined : 'dimmed'}
              icon={
                <ThemeIcon size={18} radius="xl" color={f.included ? 'green' : 'gray'} variant="light">
                  {f.included ? <IconCheck size={12} /> : <IconX size={12} />}
                </ThemeIcon>
              }
            >
              <span style={f.included ? undefined : { textDecoration: 'line-through' }}>{f.name}</span>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
}

function PlanCards() {
  // A visitor sees the failure after one retry rather than three.
  const plans = useLoaded(pricingRequests().plans);
  if (!plans) return <Loading />;
  if (!plans.ok) {
    return (
      <Alert color="red" icon={<IconInfoCircle />} maw={640} mx="auto" data-testid="pricing-error">
        {MSG.pricingLoadFailedHome}
      </Alert>
    );
  }
  if (plans.data.length === 0) {
    return (
      <Alert color="gray" icon={<IconInfoCircle />} maw={640} mx="auto" data-testid="pricing-empty">
        {MSG.noPublicPlans}
      </Alert>
    );
  }
  // Wrapping flex rather than a grid: however many plans are public, a short last row is centred, not left behind.
  return (
    <Flex wrap="wrap" justify="center" gap="lg" pt="sm">
      {plans.data.map((p) => (
        <PlanCard key={p.id} plan={p} />
      ))}
    </Flex>
  );
}

export function PricingSection() {
  const settings = useLoaded(pricingRequests().settings);
  const s = settings?.ok ? settings.data : undefined;
  return (
    <section id="pricing" className={`${classes.section} ${classes.alt}`} aria-labelledby="pricing-title">
      <Container size="xl">
        <Stack align="center" ta="center" gap="sm" mb={48}>
          <Text c="orange" fw={700} tt="uppercase" size="sm">
            Pricing
          </Text>
          <Title order={2} id="pricing-title" fz={{ base: 28, sm: 38 }}>
            Simple pricing that grows with you
          </Title>
          <Text c="dimmed" size="lg" maw={620}>
            Start free, then pick the plan that fits the number of engineers and clients you look after.
          </Text>
          {s?.showYearlyDiscount && s.yearlyDiscountPercentage > 0 && (
            <Badge variant="light" color="green" size="lg" radius="sm">
              Save {s.yearlyDiscountPercentage}% with yearly billing
            </Badge>
          )}
        </Stack>
        <PlanCards />
        {s && (
          <Box ta="center" mt="xl">
            <Text size="sm" c="dimmed">
              Prices in {s.currency}
              {s.taxInclusive ? ', taxes included' : ', plus applicable taxes'}.
            </Text>
          </Box>
        )}
      </Container>
    </section>
  );
}
