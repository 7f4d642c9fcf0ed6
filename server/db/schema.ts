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
export interface MembersProfileTables {}

// --- Tables of issue 3 (integrations, alerts, alert events): add them to AlertTables. ---
export interface AlertTables {}

// --- Tables of issue 4 (system administration), if any: add them to SystemTables. ---
export interface SystemTables {}

export interface Database extends CoreTables, MembersProfileTables, AlertTables, SystemTables {}
