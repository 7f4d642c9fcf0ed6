import { Button, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconChecklist, IconHeartbeat, IconKey, IconPlugConnected, IconTicket, IconUsers, IconWebhook } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MSG } from '../../../../../contract/messages.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { LoadError, NoPermission, NoTenant } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useTenantDetails } from '../api/tenant-details.ts';
import { TenantDetailsCard } from '../components/TenantDetailsCard.tsx';
import { UsersPanel } from '../components/UsersPanel.tsx';

const TITLE = 'Tenant Administration';
const TABS = ['users', 'integrations', 'heartbeats', 'api-tokens', 'destinations', 'psa', 'approvals'] as const;

/** The tabs that show other features' panels: the app layer passes them in (features do not import each other). */
export interface TenantAdminPanels {
  renderIntegrations: (tenantId: string) => ReactNode;
  renderHeartbeats: (tenantId: string) => ReactNode;
  renderApiTokens: (tenantId: string) => ReactNode;
  /** Outbound webhooks; the tab shows only when given. */
  renderDestinations?: (tenantId: string) => ReactNode;
  /** PSA connections (issue 30); the tab shows only when given. */
  renderPsa?: (tenantId: string) => ReactNode;
}

/** /app/tenant-admin: owners and admins of the current tenant; everyone else sees the no-permission message. */
export function TenantAdminPage(panels: TenantAdminPanels) {
  const { tenant } = useCurrentTenant();
  if (!tenant)
    return (
      <>
        <PageHeader title={TITLE} />
        <NoTenant />
      </>
    );
  if (!tenant.abilities.manageMembers)
    return (
      <>
        <PageHeader title={TITLE} />
        <NoPermission />
      </>
    );
  return <TenantAdmin key={tenant.id} tenantId={tenant.id} {...panels} />;
}

function TenantAdmin({ tenantId, renderIntegrations, renderHeartbeats, renderApiTokens, renderDestinations, renderPsa }: TenantAdminPanels & { tenantId: string }) {
  const details = useTenantDetails(tenantId);
  const [params, setParams] = useSearchParams();
  const tabs: readonly string[] = TABS.filter((t) => (t !== 'destinations' || renderDestinations) && (t !== 'psa' || renderPsa));
  const tab = tabs.includes(params.get('tab') ?? '') ? params.get('tab')! : 'users';

  if (details.isPending)
    return (
      <>
        <PageHeader title={TITLE} />
        <Loading />
      </>
    );
  if (details.isError) {
    // The server decides who administers the tenant: a 403 (or 404) here means the role changed since sign-in.
    const refused = details.error instanceof ApiError && (details.error.status === 403 || details.error.status === 404);
    return (
      <>
        <PageHeader title={TITLE} />
        {refused ? <NoPermission /> : <LoadError message={MSG.adminCheckFailed} onRetry={() => details.refetch()} />}
      </>
    );
  }

  return (
    <>
      <PageHeader title={TITLE} description={`Users, integrations, heartbeat monitors, API tokens, destinations and approval workflows of ${details.data.name}`} />
      <TenantDetailsCard details={details.data} />
      <Tabs value={tab} onChange={(v) => setParams(v && v !== 'users' ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        {/* The tabs wrap onto a second line on a phone rather than scroll out of sight. */}
        <Tabs.List mb="lg">
          <Tabs.Tab value="users" leftSection={<IconUsers size={16} />} className="no-shrink">
            Users
          </Tabs.Tab>
          <Tabs.Tab value="integrations" leftSection={<IconPlugConnected size={16} />} className="no-shrink">
            Integrations
          </Tabs.Tab>
          <Tabs.Tab value="heartbeats" leftSection={<IconHeartbeat size={16} />} className="no-shrink">
            Heartbeats
          </Tabs.Tab>
          <Tabs.Tab value="api-tokens" leftSection={<IconKey size={16} />} className="no-shrink">
            API tokens
          </Tabs.Tab>
          {renderDestinations && (
            <Tabs.Tab value="destinations" leftSection={<IconWebhook size={16} />} className="no-shrink">
              Destinations
            </Tabs.Tab>
          )}
          {renderPsa && (
            <Tabs.Tab value="psa" leftSection={<IconTicket size={16} />} className="no-shrink">
              PSA
            </Tabs.Tab>
          )}
          <Tabs.Tab value="approvals" leftSection={<IconChecklist size={16} />} className="no-shrink">
            Approval Workflows
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users">
          <UsersPanel tenantId={tenantId} tenantName={details.data.name} />
        </Tabs.Panel>
        <Tabs.Panel value="integrations">
          {renderIntegrations(tenantId)}
        </Tabs.Panel>
        <Tabs.Panel value="heartbeats">{renderHeartbeats(tenantId)}</Tabs.Panel>
        <Tabs.Panel value="api-tokens">{renderApiTokens(tenantId)}</Tabs.Panel>
        {renderDestinations && <Tabs.Panel value="destinations">{renderDestinations(tenantId)}</Tabs.Panel>}
        {renderPsa && <Tabs.Panel value="psa">{renderPsa(tenantId)}</Tabs.Panel>}
        <Tabs.Panel value="approvals">
          <Paper withBorder radius="md" p="lg">
            <Stack align="flex-start">
              <Title order={2} size="h4">Approval Workflows</Title>
              <Text c="dimmed">Approval requests and the policies that route them through manager, director and executive levels.</Text>
              <Button component={Link} to="/app/approval-workflows" leftSection={<IconChecklist size={16} />}>
                Open Approval Workflows
              </Button>
            </Stack>
          </Paper>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
