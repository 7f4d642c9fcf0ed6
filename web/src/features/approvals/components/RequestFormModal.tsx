import { useRef, useState } from 'react';
import { Button, FileInput, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPaperclip } from '@tabler/icons-react';
import { APPROVAL_DEFAULTS, APPROVAL_LIMITS, APPROVAL_MSG, APPROVAL_TYPE_LABELS, APPROVAL_TYPES, type ApprovalRequest, type ApprovalType } from '../../../../../contract/approvals.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useCreateApprovalRequest } from '../api/create-approval-request.ts';

const TYPE_CHOICES = APPROVAL_TYPES.map((t) => ({ value: t, label: APPROVAL_TYPE_LABELS[t] }));

/**
 * The metadata box's text as a JSON object: empty is no metadata; text that is not JSON is 'Invalid JSON format'
 * (unlike the spec's form, which then created the request with empty metadata, we stop and say so).
 */
export function parseMetadata(text: string): { value: Record<string, unknown> | undefined; error: string | null } {
  if (!text.trim()) return { value: undefined, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { value: undefined, error: APPROVAL_MSG.invalidJson };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { value: undefined, error: APPROVAL_MSG.metadataNotObject };
  return { value: parsed as Record<string, unknown>, error: null };
}

/** What is wrong with the chosen files, if anything: at most 5, each at most 10 MB. */
export function attachmentsError(files: File[]): string | null {
  if (files.length > APPROVAL_LIMITS.attachments) return APPROVAL_MSG.tooManyAttachments;
  if (files.some((f) => f.size > APPROVAL_LIMITS.attachmentBytes)) return APPROVAL_MSG.attachmentTooLarge;
  return null;
}

const FIELDS = new Set(['title', 'description', 'type', 'metadata', 'attachments']);

/** The server's refusal as errors under the form's fields (`attachments.0` belongs to the file input); null if none fits. */
function fieldErrorsOf(err: unknown): Record<string, string> | null {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 413)) return null;
  const found: Record<string, string> = {};
  for (const [path, message] of Object.entries(err.fields)) {
    const field = path.split('.')[0]!;
    if (FIELDS.has(field)) found[field] ??= message;
  }
  return Object.keys(found).length ? found : null;
}

/** Create Approval Request: title, description, type, metadata as JSON, and up to 5 attachments. */
export function RequestFormModal({ tenantId, opened, onClose, onCreated }: { tenantId: string; opened: boolean; onClose: () => void; onCreated: (r: ApprovalRequest) => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={onClose} title="Create Approval Request" size="lg" centered fullScreen={phone} data-testid="request-form">
      {opened && <RequestForm tenantId={tenantId} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function RequestForm({ tenantId, onClose, onCreated }: { tenantId: string; onClose: () => void; onCreated: (r: ApprovalRequest) => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<ApprovalType>(APPROVAL_DEFAULTS.type);
  const [metadata, setMetadata] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateApprovalRequest(tenantId);
  const formRef = useRef<HTMLFormElement>(null);

  const setError = (field: string, message: string | null) =>
    setErrors((e) => {
      if (message) return { ...e, [field]: message };
      if (!(field in e)) return e;
      const { [field]: _cleared, ...rest } = e;
      return rest;
    });
  const showErrors = (found: Record<string, string>) => {
    setErrors(found);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const meta = parseMetadata(metadata);
    const fileError = attachmentsError(files);
    if (meta.error || fileError) return showErrors({ ...(meta.error ? { metadata: meta.error } : {}), ...(fileError ? { attachments: fileError } : {}) });
    try {
      const request = await create.mutateAsync({ body: { title, description, type, metadata: meta.value }, files });
      notifications.show({ color: 'green', message: APPROVAL_MSG.created });
      onCreated(request);
    } catch (err) {
      const found = fieldErrorsOf(err);
      if (found) showErrors(found);
    }
  };
  // A field error of the server shows under its field; anything else in the alert.
  const showFailure = create.error && !fieldErrorsOf(create.error);
  const blocked = !title.trim() || !description.trim() || !!errors.metadata || !!errors.attachments;

  return (
    <form onSubmit={submit} noValidate ref={formRef}>
      <Stack gap="md">
        <TextInput
          label="Title"
          withAsterisk
          data-autofocus
          maxLength={APPROVAL_LIMITS.title}
          value={title}
          onChange={(e) => {
            setTitle(e.currentTarget.value);
            setError('title', null);
          }}
          error={errors.title}
        />
        <Textarea
          label="Description"
          withAsterisk
          autosize
          minRows={3}
          maxRows={8}
          maxLength={APPROVAL_LIMITS.description}
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            setError('description', null);
          }}
          error={errors.description}
        />
        <Select
          label="Type"
          description="The active policy of this type decides who approves"
          data={TYPE_CHOICES}
          value={type}
          onChange={(v) => {
            if (v) setType(v as ApprovalType);
            setError('type', null);
          }}
          allowDeselect={false}
          error={errors.type}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label="Metadata (JSON)"
          description='Optional details as a JSON object, e.g. {"amount": 120, "currency": "EUR"}'
          autosize
          minRows={3}
          maxRows={10}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={metadata}
          onChange={(e) => {
            setMetadata(e.currentTarget.value);
            setError('metadata', null);
          }}
          onBlur={() => setError('metadata', parseMetadata(metadata).error)}
          error={errors.metadata}
        />
        <FileInput
          label="Attachments"
          description={`Up to ${APPROVAL_LIMITS.attachments} files, each at most 10 MB`}
          placeholder="Choose files"
          multiple
          clearable
          leftSection={<IconPaperclip size={16} />}
          value={files}
          onChange={(v) => {
            setFiles(v);
            setError('attachments', attachmentsError(v));
          }}
          error={errors.attachments}
        />
        {showFailure ? <FailureAlert title={APPROVAL_MSG.createFailed} error={create.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={blocked}>
            Create Request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
