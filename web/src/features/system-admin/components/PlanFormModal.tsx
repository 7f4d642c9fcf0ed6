import { useState } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Divider, Group, Modal, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { MSG } from '../../../../../contract/messages.ts';
import { FEATURE_IDS, FEATURE_NAMES } from '../../../../../contract/plans.ts';
import { PRICING_MSG, type PricingPlan, type UpdatePricingPlanBody } from '../../../../../contract/pricing.ts';
import { useCreatePricingPlan } from '../api/create-pricing-plan.ts';
import { useUpdatePricingPlan } from '../api/update-pricing-plan.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { serverFieldErrors } from '../../../lib/api.ts';

interface FeatureRow {
  key: string;
  /** Empty for a feature added here: made from its name on save. */
  id: string;
  name: string;
  description: string;
  included: boolean;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50) || 'feature';

const isPositiveInt = (v: number | string) => typeof v === 'number' && Number.isInteger(v) && v >= 1;

let keySeq = 0;
const rowKey = () => `f${++keySeq}`;

/** Add Plan / Edit Plan with the server's rules checked first here; rendered only while open. */
export function PlanFormModal({ plan, nextSortOrder, onClose }: { plan: PricingPlan | null; nextSortOrder: number; onClose: () => void }) {
  const editing = plan !== null;
  const phone = useMediaQuery('(max-width: 36em)');
  const [v, setV] = useState({
    id: '',
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    price: plan?.price ?? '',
    priceId: plan?.priceId ?? '',
    maxUsers: (plan?.maxUsers ?? 5) as number | string,
    maxClients: (plan?.maxClients ?? 10) as number | string,
    sortOrder: (plan?.sortOrder ?? nextSortOrder) as number | string,
    isPublic: plan?.isPublic ?? true,
    isDefault: plan?.isDefault ?? false,
  });
  const [features, setFeatures] = useState<FeatureRow[]>(() =>
    plan
      ? plan.features.map((f) => ({ key: rowKey(), ...f }))
      : FEATURE_IDS.map((id) => ({ key: rowKey(), id, ...FEATURE_NAMES[id], included: false })),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreatePricingPlan();
  const update = useUpdatePricingPlan();
  const mutation = editing ? update : create;
  const server = serverFieldErrors(mutation.error);
  const err = (field: string) => errors[field] ?? server[field];

  const set = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) => {
    setV((old) => ({ ...old, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const setFeature = (key: string, patch: Partial<FeatureRow>) => setFeatures((list) => list.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  const validate = () => {
    const e: Record<string, string> = {};
    if (!v.name.trim()) e.name = PRICING_MSG.planNameRequired;
    if (!v.price.trim()) e.price = PRICING_MSG.priceRequired;
    if (!isPositiveInt(v.maxUsers)) e.maxUsers = PRICING_MSG.maxUsersPositive;
    if (!isPositiveInt(v.maxClients)) e.maxClients = PRICING_MSG.maxClientsPositive;
    if (!(typeof v.sortOrder === 'number' && Number.isInteger(v.sortOrder) && v.sortOrder >= 0)) e.sortOrder = PRICING_MSG.sortOrderInvalid;
    if (v.id && !/^[a-z0-9][a-z0-9_-]*$/.test(v.id)) e.id = PRICING_MSG.planIdInvalid;
    if (v.isDefault && !v.isPublic) e.isPublic = PRICING_MSG.defaultMustBePublic;
    features.forEach((f, i) => {
      if (!f.name.trim()) e[`features.${i}.name`] = PRICING_MSG.featureNameRequired;
    });
    return e;
  };

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    const used = new Set<string>();
    const body: UpdatePricingPlanBody = {
      name: v.name.trim(),
      description: v.description.trim(),
      price: v.price.trim(),
      priceId: v.priceId.trim() || null,
      maxUsers: v.maxUsers as number,
      maxClients: v.maxClients as number,
      sortOrder: v.sortOrder as number,
      isPublic: v.isPublic,
      isDefault: v.isDefault,
      features: features.map((f) => {
        let id = f.id || slug(f.name);
        for (let n = 2; used.has(id); n++) id = `${f.id || slug(f.name)}_${n}`;
        used.add(id);
        return { id, name: f.name.trim(), description: f.description.trim(), included: f.included };
      }),
    };
    try {
      if (plan) await update.mutateAsync({ id: plan.id, body });
      else await create.mutateAsync({ ...body, id: v.id.trim() || undefined });
      onClose();
    } catch {
      // Shown from mutation.error.
    }
  };

  return (
    <Modal opened onClose={onClose} title={editing ? `Edit Plan: ${plan.name}` : 'Add Plan'} size="xl" fullScreen={phone} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {mutation.error && <FailureAlert title={MSG.pricingSaveFailed} error={mutation.error} />}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Name" required value={v.name} onChange={(e) => set('name', e.currentTarget.value)} error={err('name')} data-autofocus />
            <TextInput label="Price" required placeholder="$49/month" value={v.price} onChange={(e) => set('price', e.currentTarget.value)} error={err('price')} />
            {editing ? (
              <TextInput label="Plan ID" value={plan.id} readOnly disabled description="Tenants refer to the plan by this ID" />
            ) : (
              <TextInput
                label="Plan ID"
                placeholder="made from the name"
                description="Optional; lowercase letters, digits, - and _"
                value={v.id}
                onChange={(e) => set('id', e.currentTarget.value)}
                error={err('id')}
              />
            )}
            <TextInput
              label="Billing price ID"
              description="Optional: the price's ID at your payment provider"
              value={v.priceId}
              onChange={(e) => set('priceId', e.currentTarget.value)}
              error={err('priceId')}
            />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} value={v.description} onChange={(e) => set('description', e.currentTarget.value)} error={err('description')} />
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <NumberInput label="Max users" required min={1} allowDecimal={false} allowNegative={false} value={v.maxUsers} onChange={(x) => set('maxUsers', x)} error={err('maxUsers')} />
            <NumberInput label="Max clients" required min={1} allowDecimal={false} allowNegative={false} value={v.maxClients} onChange={(x) => set('maxClients', x)} error={err('maxClients')} />
            <NumberInput label="Sort order" required min={0} allowDecimal={false} allowNegative={false} value={v.sortOrder} onChange={(x) => set('sortOrder', x)} error={err('sortOrder')} />
          </SimpleGrid>
          <Group gap="xl" align="flex-start">
            <Switch
              label="Public"
              description="Shown on the home page and in registration"
              checked={v.isPublic}
              onChange={(e) => set('isPublic', e.currentTarget.checked)}
              error={err('isPublic')}
            />
            <Switch
              label="Default plan"
              description={plan?.isDefault ? 'Make another plan the default to change this' : 'Preselected at registration; marked Most Popular'}
              checked={v.isDefault}
              disabled={plan?.isDefault}
              onChange={(e) => set('isDefault', e.currentTarget.checked)}
              error={err('isDefault')}
            />
          </Group>
          {v.isDefault && !plan?.isDefault && (
            <Alert color="blue" icon={<IconInfoCircle />}>
              Saving makes this the only default plan; the current default loses the flag.
            </Alert>
          )}
          <Divider label="Features" labelPosition="left" />
          {err('features') && (
            <Text c="red" size="sm">
              {err('features')}
            </Text>
          )}
          <Stack gap="xs">
            {features.map((f, i) => (
              <Paper key={f.key} withBorder p="xs" radius="md">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  <Checkbox mt={8} checked={f.included} onChange={(e) => setFeature(f.key, { included: e.currentTarget.checked })} aria-label={`Include ${f.name || 'feature'}`} />
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" className="grow">
                    <TextInput
                      aria-label="Feature name"
                      placeholder="Feature name"
                      value={f.name}
                      onChange={(e) => setFeature(f.key, { name: e.currentTarget.value })}
                      error={err(`features.${i}.name`)}
                    />
                    <TextInput aria-label="Feature description" placeholder="Description" value={f.description} onChange={(e) => setFeature(f.key, { description: e.currentTarget.value })} />
                  </SimpleGrid>
                  <Tooltip label="Remove feature">
                    <ActionIcon variant="subtle" color="red" mt={4} aria-label={`Remove ${f.name || 'feature'}`} onClick={() => setFeatures((list) => list.filter((x) => x.key !== f.key))}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Paper>
            ))}
          </Stack>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            w="fit-content"
            onClick={() => setFeatures((list) => [...list, { key: rowKey(), id: '', name: '', description: '', included: true }])}
          >
            Add feature
          </Button>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {editing ? 'Save Changes' : 'Add Plan'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
