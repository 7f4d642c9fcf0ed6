import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, NumberInput, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_RULE_DELAY_MINUTES, PERSONAL_CHANNEL_LABELS, PERSONAL_CHANNELS, RULES_MSG, type NotificationRule, type PersonalChannel } from '../../../../../contract/profile.ts';
import { LoadError } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useNotificationRules, useSaveNotificationRules } from '../api/notification-rules.ts';
import { useServerConfig } from '../../../lib/server-config.ts';

const MAX_RULES = 10;

/** How I am reached when paged (issue 27): ordered rules `{ channel, delay }`; none: every channel of a level at once. */
export function NotificationRulesCard() {
  const rules = useNotificationRules();
  if (rules.isPending) return <Loading />;
  if (rules.isError) return <LoadError message="Failed to load notification rules" onRetry={() => rules.refetch()} />;
  return <RulesForm initial={rules.data.rules} />;
}

type Row = { channel: PersonalChannel | null; delay: number | string };

function RulesForm({ initial }: { initial: NotificationRule[] }) {
  const [rows, setRows] = useState<Row[]>(initial.map((r) => ({ channel: r.channel, delay: r.delayMinutes })));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveNotificationRules();
  // A voice call where the server can place one (or where a saved rule already names it, so it stays readable).
  const voice = useServerConfig().data?.voiceEnabled || initial.some((r) => r.channel === 'voice');
  const channels = PERSONAL_CHANNELS.filter((c) => c !== 'voice' || voice);
  const set = (i: number, row: Partial<Row>) => {
    setRows((rs) => rs.map((r, k) => (k === i ? { ...r, ...row } : r)));
    setErrors({});
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      const d = Number(r.delay);
      if (r.delay === '' || !Number.isInteger(d) || d < 0 || d > MAX_RULE_DELAY_MINUTES) found[`rules.${i}.delayMinutes`] = RULES_MSG.delayInvalid;
      if (!r.channel) found[`rules.${i}.channel`] = 'Choose a channel';
      else if (seen.has(r.channel)) found[`rules.${i}.channel`] = RULES_MSG.channelTwice;
      if (r.channel) seen.add(r.channel);
    });
    if (Object.keys(found).length) return setErrors(found);
    try {
      const saved = await save.mutateAsync({ rules: rows.map((r) => ({ channel: r.channel!, delayMinutes: Number(r.delay) })) });
      setRows(saved.rules.map((r) => ({ channel: r.channel, delay: r.delayMinutes })));
      notifications.show({ color: 'green', message: RULES_MSG.saved });
    } catch (err) {
      setErrors(err instanceof ApiError && Object.keys(err.fields).length ? err.fields : { form: err instanceof Error ? err.message : String(err) });
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} noValidate data-testid="notification-rules">
      <Stack gap="sm" maw={560}>
        <div>
          <Title order={2} size="h4">When I am paged</Title>
          <Text size="sm" c="dimmed">
            Your rules, in order, until the alert is acknowledged: for example push at once, SMS after 2 minutes. An escalation level pages you only on the channels it
            allows. Without rules, every channel of the level pages you at once.
          </Text>
        </div>
        {rows.map((r, i) => (
          <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid={`rule-${i}`}>
            <Select
              aria-label={`Rule ${i + 1} channel`}
              placeholder="Channel"
              data={channels.map((c) => ({ value: c, label: PERSONAL_CHANNEL_LABELS[c] }))}
              value={r.channel}
              onChange={(v) => set(i, { channel: v as PersonalChannel | null })}
              error={errors[`rules.${i}.channel`]}
              allowDeselect={false}
              w={140}
            />
            <NumberInput
              aria-label={`Rule ${i + 1} delay in minutes`}
              value={r.delay}
              onChange={(v) => set(i, { delay: v })}
              min={0}
              max={MAX_RULE_DELAY_MINUTES}
              allowDecimal={false}
              allowNegative={false}
              rightSection={<Text size="xs" c="dimmed" pr={8}>min</Text>}
              rightSectionWidth={40}
              error={errors[`rules.${i}.delayMinutes`]}
              w={130}
            />
            <ActionIcon variant="subtle" color="gray" size="lg" mt={2} aria-label={`Remove rule ${i + 1}`} onClick={() => setRows((rs) => rs.filter((_, k) => k !== i))}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        {rows.length === 0 && (
          <Text size="sm" data-testid="rules-default">
            No rules: every channel of a level pages you at once.
          </Text>
        )}
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group>
          <Button variant="default" leftSection={<IconPlus size={14} />} disabled={rows.length >= MAX_RULES} onClick={() => setRows((rs) => [...rs, { channel: channels.find((c) => !rs.some((r) => r.channel === c)) ?? null, delay: rs.length ? Number(rs[rs.length - 1].delay) + 2 || 0 : 0 }])}>
            Add rule
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save rules
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
