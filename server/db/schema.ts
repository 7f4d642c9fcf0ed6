/**
 * Table types for Kysely. One SQL code path for SQLite and PostgreSQL: ids are text (UUIDs), times are ISO-8601
 * UTC text (sortable), booleans are integers 0/1, lists and objects are JSON text.
 */
export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  role: 'user' | 'superAdmin';
  plan: string | null;
  oidc_subject: string | null;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
  /** Set when the account proved it reads its mailbox; needed to accept invitations without their link. */
  email_verified_at?: string | null;
  /** IANA zone pages and emails give this person's times in (issue 25); null until set, read as UTC. */
  time_zone?: string | null;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
}

export interface TenantsTable {
  id: string;
  name: string;
  owner_id: string;
  plan: string;
  max_users: number;
  max_clients: number;
  features: string;
  custom_domain: string | null;
  logo_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface TenantMembersTable {
  id: string;
  tenant_id: string;
  user_id: string | null;
  email: string;
  display_name: string;
  role: 'owner' | 'admin' | 'user';
  status: 'active' | 'invited';
  joined_at: string | null;
  invited_by: string | null;
  created_at: string;
}

export interface PricingPlansTable {
  id: string;
  name: string;
  description: string;
  price: string;
  price_id: string | null;
  features: string;
  max_users: number;
  max_clients: number;
  is_default: number;
  is_public: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A one-time sign-in link mailed to a throttled account (migration 0019): only its token's SHA-256; 15 minutes, single use. */
export interface SignInLinksTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OidcStatesTable {
  state: string;
  code_verifier: string;
  nonce: string;
  created_at: string;
}

export interface ClientsTable {
  id: string;
  tenant_id: string;
  name: string;
  name_lower: string;
  description: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  country: string | null;
  website: string | null;
  industry: string | null;
  size: string | null;
  status: 'active' | 'inactive' | 'pending';
  tags: string;
  custom_fields: string;
  search_text: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** The escalation policy for this client's alerts (migration 0008); null: the tenant default. */
  escalation_policy_id: string | null;
  /** Other names events give this client by, a JSON array (migration 0026); optional on insert (default `[]`). */
  aliases?: string;
}

/** Tables of the foundation and of clients. */
export interface CoreTables {
  users: UsersTable;
  sessions: SessionsTable;
  tenants: TenantsTable;
  tenant_members: TenantMembersTable;
  pricing_plans: PricingPlansTable;
  settings: SettingsTable;
  password_resets: PasswordResetsTable;
  sign_in_links: SignInLinksTable;
  oidc_states: OidcStatesTable;
  clients: ClientsTable;
}

// --- Invitations, notification preferences, push tokens: in MembersProfileTables. ---
/** One emailed invitation link (only its sha256 is stored) for an 'invited' tenant_members row; single use, 7 days. */
export interface MemberInvitationsTable {
  token_hash: string;
  tenant_id: string;
  member_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A user's channel settings (spec section 3, Notification preferences); no row means the defaults of section 9. */
export interface NotificationPreferencesTable {
  user_id: string;
  email_enabled: number;
  email_alert_notifications: number;
  email_weekly_digest: number;
  email_system_updates: number;
  sms_enabled: number;
  /** JSON list of priorities. */
  sms_alert_types: string;
  push_enabled: number;
  /** E.164. */
  phone_number: string | null;
  created_at: string;
  updated_at: string;
}

/** What alerts of a tenant a user subscribes to: a client of that tenant, a priority or a tag. */
export interface AlertSubscriptionsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  type: 'client' | 'priority' | 'tag';
  client_id: string | null;
  /** The priority or the (lowercased) tag; null for client subscriptions. */
  value: string | null;
  created_at: string;
}

/** userTokens of spec section 3: one row per browser push subscription of a user. */
export interface UserTokensTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembersProfileTables {
  member_invitations: MemberInvitationsTable;
  notification_preferences: NotificationPreferencesTable;
  alert_subscriptions: AlertSubscriptionsTable;
  user_tokens: UserTokensTable;
}

// --- Integrations, alerts, alert events: in AlertTables. ---
export interface IntegrationsTable {
  id: string;
  tenant_id: string;
  name: string;
  client_id: string | null;
  key_hash: string;
  key_prefix: string;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  last_used_at: string | null;
  /** The escalation policy for alerts through this key (migration 0008); null: the client's, else the default. */
  escalation_policy_id: string | null;
  /** The local part of the integration's email address (migration 0022): random, unique, renewable. */
  email_token: string | null;
  /** Its email rules as JSON (contract EmailSettings); null: the defaults (migration 0022). */
  email_settings: string | null;
  /** Its routing rules, a JSON array (contract RoutingRule; migration 0026); optional on insert (default `[]`). */
  routing_rules?: string;
}

export interface AlertsTable {
  id: string;
  tenant_id: string;
  client_id: string | null;
  integration_id: string | null;
  dedup_key: string | null;
  title: string;
  description: string;
  priority: 'critical' | 'high' | 'medium' | 'low' | 'info';
  status: 'new' | 'acknowledged' | 'in_progress' | 'resolved' | 'closed';
  source: string;
  search_text: string;
  created_at: string;
  updated_at: string;
  acknowledged_by: string | null;
  acknowledged_at: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  closed_by: string | null;
  closed_at: string | null;
  assigned_to: string | null;
  tags: string;
  metadata: string;
  occurrences: number;
  last_seen_at: string;
  /** Escalation (migration 0009): optional here because inserts leave them to the column defaults. */
  escalation_state?: 'pending' | 'running' | 'none' | 'stopped';
  escalation_level?: number;
  escalation_policy_id?: string | null;
  overdue_at?: string | null;
  /** When a running escalation's next level falls due (migration 0013); null without one to come. */
  next_step_at?: string | null;
  /** When the overdue check of a running escalation falls due (migration 0013); null without one to come. */
  overdue_check_at?: string | null;
  /** When its escalation was found to page nobody (migration 0018), and why; null when someone was paged. */
  paged_nobody_at?: string | null;
  paged_nobody_reason?: 'no_policy' | 'nobody_on_level' | 'unreachable' | 'failed' | null;
}

export interface AlertNotesTable {
  id: string;
  tenant_id: string;
  alert_id: string;
  text: string;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
}

export interface AlertEventsTable {
  id: string;
  tenant_id: string;
  alert_id: string;
  at: string;
  kind: 'acknowledged' | 'started' | 'resolved' | 'closed' | 'assigned' | 'note' | 'escalated' | 'paged' | 'overdue' | 'unrouted' | 'snoozed' | 'unsnoozed' | 'released' | 'ticket' | 'posted';
  actor_type: 'user' | 'integration' | 'system';
  actor_id: string | null;
  actor_name: string;
  detail: string;
}

export interface AlertTables {
  integrations: IntegrationsTable;
  alerts: AlertsTable;
  alert_notes: AlertNotesTable;
  alert_events: AlertEventsTable;
}

// --- System administration: in SystemTables. ---
export interface SystemTables {}

// --- Escalation policies: in EscalationTables. ---
/** Spec section 3, Escalation policy; the JSON columns hold the contract's shapes (contract/escalation.ts). */
export interface EscalationPoliciesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  is_default: number;
  escalation_times: string;
  level_1: string;
  level_2: string;
  level_3: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface EscalationTables {
  escalation_policies: EscalationPoliciesTable;
}

// --- On-call schedules: in OnCallTables. ---
/** Spec section 3, On-call schedule, plus its IANA time zone; rotations hold contract/schedules.ts's Rotations. */
export interface OncallSchedulesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string | null;
  is_default: number;
  /** YYYY-MM-DD in time_zone (the contract's startTime). */
  start_date: string;
  /** YYYY-MM-DD in time_zone, inclusive (the contract's endTime). */
  end_date: string;
  time_zone: string;
  rotations: string;
  /** JSON list of rotation layers, lowest first (migration 0028, issue 27). */
  layers: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Someone (user_id) takes replaced_user_id's place on one schedule from starts_at until ends_at. */
export interface OncallOverridesTable {
  id: string;
  tenant_id: string;
  schedule_id: string;
  replaced_user_id: string;
  user_id: string;
  starts_at: string;
  ends_at: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
}

/** A person's secret .ics URL for their on-call shifts in one tenant; only the secret's sha256 is kept. */
export interface CalendarFeedsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
}

export interface OnCallTables {
  oncall_schedules: OncallSchedulesTable;
  oncall_overrides: OncallOverridesTable;
  calendar_feeds: CalendarFeedsTable;
}

// --- The escalation engine and delivery. ---
/** Durable timed work; see server/jobs/. */
export interface JobsTable {
  id: string;
  tenant_id: string | null;
  alert_id: string | null;
  kind: string;
  unique_key: string;
  payload: string;
  due_at: string;
  attempts: number;
  max_attempts: number;
  lock_token: string | null;
  locked_until: string | null;
  created_at: string;
}

/** One page of one person by one channel for one step of an alert's escalation (unique on those four). */
export interface NotificationAttemptsTable {
  id: string;
  tenant_id: string;
  alert_id: string;
  /** 'L1', 'L2', 'L3', 'overdue' (the repeat of the last level) or 'subscription'. */
  step: string;
  level: number | null;
  user_id: string;
  channel: 'email' | 'push' | 'sms' | 'voice';
  /**
   * 'sending': handed to its provider, the outcome not known yet (a run that stopped leaves it so); 'held': kept for
   * the person's next summary page (a storm); 'summarized': in a summary page that went out.
   */
  outcome: 'pending' | 'sending' | 'sent' | 'failed' | 'skipped' | 'held' | 'summarized';
  reason: string | null;
  provider_id: string | null;
  tries: number;
  created_at: string;
  updated_at: string;
  /** An SMS page's short acknowledge link code (/a/<code>). */
  short_code: string | null;
  /** The channel whose repeated failures made this page (the person's next channel). */
  fallback_from: 'email' | 'push' | 'sms' | 'voice' | null;
}

export interface AckTokensTable {
  token_hash: string;
  tenant_id: string;
  alert_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ServerKeysTable {
  name: string;
  value: string;
  created_at: string;
}

export interface PagingTables {
  jobs: JobsTable;
  notification_attempts: NotificationAttemptsTable;
  ack_tokens: AckTokensTable;
  server_keys: ServerKeysTable;
}

// --- Approval workflows. ---
export interface ApprovalPoliciesTable {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  type: string;
  active: number;
  /** JSON text: [{level, approvers, timeToExpire}]. */
  levels: string;
  auto_reject_on_expire: number;
  notify_on_create: number;
  notify_on_update: number;
  delegation_enabled: number;
  self_approval_allowed: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApprovalRequestsTable {
  id: string;
  tenant_id: string;
  policy_id: string;
  title: string;
  description: string;
  type: string;
  status: string;
  created_by: string;
  requested_by_name: string;
  requested_by_email: string;
  current_level: number;
  /** JSON text: [{level, approvers, status, approvedBy, approvedAt, comments, timeToExpire}]. */
  levels: string;
  expires_at: string | null;
  /** JSON text of an object. */
  metadata: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface ApprovalApproversTable {
  request_id: string;
  tenant_id: string;
  user_id: string;
}

export interface ApprovalHistoryTable {
  id: string;
  tenant_id: string;
  request_id: string;
  seq: number;
  at: string;
  action: string;
  actor_id: string | null;
  level: string | null;
  comment: string | null;
  target_id: string | null;
}

export interface ApprovalAttachmentsTable {
  id: string;
  tenant_id: string;
  request_id: string;
  filename: string;
  content_type: string;
  size: number;
  position: number;
  created_at: string;
}

export interface ApprovalAttachmentChunksTable {
  attachment_id: string;
  seq: number;
  data: Buffer;
}

export interface ApprovalTables {
  approval_policies: ApprovalPoliciesTable;
  approval_requests: ApprovalRequestsTable;
  approval_approvers: ApprovalApproversTable;
  approval_history: ApprovalHistoryTable;
  approval_attachments: ApprovalAttachmentsTable;
  approval_attachment_chunks: ApprovalAttachmentChunksTable;
}

// --- Heartbeat monitors (migration 0021). ---
/** A scheduled job's check-in: state, deadlines (see modules/heartbeats/heartbeat-state.ts) and its alert's sync. */
export interface HeartbeatsTable {
  id: string;
  tenant_id: string;
  client_id: string | null;
  name: string;
  interval_minutes: number;
  grace_minutes: number;
  priority: 'critical' | 'high' | 'medium' | 'low' | 'info';
  /** SHA-256 of the ping URL's secret; the secret itself is shown once. */
  token_hash: string;
  /** The local part of its own mail address (a mail to it is a ping); renewed with the ping URL. Migration 0034. */
  email_token: string | null;
  token_prefix: string;
  state: 'new' | 'up' | 'late' | 'down' | 'paused';
  period_start_at: string | null;
  run_started_at: string | null;
  last_ping_at: string | null;
  last_fail_at: string | null;
  /** When the worker looks at it next (its next deadline); null with none to come. */
  next_check_at: string | null;
  /** Bumped by every write: each one is conditional on the version it read. */
  version: number;
  /** 1 from going down until a success ping: an alert is wanted open. */
  alert_wanted: number;
  /** Bumped when alert_wanted changes; the alert is in sync once the change of that number went through ingestion. */
  alert_seq: number;
  /** When the worker retries a change of the alert not yet through ingestion; null when in sync. */
  alert_sync_due_at: string | null;
  alert_id: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface HeartbeatTables {
  heartbeats: HeartbeatsTable;
}

export interface Database extends CoreTables, MembersProfileTables, AlertTables, SystemTables, EscalationTables, OnCallTables, PagingTables, ApprovalTables, HeartbeatTables {}

/** An API token of a tenant (issue 29): `adk_…`, shown once; only its SHA-256 is kept. */
export interface ApiTokensTable {
  id: string;
  tenant_id: string;
  name: string;
  role: 'read' | 'write';
  token_hash: string;
  /** The token's first characters, to tell tokens apart in a list. */
  prefix: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  /** Written at most once a minute per token. */
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Where a tenant's events are posted (issue 29): outbound webhooks (Teams and Slack later). */
export interface DestinationsTable {
  id: string;
  tenant_id: string;
  type: 'webhook' | 'teams' | 'slack';
  name: string;
  url: string | null;
  channel: string | null;
  /** JSON array of event types. */
  events: string;
  /** JSON `{ clientIds?, priorities? }`. */
  filter: string;
  /** The signing secret, encrypted with a server key (AES-256-GCM); never returned after creation. */
  secret_enc: string | null;
  previous_secret_enc: string | null;
  previous_secret_until: string | null;
  enabled: number;
  disabled_reason: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One event sent to a destination: its attempts and last outcome (the delivery log). */
export interface DestinationDeliveriesTable {
  id: string;
  tenant_id: string;
  destination_id: string;
  event_type: string;
  /** The Standard Webhooks `webhook-id`: the same on every attempt. */
  message_id: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  response_status: number | null;
  latency_ms: number | null;
  /** The answer's first 1 KB. */
  response_excerpt: string | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiTokenDestinationTables {
  api_tokens: ApiTokensTable;
  destinations: DestinationsTable;
  destination_deliveries: DestinationDeliveriesTable;
}

// Declaration merging adds these tables to Database without rewriting the line above (other issues append theirs).
export interface Database extends ApiTokenDestinationTables {}

/** A tenant's maintenance window (migration 0024, issue 31): one-off (starts/ends) or weekly (days, from/to in its zone). */
export interface MaintenanceWindowsTable {
  id: string;
  tenant_id: string;
  name: string;
  kind: 'one_off' | 'weekly';
  starts_at: string | null;
  ends_at: string | null;
  /** JSON array of weekdays, 0 = Sunday … 6 (weekly). */
  days: string;
  from_time: string | null;
  to_time: string | null;
  time_zone: string | null;
  until_at: string | null;
  /** JSON arrays; both empty: the whole tenant. */
  client_ids: string;
  integration_ids: string;
  ended_at: string | null;
  created_by: string | null;
  created_by_name: string;
  created_at: string;
  updated_at: string;
}

export interface MaintenanceTables {
  maintenance_windows: MaintenanceWindowsTable;
}

/** Issue 31's alert columns (migration 0024): optional, as inserts leave them to the column defaults. */
export interface AlertsTable {
  /** The maintenance window the alert opened inside; null otherwise. */
  maintenance_window_id?: string | null;
  /** Until when a person snoozed it; null when not snoozed. */
  snoozed_until?: string | null;
}

export interface Database extends MaintenanceTables {}

/** One person's weekly digest of one week (migration 0027, issue 31): its claim, then its record. */
export interface DigestSendsTable {
  user_id: string;
  /** The local date (YYYY-MM-DD) of the Monday the digest is for. */
  week: string;
  status: 'sending' | 'sent';
  created_at: string;
  sent_at: string | null;
}

interface DigestTables {
  digest_sends: DigestSendsTable;
}

export interface Database extends DigestTables {}

/** The last raw events an integration received (migration 0026, issue 28), secrets redacted: the rules preview's input. */
export interface IntegrationRawEventsTable {
  id: string;
  tenant_id: string;
  integration_id: string;
  /** The route's format: pagerduty, alertmanager, generic or a vendor format. */
  format: string;
  /** The body as JSON text, secrets redacted. */
  body: string;
  received_at: string;
}

interface IngestRoutingTables {
  integration_raw_events: IntegrationRawEventsTable;
}

export interface Database extends IngestRoutingTables {}

// --- Teams and Slack destinations (migration 0030, issue 29): in ChatDestinationTables. ---
/** The Slack message posted for an alert to a destination, updated when the alert changes. */
export interface SlackMessagesTable {
  tenant_id: string;
  destination_id: string;
  alert_id: string;
  channel: string;
  ts: string;
  /** What the message shows (status, priority, assignee), to update it only when that changes. */
  state: string;
  created_at: string;
  updated_at: string;
}

/** The Alertdesk member a Slack user (team + user id) acts as in a tenant. */
export interface SlackUserLinksTable {
  id: string;
  tenant_id: string;
  slack_team_id: string;
  slack_user_id: string;
  user_id: string;
  created_at: string;
}

/** A one-time link of a chat post (a Teams card's button, a Slack account link); only the token's hash is kept. */
export interface ChatActionTokensTable {
  token_hash: string;
  tenant_id: string;
  kind: 'alert.acknowledge' | 'alert.resolve' | 'slack.link';
  alert_id: string | null;
  destination_id: string | null;
  slack_team_id: string | null;
  slack_user_id: string | null;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
  created_at: string;
}

export interface ChatDestinationTables {
  slack_messages: SlackMessagesTable;
  slack_user_links: SlackUserLinksTable;
  chat_action_tokens: ChatActionTokensTable;
}

export interface Database extends ChatDestinationTables {}

/** A tenant's connection to its PSA (migration 0029, issue 30): settings in clear, secrets encrypted as one JSON. */
export interface PsaConnectionsTable {
  id: string;
  tenant_id: string;
  type: 'connectwise' | 'autotask' | 'halopsa';
  name: string;
  enabled: number;
  /** The settings but the secrets, as JSON. */
  settings: string;
  /** The secrets as a JSON object, encrypted (webhook-signing encryptSecret). */
  secrets_enc: string;
  /** The names of the secrets stored, as a JSON array (answered as `secretsSet`). */
  secret_names: string;
  rules: string;
  last_error: string | null;
  last_error_at: string | null;
  /** Autotask: when its tickets were last polled (the next poll asks for changes since then). */
  polled_at?: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface PsaCompanyMapTable {
  tenant_id: string;
  connection_id: string;
  client_id: string;
  company_id: string;
  company_name: string | null;
  updated_at: string;
}

/** An alert's ticket in one connection's PSA: `opening` until the PSA answered its number. */
export interface PsaTicketsTable {
  id: string;
  tenant_id: string;
  connection_id: string;
  alert_id: string;
  dedup_key: string | null;
  integration_id: string | null;
  company_id: string;
  ticket_id: string | null;
  ticket_number: string | null;
  ticket_url: string | null;
  status: 'opening' | 'open' | 'closed' | 'failed';
  noted_occurrences: number;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A call to a PSA for an alert, recorded before it is made (`sending`): unique per connection and `unique_key`. */
export interface PsaActionsTable {
  id: string;
  tenant_id: string;
  connection_id: string;
  alert_id: string;
  action: 'create' | 'note' | 'close' | 'reopen';
  unique_key: string;
  payload: string;
  status: 'pending' | 'sending' | 'done' | 'failed' | 'skipped';
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

interface PsaTables {
  psa_connections: PsaConnectionsTable;
  psa_company_map: PsaCompanyMapTable;
  psa_tickets: PsaTicketsTable;
  psa_actions: PsaActionsTable;
}

export interface Database extends PsaTables {}

/** A shift swap beside its approval request (migration 0033, issue 27); status follows the request's. */
export interface ShiftSwapsTable {
  request_id: string;
  tenant_id: string;
  schedule_id: string;
  requester_id: string;
  taker_id: string;
  role: 'primary' | 'secondary';
  starts_at: string;
  ends_at: string;
  note: string | null;
  status: string;
  /** The override made on final approval. */
  override_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Per schedule: whether only its participants may take its pager (migration 0033). */
export interface OncallPagerSettingsTable {
  schedule_id: string;
  tenant_id: string;
  participants_only: number;
  updated_by: string | null;
  updated_at: string;
}

export interface ShiftSwapTables {
  shift_swaps: ShiftSwapsTable;
  oncall_pager_settings: OncallPagerSettingsTable;
}

export interface Database extends ShiftSwapTables {}

/** A person's notification rules (migration 0032, issue 27): a JSON array of `{ channel, delayMinutes }`. */
export interface NotificationRulesTable {
  user_id: string;
  rules: string;
  created_at: string;
  updated_at: string;
}

export interface NotificationRuleTables {
  notification_rules: NotificationRulesTable;
}

export interface Database extends NotificationRuleTables {}
