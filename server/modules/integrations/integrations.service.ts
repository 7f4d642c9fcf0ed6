import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import { INTEGRATION_MSG, type EmailSettings, type EmailSettingsChange, type Integration, type IntegrationWithKey } from '../../../contract/integrations.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import type { RoutingRule } from '../../../contract/ingest-formats.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import { newIntegrationKey, type IntegrationAuth } from './integration-keys.ts';
import { emailAddressOf, looksLikeEmailToken, mergeEmailSettings, newEmailToken, readEmailSettings } from './integration-email.ts';
import { existingClientIds } from '../clients/clients.service.ts';
import { writeWithPolicyRef } from '../escalation/escalation-policies.service.ts';
import {
  findIntegration,
  insertIntegration,
  listIntegrations,
  unsafeFindIntegrationByEmailToken,
  updateIntegration,
  type IntegrationRow,
} from './integrations.repository.ts';

export interface IntegrationServiceDeps {
  db: DB;
  bus: AlertBus;
  /** Read at each call: the public URL can be settled after start (tests learn their port only once listening). */
  publicUrl: () => string;
  /** The domain of the integrations' email addresses (INBOUND_EMAIL_DOMAIN). */
  emailDomain: () => string;
}

function present(deps: IntegrationServiceDeps, row: IntegrationRow): Integration {
  return toIntegration(row, deps.publicUrl(), deps.emailDomain());
}

export function toIntegration(row: IntegrationRow, publicUrl: string, emailDomain: string): Integration {
  return {
    id: row.id,
    name: row.name,
    clientId: row.client_id,
    clientName: row.client_name,
    escalationPolicyId: row.escalation_policy_id ?? null,
    keyPrefix: row.key_prefix,
    status: row.revoked_at ? 'revoked' : 'active',
    createdAt: row.created_at,
    createdByName: row.created_by_name,
    updatedAt: row.updated_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    endpoints: {
      pagerduty: `${publicUrl}/v2/enqueue`,
      alertmanager: `${publicUrl}/api/ingest/alertmanager`,
      events: `${publicUrl}/api/ingest/events`,
    },
    emailAddress: row.revoked_at ? null : emailAddressOf(row.email_token, emailDomain),
    emailSettings: readEmailSettings(row.email_settings),
  };
}

async function checkClient(db: DB, tenantId: string, clientId: string | null | undefined) {
  if (clientId && !(await existingClientIds(db, tenantId, [clientId])).has(clientId)) {
    throw badRequest(INTEGRATION_MSG.unknownClient, { clientId: INTEGRATION_MSG.unknownClient });
  }
}

async function load(deps: IntegrationServiceDeps, tenantId: string, id: string) {
  const row = await findIntegration(deps.db, tenantId, id);
  if (!row) throw notFound();
  return row;
}

/**
 * One integration of the caller's tenant, for those who manage integrations (403 otherwise, 404 when missing): what
 * the test alert (alerts/ingest/test-alert.service.ts) sends through.
 */
export async function getManagedIntegration(db: DB, ctx: TenantContext, id: string): Promise<IntegrationRow> {
  authorize(ctx, 'manageIntegrations');
  const row = await findIntegration(db, ctx.tenant.id, id);
  if (!row) throw notFound();
  return row;
}

export async function listTenantIntegrations(deps: IntegrationServiceDeps, ctx: TenantContext) {
  authorize(ctx, 'manageIntegrations');
  const rows = await listIntegrations(deps.db, ctx.tenant.id);
  return { items: rows.map((r) => present(deps, r)), total: rows.length, page: 1, pageSize: Math.max(rows.length, 1) };
}

const settingsJson = (settings: EmailSettings) => JSON.stringify(settings);

export async function createIntegration(
  deps: IntegrationServiceDeps,
  ctx: TenantContext,
  input: { name: string; clientId: string | null; escalationPolicyId?: string | null; emailSettings?: EmailSettingsChange },
): Promise<IntegrationWithKey> {
  authorize(ctx, 'manageIntegrations');
  await checkClient(deps.db, ctx.tenant.id, input.clientId);
  const { key, hash, prefix } = newIntegrationKey();
  const at = now();
  const id = randomUUID();
  const row = {
    id,
    tenant_id: ctx.tenant.id,
    name: input.name,
    client_id: input.clientId,
    escalation_policy_id: input.escalationPolicyId ?? null,
    key_hash: hash,
    key_prefix: prefix,
    created_by: ctx.user.id,
    created_by_name: ctx.user.display_name,
    created_at: at,
    updated_at: at,
    revoked_at: null,
    revoked_by: null,
    last_used_at: null,
    email_token: newEmailToken(),
    email_settings: input.emailSettings ? settingsJson(mergeEmailSettings(readEmailSettings(null), input.emailSettings)) : null,
  };
  await writeWithPolicyRef(deps.db, ctx.tenant.id, input.escalationPolicyId, () => insertIntegration(deps.db, row));
  return { integration: present(deps, await load(deps, ctx.tenant.id, id)), key };
}

export async function editIntegration(
  deps: IntegrationServiceDeps,
  ctx: TenantContext,
  id: string,
  input: { name?: string; clientId?: string | null; escalationPolicyId?: string | null; emailSettings?: EmailSettingsChange },
) {
  authorize(ctx, 'manageIntegrations');
  const current = await load(deps, ctx.tenant.id, id);
  await checkClient(deps.db, ctx.tenant.id, input.clientId);
  const set = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.clientId !== undefined ? { client_id: input.clientId } : {}),
    ...(input.escalationPolicyId !== undefined ? { escalation_policy_id: input.escalationPolicyId } : {}),
    ...(input.emailSettings !== undefined ? { email_settings: settingsJson(mergeEmailSettings(readEmailSettings(current.email_settings), input.emailSettings)) } : {}),
    updated_at: now(),
  };
  await writeWithPolicyRef(deps.db, ctx.tenant.id, input.escalationPolicyId, () => updateIntegration(deps.db, ctx.tenant.id, id, set));
  deps.bus.invalidateIntegrations([id]);
  return present(deps, await load(deps, ctx.tenant.id, id));
}

/** A new email address for the integration; mail to the old one is refused at once, on every instance. */
export async function renewEmailAddress(deps: IntegrationServiceDeps, ctx: TenantContext, id: string): Promise<Integration> {
  authorize(ctx, 'manageIntegrations');
  const row = await load(deps, ctx.tenant.id, id);
  if (row.revoked_at) throw conflict(INTEGRATION_MSG.revoked);
  await updateIntegration(deps.db, ctx.tenant.id, id, { email_token: newEmailToken(), updated_at: now() });
  deps.bus.invalidateIntegrations([id]);
  return present(deps, await load(deps, ctx.tenant.id, id));
}

/** What inbound mail needs of the integration an address belongs to; `revoked` ones refuse mail. */
export interface IntegrationMailbox {
  auth: IntegrationAuth;
  settings: EmailSettings;
  revoked: boolean;
}

/** The integration whose address has this local part (any tenant: the address is all a mail names), or null. */
export async function findIntegrationMailbox(db: DB, token: string): Promise<IntegrationMailbox | null> {
  if (!looksLikeEmailToken(token)) return null;
  const row = await unsafeFindIntegrationByEmailToken(db, token);
  if (!row) return null;
  return {
    // Its routing rules too (issue 28): a mail's event is routed like any other event of the integration.
    auth: { id: row.id, tenantId: row.tenant_id, clientId: row.client_id, name: row.name, rules: parseJson<RoutingRule[]>(row.routing_rules ?? '[]', []) },
    settings: readEmailSettings(row.email_settings),
    revoked: row.revoked_at !== null,
  };
}

/** A new key for the integration; the old one stops working at once, on every instance. */
export async function rotateIntegrationKey(deps: IntegrationServiceDeps, ctx: TenantContext, id: string): Promise<IntegrationWithKey> {
  authorize(ctx, 'manageIntegrations');
  const row = await load(deps, ctx.tenant.id, id);
  if (row.revoked_at) throw conflict(INTEGRATION_MSG.revoked);
  const { key, hash, prefix } = newIntegrationKey();
  await updateIntegration(deps.db, ctx.tenant.id, id, { key_hash: hash, key_prefix: prefix, updated_at: now() });
  deps.bus.invalidateIntegrations([id]);
  return { integration: present(deps, await load(deps, ctx.tenant.id, id)), key };
}

export async function revokeIntegration(deps: IntegrationServiceDeps, ctx: TenantContext, id: string) {
  authorize(ctx, 'manageIntegrations');
  const row = await load(deps, ctx.tenant.id, id);
  if (!row.revoked_at) {
    const at = now();
    await updateIntegration(deps.db, ctx.tenant.id, id, { revoked_at: at, revoked_by: ctx.user.id, updated_at: at });
    deps.bus.invalidateIntegrations([id]);
  }
  return present(deps, await load(deps, ctx.tenant.id, id));
}
