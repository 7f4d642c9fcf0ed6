import { useCallback, useState } from 'react';
import { Badge, Button, Tabs } from '@mantine/core';
import { IconChecklist, IconInbox, IconListDetails, IconPlus, IconSitemap } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import type { MeTenant } from '../../../../../contract/auth.ts';
import type { ApprovalRequestSummary } from '../../../../../contract/approvals.ts';
import { NoPermission, NoTenant } from '../../../components/AccessState.tsx';
import { LiveIndicator } from '../../../components/LiveIndicator.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useCurrentTenant } from '../../../lib/session.tsx';
import { useApprovalStream } from '../api/approval-stream.ts';
import { useApprovalRequests } from '../api/list-approval-requests.ts';
import { CancelRequestModal } from '../components/CancelRequestModal.tsx';
import { PoliciesTab } from '../components/PoliciesTab.tsx';
import { RequestDetailsModal } from '../components/RequestDetailsModal.tsx';
import type { DecisionMode } from '../components/RequestDecision.tsx';
import { RequestFormModal } from '../components/RequestFormModal.tsx';
import { RequestsTab } from '../components/RequestsTab.tsx';

type Tab = 'pending' | 'mine' | 'all' | 'policies';
const TABS: Array<{ value: Tab; label: string; icon: typeof IconInbox; ability?: 'viewAllApprovals' | 'manageApprovalPolicies' }> = [
  { value: 'pending', label: 'Pending Approvals', icon: IconInbox },
  { value: 'mine', label: 'My Requests', icon: IconListDetails },
  { value: 'all', label: 'All Requests', icon: IconChecklist, ability: 'viewAllApprovals' },
  { value: 'policies', label: 'Approval Policies', icon: IconSitemap, ability: 'manageApprovalPolicies' },
];

const TITLE = 'Approval Workflows';
const DESCRIPTION = 'Requests waiting for a decision, your own requests, and the policies that route them';

/**
 * /app/approval-workflows (spec section 2). Every member sees Pending Approvals and My Requests; owners and admins also
 * All Requests and Approval Policies. The tab, the page and the open request live in the URL, so an emailed link
 * `?request=<id>` opens that request.
 */
export function ApprovalWorkflowsPage() {
  const { tenant } = useCurrentTenant();
  if (!tenant)
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <NoTenant />
      </>
    );
  // Keyed by tenant: switching tenants starts from closed modals.
  return <ApprovalsView key={tenant.id} tenant={tenant} />;
}

function useApprovalParams(tabs: typeof TABS) {
  const [params, setParams] = useSearchParams();
  const tab: Tab = tabs.find((t) => t.value === params.get('tab'))?.value ?? 'pending';
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const requestId = params.get('request') || null;
  const update = useCallback(
    (patch: Partial<Record<'tab' | 'page' | 'request', string | number | null>>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            const isDefault = v === null || v === '' || (k === 'tab' && v === 'pending') || (k === 'page' && v === 1);
            if (isDefault) next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { tab, page, requestId, update };
}

function ApprovalsView({ tenant }: { tenant: MeTenant }) {
  const tenantId = tenant.id;
  const tabs = TABS.filter((t) => !t.ability || tenant.abilities[t.ability]);
  const { tab, page, requestId, update } = useApprovalParams(tabs);
  const [detailsMode, setDetailsMode] = useState<DecisionMode | null>(null);
  const [creating, setCreating] = useState(false);
  const [cancelling, setCancelling] = useState<ApprovalRequestSummary | null>(null);
  const stream = useApprovalStream(tenantId);
  const phone = useMediaQuery('(max-width: 36em)');
  // The badge's count: the pending list's first page (the same query the tab shows on its first page).
  const pending = useApprovalRequests(tenantId, { view: 'pending', page: 1 });

  const onPage = useCallback((p: number) => update({ page: p }), [update]);
  const openRequest = (r: ApprovalRequestSummary, mode: DecisionMode | null = null) => {
    setDetailsMode(mode);
    update({ request: r.id });
  };
  const closeRequest = () => {
    setDetailsMode(null);
    update({ request: null });
  };

  const header = (
    <PageHeader
      title={TITLE}
      description={DESCRIPTION}
      actions={
        <>
          <LiveIndicator state={stream} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New Request
          </Button>
        </>
      }
    />
  );
  // The server refuses the tenant (membership ended meanwhile): nothing here is for this person.
  if (pending.error instanceof ApiError && (pending.error.status === 403 || pending.error.status === 404))
    return (
      <>
        <PageHeader title={TITLE} description={DESCRIPTION} />
        <NoPermission />
      </>
    );

  const requestsTab = (view: 'pending' | 'mine' | 'all') => (
    <RequestsTab
      tenantId={tenantId}
      view={view}
      page={page}
      onPage={onPage}
      onView={(r) => openRequest(r)}
      onApprove={(r) => openRequest(r, 'approve')}
      onCancel={setCancelling}
      emptyAction={
        view === 'mine' ? (
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            New Request
          </Button>
        ) : undefined
      }
    />
  );

  return (
    <>
      {header}
      <Tabs value={tab} onChange={(v) => update({ tab: v, page: null })} keepMounted={false}>
        {/* Wrapped, not scrolled sideways: on a phone the owners' two tabs make a second row instead of going off screen. */}
        <Tabs.List mb="lg" data-testid="approval-tabs">
          {tabs.map((t) => (
            <Tabs.Tab
              key={t.value}
              value={t.value}
              leftSection={<t.icon size={16} />}
              // Narrower on a phone, so two tabs share a row.
              px={phone ? 'xs' : undefined}
              className="no-shrink"
              rightSection={
                t.value === 'pending' && pending.data ? (
                  <Badge size="sm" circle={pending.data.total < 10} color={pending.data.total ? 'red' : 'gray'} variant={pending.data.total ? 'filled' : 'light'} data-testid="pending-count">
                    {pending.data.total}
                  </Badge>
                ) : undefined
              }
            >
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="pending">{requestsTab('pending')}</Tabs.Panel>
        <Tabs.Panel value="mine">{requestsTab('mine')}</Tabs.Panel>
        {tenant.abilities.viewAllApprovals && <Tabs.Panel value="all">{requestsTab('all')}</Tabs.Panel>}
        {tenant.abilities.manageApprovalPolicies && (
          <Tabs.Panel value="policies">
            <PoliciesTab tenantId={tenantId} />
          </Tabs.Panel>
        )}
      </Tabs>

      <RequestFormModal
        tenantId={tenantId}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          update({ tab: 'mine', page: null });
        }}
        onOpenPolicies={
          tenant.abilities.manageApprovalPolicies
            ? () => {
                setCreating(false);
                update({ tab: 'policies', page: null });
              }
            : undefined
        }
      />
      <RequestDetailsModal tenantId={tenantId} requestId={requestId} initialMode={detailsMode} onClose={closeRequest} />
      <CancelRequestModal tenantId={tenantId} request={cancelling} onClose={() => setCancelling(null)} />
    </>
  );
}
