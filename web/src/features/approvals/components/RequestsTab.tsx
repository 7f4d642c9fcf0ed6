import { useEffect, type ReactNode } from 'react';
import { Group, Stack, Text } from '@mantine/core';
import { IconChecklist, IconInbox, IconListDetails } from '@tabler/icons-react';
import { APPROVAL_MSG, type ApprovalRequestSummary, type ApprovalView } from '../../../../../contract/approvals.ts';
import { LoadError, NoPermission, StatePanel } from '../../../components/AccessState.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useApprovalRequests } from '../api/list-approval-requests.ts';
import { RequestList } from './RequestList.tsx';
import { Pager } from '../../../components/Pager.tsx';


const EMPTY: Record<ApprovalView, { text: string; icon: ReactNode }> = {
  pending: { text: APPROVAL_MSG.noPending, icon: <IconInbox /> },
  mine: { text: APPROVAL_MSG.noMine, icon: <IconListDetails /> },
  all: { text: APPROVAL_MSG.noAll, icon: <IconChecklist /> },
};

export interface RequestsTabProps {
  tenantId: string;
  view: ApprovalView;
  page: number;
  onPage: (page: number) => void;
  onView: (r: ApprovalRequestSummary) => void;
  onApprove: (r: ApprovalRequestSummary) => void;
  onCancel: (r: ApprovalRequestSummary) => void;
  /** Shown in the empty state (My Requests: New Request). */
  emptyAction?: ReactNode;
}

/** One of the request tabs (Pending Approvals, My Requests, All Requests): states, the list, and its pages. */
export function RequestsTab({ tenantId, view, page, onPage, onView, onApprove, onCancel, emptyAction }: RequestsTabProps) {
  const query = useApprovalRequests(tenantId, { view, page });
  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  // When the last request of the last page went away (approved, cancelled), step back to the page that now is last.
  useEffect(() => {
    if (data && !query.isPlaceholderData && data.items.length === 0 && data.total > 0 && page > totalPages) onPage(totalPages);
  }, [data, page, totalPages, query.isPlaceholderData, onPage]);

  if (query.isPending) return <Loading />;
  if (query.isError && !data) {
    if (query.error instanceof ApiError && (query.error.status === 403 || query.error.status === 404)) return <NoPermission />;
    return <LoadError message={view === 'pending' ? APPROVAL_MSG.loadPendingFailed : APPROVAL_MSG.loadRequestsFailed} onRetry={() => void query.refetch()} />;
  }
  if (!data || data.total === 0)
    return (
      <StatePanel icon={EMPTY[view].icon} title={EMPTY[view].text}>
        {emptyAction}
      </StatePanel>
    );

  const first = (data.page - 1) * data.pageSize + 1;
  return (
    <Stack gap="md" className={query.isPlaceholderData ? 'stale' : undefined} data-testid={`approvals-${view}`}>
      <RequestList view={view} items={data.items} onView={onView} onApprove={onApprove} onCancel={onCancel} />
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" data-testid="approvals-range">
          {data.items.length ? `Showing ${first}-${first + data.items.length - 1} of ${data.total}` : `${data.total} requests`}
        </Text>
        {data.total > data.pageSize && (
          <Pager total={totalPages} value={Math.min(page, totalPages)} onChange={onPage} siblings={1} boundaries={1} />
        )}
      </Group>
    </Stack>
  );
}
