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
  oidc_states: OidcStatesTable;
  clients: ClientsTable;
}

// --- Tables of issue 5 (invitations, notification preferences, push tokens): add them to MembersProfileTables. ---
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

// --- Tables of issue 3 (integrations, alerts, alert events): add them to AlertTables. ---
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
  kind: 'acknowledged' | 'started' | 'resolved' | 'closed' | 'assigned' | 'note';
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

// --- Tables of issue 4 (system administration), if any: add them to SystemTables. ---
export interface SystemTables {}

export interface Database extends CoreTables, MembersProfileTables, AlertTables, SystemTables {}
