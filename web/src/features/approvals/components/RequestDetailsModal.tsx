import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Code, Divider, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconPaperclip } from '@tabler/icons-react';
import { APPROVAL_LEVEL_LABELS, APPROVAL_MSG, type ApprovalRequest } from '../../../../../contract/approvals.ts';
import { Loading } from '../../../components/Loading.tsx';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { attachmentUrl } from '../api/approvals-path.ts';
import { useApprovalRequest } from '../api/get-approval-request.ts';
import { ApprovalStatusBadge, ApprovalTypeBadge } from './ApprovalBadges.tsx';
import { peopleLookup } from './people.ts';
import { RequestDecision, type DecisionMode } from './RequestDecision.tsx';
import { RequestHistory } from './RequestHistory.tsx';
import { RequestLevels } from './RequestLevels.tsx';


function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" className="wrap-anywhere" data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={6}>
        {title}
      </Text>
      {children}
    </div>
  );
}

const fileSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Request Details (spec section 2): everything about one request, and the decision the viewer may take. */
export function RequestDetailsModal({ tenantId, requestId, initialMode, onClose }: { tenantId: string; requestId: string | null; initialMode: DecisionMode | null; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const query = useApprovalRequest(tenantId, requestId);
  return (
    <Modal opened={!!requestId} onClose={onClose} title="Request Details" size="xl" fullScreen={phone} closeButtonProps={{ 'aria-label': 'Close dialog' }} data-testid="request-details">
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" icon={<IconAlertCircle />} data-testid="request-load-error">
          {query.error instanceof ApiError && query.error.status === 404 ? APPROVAL_MSG.requestNotFound : APPROVAL_MSG.loadRequestFailed}
        </Alert>
      ) : (
        <RequestDetailsBody key={query.data.id} tenantId={tenantId} request={query.data} initialMode={initialMode} />
      )}
    </Modal>
  );
}

function RequestDetailsBody({ tenantId, request, initialMode }: { tenantId: string; request: ApprovalRequest; initialMode: DecisionMode | null }) {
  const [conflict, setConflict] = useState<string | null>(null);
  const person = peopleLookup(request.people);
  const current = request.levels[request.currentLevel];
  const metadata = Object.keys(request.metadata).length ? JSON.stringify(request.metadata, null, 2) : null;

  return (
    <Stack gap="md">
      <div>
        <Group gap={6} mb={6}>
          <ApprovalStatusBadge status={request.status} size="md" />
          <ApprovalTypeBadge type={request.type} />
        </Group>
        <Title order={3} className="wrap-anywhere" data-testid="request-title">
          {request.title}
        </Title>
      </div>

      {conflict && (
        <Alert color="orange" icon={<IconAlertCircle />} withCloseButton onClose={() => setConflict(null)} data-testid="request-conflict">
          {conflict}
        </Alert>
      )}

      {request.status === 'pending' && <RequestDecision tenantId={tenantId} request={request} initialMode={initialMode} onNoLongerPending={setConflict} />}

      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
        <Field label="Requested by" testId="request-requester">
          {request.requestedBy.name}
          <Text size="xs" c="dimmed" className="wrap-anywhere">
            {request.requestedBy.email}
          </Text>
        </Field>
        <Field label="Created">{formatDateTime(request.createdAt)}</Field>
        <Field label="Updated">{formatDateTime(request.updatedAt)}</Field>
        <Field label="Current level" testId="request-current-level">
          {current ? `${APPROVAL_LEVEL_LABELS[current.level]} (${request.currentLevel + 1} of ${request.levels.length})` : 'N/A'}
        </Field>
        <Field label="Expires" testId="request-expires">
          {request.status === 'pending' ? formatDateTime(request.expiresAt) : 'N/A'}
        </Field>
      </SimpleGrid>

      <Section title="Description">
        <Text size="sm" className="pre-wrap" data-testid="request-description">
          {request.description}
        </Text>
      </Section>

      <Section title="Metadata">
        {metadata ? (
          <Code block data-testid="request-metadata" style={{ maxHeight: 260, overflow: 'auto' }}>
            {metadata}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            No metadata
          </Text>
        )}
      </Section>

      <Section title="Attachments">
        {request.attachments.length ? (
          <Stack gap={4} data-testid="request-attachments">
            {request.attachments.map((a) => (
              <Group key={a.id} gap={6} wrap="nowrap">
                <IconPaperclip size={16} className="no-shrink" />
                <Anchor href={attachmentUrl(tenantId, request.id, a.id)} download={a.filename} size="sm" className="wrap-anywhere">
                  {a.filename}
                </Anchor>
                <Text size="xs" c="dimmed" className="nowrap">
                  {fileSize(a.size)}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            No attachments
          </Text>
        )}
      </Section>

      <Section title="Approval levels">
        <RequestLevels levels={request.levels} current={request.currentLevel} person={person} />
      </Section>

      <Divider />

      <Section title="History">
        <RequestHistory history={request.history} />
      </Section>
    </Stack>
  );
}
