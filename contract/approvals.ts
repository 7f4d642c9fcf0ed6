import { z } from 'zod';
import { boundedJson, JSON_LIMITS, listOf, requiredString, TenantParam } from './common.ts';

/** Request types, policy level types (in their order), statuses: spec sections 3 and 4. */
export const APPROVAL_TYPES = ['expense', 'access', 'change', 'custom', 'shift_swap'] as const;
export type ApprovalType = (typeof APPROVAL_TYPES)[number];
export const APPROVAL_TYPE_LABELS: Record<ApprovalType, string> = { expense: 'Expense', access: 'Access', change: 'Change', custom: 'Custom', shift_swap: 'Shift swap' };
/** Issue 27: a shift swap is asked from "My on-call" (it names a shift), never through the request form. */
export const SHIFT_SWAP_TYPE = 'shift_swap' satisfies ApprovalType;
/** The types the request form offers. */
export const FORM_REQUEST_TYPES = APPROVAL_TYPES.filter((t) => t !== SHIFT_SWAP_TYPE);

export const APPROVAL_LEVELS = ['manager', 'director', 'executive'] as const;
export type ApprovalLevelType = (typeof APPROVAL_LEVELS)[number];
export const APPROVAL_LEVEL_LABELS: Record<ApprovalLevelType, string> = { manager: 'Manager', director: 'Director', executive: 'Executive' };

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A level's own state: `waiting` until the request reaches it, then `pending`, then its decision. */
export const APPROVAL_LEVEL_STATUSES = ['waiting', 'pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalLevelStatus = (typeof APPROVAL_LEVEL_STATUSES)[number];

/** Spec section 9, plus bounds of our own. */
export const APPROVAL_DEFAULTS = { timeToExpire: 48, type: 'access' as ApprovalType, maxLevels: 3 } as const;
export const APPROVAL_LIMITS = {
  title: 200,
  description: 5000,
  policyName: 100,
  policyDescription: 2000,
  comment: 2000,
  approversPerLevel: 50,
  /** One year. */
  maxHours: 8760,
  attachments: 5,
  attachmentBytes: 10 * 1024 * 1024,
  filename: 255,
  pageSize: 20,
} as const;

/** The spec's texts (section 8) and ours, so server and screen say the same thing. */
export const APPROVAL_MSG = {
  noActivePolicy: (type: string) => `No active policy found for ${type} requests`,
  requestNotFound: 'Request not found',
  notAuthorizedApprove: 'You are not authorized to approve this request',
  notAuthorizedReject: 'You are not authorized to reject this request',
  onlyCreatorCancel: 'Only the creator can cancel this request',
  cannotApproveOwn: 'You cannot approve your own request',
  policyNotFound: 'Policy not found',
  delegationDisabled: 'Delegation is not enabled for this request type',
  notAuthorizedDelegate: 'You are not authorized to delegate this request',
  userNotAvailable: 'User not available',
  tenantNotAvailable: 'Tenant not available',
  loadPendingFailed: 'Failed to load pending approval requests',
  loadPoliciesFailed: 'Failed to load approval policies',
  invalidJson: 'Invalid JSON format',
  // Empty texts of the spec's table.
  noPending: 'No pending approvals',
  noMine: "You haven't created any requests",
  noAll: 'No requests found',
  noPolicies: 'No approval policies defined',
  // Ours: failures the spec leaves to the console ("Approval workflow errors in the page are only logged").
  loadRequestsFailed: 'Failed to load approval requests',
  loadRequestFailed: 'Failed to load the request. Please try again.',
  createFailed: 'Failed to create request. Please try again.',
  approveFailed: 'Failed to approve request. Please try again.',
  rejectFailed: 'Failed to reject request. Please try again.',
  delegateFailed: 'Failed to delegate request. Please try again.',
  cancelFailed: 'Failed to cancel request. Please try again.',
  // Ours.
  notPending: 'This request is no longer pending. Its current state is shown.',
  movedOn: 'This request has moved on to another level meanwhile. Its current state is shown.',
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  policyNameRequired: 'Name is required',
  policyDescriptionRequired: 'Description is required',
  typeInvalid: 'Type must be expense, access, change, custom or shift_swap',
  swapFromMyOnCall: 'Shift swaps are asked from My on-call, where you choose the shift',
  levelsCount: 'A policy has between 1 and 3 levels',
  levelTypeInvalid: 'Level must be manager, director or executive',
  levelTypeTwice: 'Each level type can be used only once',
  approverRequired: 'Every level needs at least one approver',
  approversInvalid: 'Approvers must be a list of user ids',
  tooManyApprovers: `A level can have at most ${APPROVAL_LIMITS.approversPerLevel} approvers`,
  unknownApprovers: 'Every approver must be a member of this organization',
  hoursInvalid: 'Time to expire must be a whole number of hours, at least 1',
  hoursTooLong: `Time to expire must be at most ${APPROVAL_LIMITS.maxHours} hours (one year)`,
  flagInvalid: 'Must be true or false',
  metadataNotObject: 'Metadata must be a JSON object',
  reasonRequired: 'A reason is required to reject this request',
  delegateRequired: 'Choose who to delegate to',
  delegateSelf: 'Choose someone other than yourself',
  viewAllForbidden: 'Only owners and admins can see all requests',
  managePoliciesForbidden: 'Only owners and admins can manage approval policies',
  tooManyAttachments: `At most ${APPROVAL_LIMITS.attachments} attachments`,
  attachmentTooLarge: 'Each attachment must be at most 10 MB',
  attachmentNotFound: 'Attachment not found',
  multipartInvalid: 'Send the request as a "request" field (JSON) followed by its files',
  expiredComment: 'Expired without a decision',
  created: 'Request created',
  approved: 'Request approved',
  rejected: 'Request rejected',
  cancelled: 'Request cancelled',
  delegated: 'Request delegated',
  policyCreated: 'Policy created',
  policyUpdated: 'Policy updated',
  policyDeleted: 'Policy deactivated',
  // Ours: the request form (issue 32).
  typeNoActivePolicy: (label: string) => `${label} — no active policy`,
  noTypeHasPolicy: 'No request type has an active approval policy yet, so no request can be made.',
  noTypeHasPolicyManager: 'Create a policy in the Approval Policies tab first.',
  noTypeHasPolicyMember: 'Ask an owner or admin of your organization to create an approval policy.',
  metadataKeyRequired: 'Every value needs a key',
  metadataKeyTwice: 'Each key can be used only once',
  metadataKeyReserved: 'This name is reserved; choose another key',
  metadataFixRows: 'Fix the rows above to switch to JSON',
  deletePolicyConfirm: (name: string) =>
    `Are you sure you want to delete ${name}? It becomes inactive: requests already made under it go on, and no new request can use it.`,
} as const;

const hours = z
  .unknown()
  .optional()
  .transform((v, ctx): number => {
    if (v === undefined || v === null || v === '') return APPROVAL_DEFAULTS.timeToExpire;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message: APPROVAL_MSG.hoursInvalid });
      return z.NEVER;
    }
    return n;
  })
  .pipe(z.number().max(APPROVAL_LIMITS.maxHours, APPROVAL_MSG.hoursTooLong));

const flag = (fallback: boolean) => z.boolean({ error: APPROVAL_MSG.flagInvalid }).default(fallback);

export const ApprovalPolicyLevelInput = z.object(
  {
    level: z.enum(APPROVAL_LEVELS, { error: APPROVAL_MSG.levelTypeInvalid }),
    approvers: z
      .array(z.string({ error: APPROVAL_MSG.approversInvalid }).trim().min(1, APPROVAL_MSG.approversInvalid).max(100, APPROVAL_MSG.approversInvalid), {
        error: APPROVAL_MSG.approversInvalid,
      })
      .max(APPROVAL_LIMITS.approversPerLevel * 2, APPROVAL_MSG.tooManyApprovers)
      .transform((ids) => [...new Set(ids)])
      .refine((ids) => ids.length >= 1, APPROVAL_MSG.approverRequired)
      .refine((ids) => ids.length <= APPROVAL_LIMITS.approversPerLevel, APPROVAL_MSG.tooManyApprovers),
    timeToExpire: hours,
  },
  { error: APPROVAL_MSG.levelsCount },
);

/**
 * Body of policy create and update (spec sections 3, 5, 9). Levels are kept in the order manager, director,
 * executive whatever order they arrive in. `active` is ignored on create (new policies are active); on update it
 * turns a policy back on (or off).
 */
export const ApprovalPolicyInput = z.object({
  name: requiredString(APPROVAL_MSG.policyNameRequired, APPROVAL_LIMITS.policyName),
  description: requiredString(APPROVAL_MSG.policyDescriptionRequired, APPROVAL_LIMITS.policyDescription),
  type: z.enum(APPROVAL_TYPES, { error: APPROVAL_MSG.typeInvalid }).default(APPROVAL_DEFAULTS.type),
  levels: z
    .array(ApprovalPolicyLevelInput, { error: APPROVAL_MSG.levelsCount })
    .min(1, APPROVAL_MSG.levelsCount)
    .max(APPROVAL_DEFAULTS.maxLevels, APPROVAL_MSG.levelsCount)
    .refine((levels) => new Set(levels.map((l) => l.level)).size === levels.length, APPROVAL_MSG.levelTypeTwice)
    .transform((levels) => [...levels].sort((a, b) => APPROVAL_LEVELS.indexOf(a.level) - APPROVAL_LEVELS.indexOf(b.level))),
  active: z.boolean({ error: APPROVAL_MSG.flagInvalid }).optional(),
  autoRejectOnExpire: flag(true),
  notifyOnCreate: flag(true),
  notifyOnUpdate: flag(true),
  delegationEnabled: flag(true),
  /** A requester who is the only approver of a level may approve their own request there (never while others could). */
  selfApprovalAllowed: flag(false),
});
export type ApprovalPolicyInputBody = z.input<typeof ApprovalPolicyInput>;
export type ApprovalPolicyInput = z.output<typeof ApprovalPolicyInput>;

export const ApprovalPolicyLevel = z.object({ level: z.enum(APPROVAL_LEVELS), approvers: z.array(z.string()), timeToExpire: z.number() });
export type ApprovalPolicyLevel = z.infer<typeof ApprovalPolicyLevel>;

export const ApprovalPolicy = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    description: z.string(),
    type: z.enum(APPROVAL_TYPES),
    active: z.boolean(),
    levels: z.array(ApprovalPolicyLevel),
    autoRejectOnExpire: z.boolean(),
    notifyOnCreate: z.boolean(),
    notifyOnUpdate: z.boolean(),
    delegationEnabled: z.boolean(),
    selfApprovalAllowed: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ApprovalPolicy' });
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;
export const ApprovalPolicyList = z.object({ items: z.array(ApprovalPolicy) });
export type ApprovalPolicyList = z.infer<typeof ApprovalPolicyList>;
/**
 * The request types in their order, each with whether an active policy routes it: what the request form offers.
 * Every member may read it (it names no approver).
 */
export const ApprovalRequestTypes = z.object({ items: z.array(z.object({ type: z.enum(APPROVAL_TYPES), hasActivePolicy: z.boolean() })) });
export type ApprovalRequestTypes = z.infer<typeof ApprovalRequestTypes>;
export const ApprovalPolicyParams = TenantParam.extend({ policyId: z.string().min(1).max(100) });

/**
 * Body of request create (JSON, or the "request" field of a multipart upload followed by its files). Metadata is a
 * JSON object; anything else is refused with its own text.
 */
export const ApprovalRequestInput = z.object({
  title: requiredString(APPROVAL_MSG.titleRequired, APPROVAL_LIMITS.title),
  description: requiredString(APPROVAL_MSG.descriptionRequired, APPROVAL_LIMITS.description),
  type: z.enum(APPROVAL_TYPES, { error: APPROVAL_MSG.typeInvalid }).default(APPROVAL_DEFAULTS.type),
  metadata: boundedJson(
    z.record(z.string(), z.unknown(), { error: APPROVAL_MSG.metadataNotObject }).refine((v) => !Array.isArray(v), APPROVAL_MSG.metadataNotObject),
    JSON_LIMITS.metadataChars,
  )
    .nullish()
    .transform((v) => v ?? {}),
});
export type ApprovalRequestInputBody = z.input<typeof ApprovalRequestInput>;
export type ApprovalRequestInput = z.output<typeof ApprovalRequestInput>;

export const ApprovalLevel = z.object({
  level: z.enum(APPROVAL_LEVELS),
  approvers: z.array(z.string()),
  status: z.enum(APPROVAL_LEVEL_STATUSES),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  comments: z.string().nullable(),
  timeToExpire: z.number(),
});
export type ApprovalLevel = z.infer<typeof ApprovalLevel>;

export const Person = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type Person = z.infer<typeof Person>;

export const ApprovalAttachment = z.object({ id: z.string(), filename: z.string(), contentType: z.string(), size: z.number() });
export type ApprovalAttachment = z.infer<typeof ApprovalAttachment>;

export const APPROVAL_HISTORY_ACTIONS = ['created', 'approved', 'rejected', 'delegated', 'cancelled', 'expired'] as const;
export const ApprovalHistoryEntry = z.object({
  at: z.string(),
  action: z.enum(APPROVAL_HISTORY_ACTIONS),
  /** Null when the server acted (expiry). */
  actor: Person.nullable(),
  level: z.enum(APPROVAL_LEVELS).nullable(),
  comment: z.string().nullable(),
  /** Delegation: who the level was handed to. */
  target: Person.nullable(),
});
export type ApprovalHistoryEntry = z.infer<typeof ApprovalHistoryEntry>;

/** What the caller may do with a request now (the screen's buttons; the server checks again on every action). */
export const ApprovalAbilities = z.object({ approve: z.boolean(), reject: z.boolean(), cancel: z.boolean(), delegate: z.boolean() });

/** A request in a list: everything but metadata and history. */
export const ApprovalRequestSummary = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    policyId: z.string(),
    title: z.string(),
    description: z.string(),
    type: z.enum(APPROVAL_TYPES),
    status: z.enum(APPROVAL_STATUSES),
    createdBy: z.string(),
    requestedBy: Person,
    /** Index into levels of the level acting now (the last one once decided). */
    currentLevel: z.number().int(),
    currentLevelName: z.enum(APPROVAL_LEVELS),
    levels: z.array(ApprovalLevel),
    expiresAt: z.string().nullable(),
    attachments: z.array(ApprovalAttachment),
    can: ApprovalAbilities,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ApprovalRequestSummary' });
export type ApprovalRequestSummary = z.infer<typeof ApprovalRequestSummary>;

export const ApprovalRequest = ApprovalRequestSummary.extend({
  metadata: z.record(z.string(), z.unknown()),
  history: z.array(ApprovalHistoryEntry),
  /** Names and emails of every person the levels and history name ('Unknown User' for one no longer known). */
  people: z.array(Person),
}).meta({ id: 'ApprovalRequest' });
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const APPROVAL_VIEWS = ['pending', 'mine', 'all'] as const;
export type ApprovalView = (typeof APPROVAL_VIEWS)[number];
const pageMsg = 'Page must be a whole number of 1 or more';
const pageSizeMsg = 'Page size must be a whole number from 1 to 100';
export const ApprovalListQuery = z.object({
  view: z.enum(APPROVAL_VIEWS, { error: 'View must be pending, mine or all' }).default('pending'),
  page: z.coerce.number({ error: pageMsg }).int(pageMsg).min(1, pageMsg).max(1_000_000, pageMsg).default(1),
  pageSize: z.coerce.number({ error: pageSizeMsg }).int(pageSizeMsg).min(1, pageSizeMsg).max(100, pageSizeMsg).default(APPROVAL_LIMITS.pageSize),
});
export type ApprovalListQuery = z.output<typeof ApprovalListQuery>;
export const ApprovalRequestList = listOf(ApprovalRequestSummary);
export type ApprovalRequestList = z.infer<typeof ApprovalRequestList>;

export const ApprovalRequestParams = TenantParam.extend({ requestId: z.string().min(1).max(100) });
export const ApprovalAttachmentParams = ApprovalRequestParams.extend({ attachmentId: z.string().min(1).max(100) });

export const ApproveBody = z.object({
  comment: z
    .string({ error: 'Must be text' })
    .trim()
    .max(APPROVAL_LIMITS.comment, `Must be at most ${APPROVAL_LIMITS.comment} characters`)
    .nullish()
    .transform((v) => v || null),
});
export const RejectBody = z.object({ reason: requiredString(APPROVAL_MSG.reasonRequired, APPROVAL_LIMITS.comment) });
export const DelegateBody = z.object({ userId: requiredString(APPROVAL_MSG.delegateRequired, 100) });

/** One message of the tenant's live stream (`event: approval`): a request changed; viewers reload what they show. */
export const ApprovalChange = z.object({ id: z.string(), status: z.enum(APPROVAL_STATUSES), updatedAt: z.string() });
export type ApprovalChange = z.infer<typeof ApprovalChange>;
