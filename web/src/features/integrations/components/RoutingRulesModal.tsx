import { useEffect, useMemo, useState } from 'react';
import { Alert as Callout, Button, Grid, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { RULE_LIMITS, type RoutingRule, type RulesPreview } from '../../../../../contract/ingest-formats.ts';
import type { Integration } from '../../../../../contract/integrations.ts';
import { LoadError, NoPermission } from '../../../components/AccessState.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useClientChoices } from '../../../lib/client-choices.ts';
import { policySelectData, useEscalationPolicyChoices } from '../../../lib/escalation-policy-choices.ts';
import { useRoutingRules, useRulesPreview, useSaveRoutingRules } from '../api/routing-rules.ts';
import { RoutingRuleCard } from './RoutingRuleCard.tsx';
import { RulesPreviewPanel } from './RulesPreviewPanel.tsx';
import { draftOf, fieldsSeen, newRule, rulesOf, type RuleDraft } from './rules-draft.ts';

const PREVIEW_DEBOUNCE_MS = 400;

/** "Rule 2: …" for a server message about `rules.1.…`. */
function withRule(error: ApiError) {
  const key = Object.keys(error.fields)[0] ?? '';
  const m = /^rules\.(\d+)/.exec(key);
  return m ? `Rule ${Number(m[1]) + 1}: ${error.message}` : error.message;
}

interface EditorProps {
  tenantId: string;
  integration: Integration;
  saved: RoutingRule[];
  onDone: () => void;
  /** Cancel: the modal asks first when there are unsaved changes. */
  onCancel: () => void;
  onDirty: (dirty: boolean) => void;
}

/** The ordered rules being edited, Save, and the live preview of what they make of the recent events. */
function RulesEditor({ tenantId, integration, saved, onDone, onCancel, onDirty }: EditorProps) {
  const [drafts, setDrafts] = useState<RuleDraft[]>(() => saved.map(draftOf));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const initial = useMemo(() => JSON.stringify(rulesOf(saved.map(draftOf))), [saved]);
  const rules = useMemo(() => rulesOf(drafts), [drafts]);
  const dirty = JSON.stringify(rules) !== initial;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  const [debounced] = useDebouncedValue(rules, PREVIEW_DEBOUNCE_MS);
  const preview = useRulesPreview(tenantId, integration.id, debounced);
  const save = useSaveRoutingRules(tenantId, integration.id);
  const clients = useClientChoices(tenantId);
  const policies = useEscalationPolicyChoices(tenantId);
  const policyData = useMemo(() => policySelectData(policies.data), [policies.data]);
  // The policy a previewed alert gets from the rule that applied (none: as without rules).
  const policyOfRule = (rule: number | null) => {
    const id = rule === null ? undefined : debounced[rule]?.then.escalationPolicyId;
    return id ? (policies.data?.find((p) => p.id === id)?.name ?? 'Unknown policy') : null;
  };

  // The last preview that read: its fields stay suggested, and it stays on screen while a rule is not valid yet.
  const [lastGood, setLastGood] = useState<RulesPreview | undefined>(undefined);
  useEffect(() => {
    if (preview.data) setLastGood(preview.data);
  }, [preview.data]);
  const fields = useMemo(() => fieldsSeen(lastGood), [lastGood]);
  const clientData = useMemo(() => (clients.data ?? []).map((c) => ({ value: c.id, label: c.name })), [clients.data]);

  const clearError = (...keys: string[]) =>
    setErrors((e) => (keys.some((k) => e[k]) ? Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))) : e));
  // Positions change: the server's messages name positions, so they no longer apply.
  const restructure = (next: RuleDraft[]) => {
    setDrafts(next);
    setErrors({});
    setFailure(null);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...drafts];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    restructure(next);
  };

  const submit = () => {
    setFailure(null);
    save.mutate(rules, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Routing rules of ${integration.name} saved` });
        onDone();
      },
      onError: (err) => {
        if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
        setFailure(err instanceof ApiError ? withRule(err) : err instanceof Error ? err.message : String(err));
      },
    });
  };

  const refused = preview.error instanceof ApiError && preview.error.status === 400 ? preview.error : null;
  return (
    <>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="sm" data-testid="rules-editor">
            <Text size="sm" c="dimmed">
              The first rule whose conditions all hold decides. Events no rule matches keep their client, priority and dedup key.
            </Text>
            {failure && (
              <Callout color="red" icon={<IconAlertTriangle />} data-testid="rules-failure" p="xs">
                <Text size="sm">Not saved: {failure}</Text>
              </Callout>
            )}
            {errors.rules && (
              <Text size="sm" c="red">
                {errors.rules}
              </Text>
            )}
            {drafts.length === 0 && (
              <Paper withBorder p="md" radius="md" ta="center">
                <Text size="sm" c="dimmed" data-testid="rules-empty">
                  No rules yet: events keep their client, priority and dedup key.
                </Text>
              </Paper>
            )}
            {drafts.map((d, i) => (
              <RoutingRuleCard
                key={d.key}
                index={i}
                count={drafts.length}
                rule={d}
                onChange={(r) => setDrafts((all) => all.map((x) => (x.key === r.key ? r : x)))}
                onRestructure={(r) => restructure(drafts.map((x) => (x.key === r.key ? r : x)))}
                onMove={(by) => move(i, by)}
                onRemove={() => restructure(drafts.filter((x) => x.key !== d.key))}
                errors={errors}
                clearError={clearError}
                fields={fields}
                clients={clientData}
                clientsLoading={clients.isPending}
                policies={policyData}
                policiesLoading={policies.isPending}
              />
            ))}
            {drafts.length < RULE_LIMITS.rules && (
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => restructure([...drafts, newRule()])} style={{ alignSelf: 'flex-start' }}>
                Add rule
              </Button>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <RulesPreviewPanel
            preview={preview.data ?? (refused ? lastGood : undefined)}
            pending={preview.isPending}
            fetching={preview.isFetching}
            error={refused ? new ApiError(400, refused.code, withRule(refused), refused.fields) : preview.error}
            onRetry={() => void preview.refetch()}
            ownClient={integration.clientName}
            policyOfRule={policyOfRule}
          />
        </Grid.Col>
      </Grid>
      {/* Save stays in reach below a long list of rules or events. */}
      <Group justify="flex-end" mt="md" py="sm" style={{ position: 'sticky', bottom: 0, zIndex: 2, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending} disabled={!dirty && !failure}>
          Save rules
        </Button>
      </Group>
    </>
  );
}

/**
 * Routing rules of one integration (Tenant Admin → Integrations → "Routing rules"), in a modal: the whole screen on a
 * phone. Loaded only when opened (IntegrationsPanel imports it lazily). Closing with unsaved changes asks first.
 */
export function RoutingRulesModal({ tenantId, integration, onClose }: { tenantId: string; integration: Integration; onClose: () => void }) {
  const phone = !!useMediaQuery('(max-width: 36em)');
  const saved = useRoutingRules(tenantId, integration.id);
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const requestClose = () => (dirty ? setAsking(true) : onClose());

  let body;
  if (saved.isPending) body = <Loading />;
  else if (saved.isError)
    body = saved.error instanceof ApiError && saved.error.status === 403 ? <NoPermission /> : <LoadError message="The rules could not be loaded" onRetry={() => void saved.refetch()} />;
  else body = <RulesEditor tenantId={tenantId} integration={integration} saved={saved.data.rules} onDone={onClose} onCancel={requestClose} onDirty={setDirty} />;

  return (
    <>
      <Modal opened onClose={requestClose} title={`Routing rules: ${integration.name}`} size="80rem" fullScreen={phone} data-testid="routing-rules-modal">
        {body}
      </Modal>
      <ConfirmModal opened={asking} title="Discard changes?" confirmLabel="Discard" cancelLabel="Keep editing" loading={false} onClose={() => setAsking(false)} onConfirm={onClose}>
        <Text size="sm">Your changes to the rules are not saved.</Text>
      </ConfirmModal>
    </>
  );
}
