import { useRef, useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle, IconPaperclip } from '@tabler/icons-react';
import { APPROVAL_DEFAULTS, APPROVAL_LIMITS, APPROVAL_MSG, APPROVAL_TYPE_LABELS, FORM_REQUEST_TYPES, type ApprovalRequest, type ApprovalType } from '../../../../../contract/approvals.ts';
import { FailureAlert } from '../../../components/FailureAlert.tsx';
import { ApiError } from '../../../lib/api.ts';
import { useApprovalRequestTypes } from '../api/approval-request-types.ts';
import { useCreateApprovalRequest } from '../api/create-approval-request.ts';
import { initialMetadata, MetadataEditor, readMetadata } from './MetadataEditor.tsx';

/**
 * The type a new request starts with: the spec's default (access) when an active policy routes it, else the first
 * type that has one; the spec's default while that is unknown (or when no type has one).
 */
export function defaultType(withPolicy: ReadonlySet<ApprovalType> | null): ApprovalType {
  if (!withPolicy || withPolicy.has(APPROVAL_DEFAULTS.type)) return APPROVAL_DEFAULTS.type;
  return FORM_REQUEST_TYPES.find((t) => withPolicy.has(t)) ?? APPROVAL_DEFAULTS.type;
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

interface FormProps {
  tenantId: string;
  onClose: () => void;
  onCreated: (r: ApprovalRequest) => void;
  /** Opens the Approval Policies tab: given to those who may manage policies. */
  onOpenPolicies?: () => void;
}

/**
 * Create Approval Request: title, description, type (those without an active policy marked and not offered),
 * metadata as key/value rows or JSON, and up to 5 attachments.
 */
export function RequestFormModal({ opened, ...props }: FormProps & { opened: boolean }) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={opened} onClose={props.onClose} title="Create Approval Request" size="lg" centered fullScreen={phone} data-testid="request-form">
      {opened && <RequestForm {...props} />}
    </Modal>
  );
}

function RequestForm({ tenantId, onClose, onCreated, onOpenPolicies }: FormProps) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  // Null until the person picks one: the default then follows what the server says has a policy.
  const [picked, setPicked] = useState<ApprovalType | null>(null);
  const [metadata, setMetadata] = useState(initialMetadata);
  const types = useApprovalRequestTypes(tenantId);
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

  // Unknown (loading, or the look-up failed): every type is offered and the server has the last word.
  const withPolicy = types.data ? new Set(types.data.filter((t) => t.hasActivePolicy).map((t) => t.type)) : null;
  const type = picked ?? defaultType(withPolicy);
  const noneHasPolicy = withPolicy?.size === 0;
  const typeWithoutPolicy = !!withPolicy && !withPolicy.has(type);
  const typeChoices = FORM_REQUEST_TYPES.map((t) =>
    withPolicy && !withPolicy.has(t) ? { value: t, label: APPROVAL_MSG.typeNoActivePolicy(APPROVAL_TYPE_LABELS[t]), disabled: true } : { value: t, label: APPROVAL_TYPE_LABELS[t] },
  );
  const meta = readMetadata(metadata);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const fileError = attachmentsError(files);
    if (meta.error || meta.problems.size || fileError || typeWithoutPolicy)
      return showErrors({ ...(meta.error ? { metadata: meta.error } : {}), ...(fileError ? { attachments: fileError } : {}) });
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
  const blocked = !title.trim() || !description.trim() || typeWithoutPolicy || !!errors.metadata || meta.problems.size > 0 || !!errors.attachments;

  return (
    <form onSubmit={submit} noValidate ref={formRef}>
      <Stack gap="md">
        {noneHasPolicy && (
          <Alert color="yellow" icon={<IconInfoCircle />} title={APPROVAL_MSG.noTypeHasPolicy} data-testid="no-type-has-policy">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{onOpenPolicies ? APPROVAL_MSG.noTypeHasPolicyManager : APPROVAL_MSG.noTypeHasPolicyMember}</Text>
              {onOpenPolicies && (
                <Button size="xs" variant="light" color="yellow" onClick={onOpenPolicies}>
                  Open Approval Policies
                </Button>
              )}
            </Stack>
          </Alert>
        )}
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
          data={typeChoices}
          value={type}
          onChange={(v) => {
            if (v) setPicked(v as ApprovalType);
            setError('type', null);
          }}
          allowDeselect={false}
          // Said before submit: the type in the field has no policy (e.g. deactivated while the form was open).
          error={errors.type ?? (typeWithoutPolicy && !noneHasPolicy ? APPROVAL_MSG.noActivePolicy(type) : undefined)}
          disabled={noneHasPolicy}
          comboboxProps={{ withinPortal: true }}
          data-testid="request-type"
        />
        <MetadataEditor state={metadata} onChange={setMetadata} error={errors.metadata} onError={(m) => setError('metadata', m)} />
        <FileInput
          label="Attachments"
          description={`Up to ${APPROVAL_LIMITS.attachments} files, each at most 10 MB`}
          placeholder="Choose files"
          // Mantine's placeholder grey is under 4.5:1 here, and this one is a real element axe reads.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
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
