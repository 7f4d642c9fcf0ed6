import { randomUUID } from 'node:crypto';
import { PSA_LIMITS, PSA_MSG, PSA_SECRET_FIELDS, PsaRules, type PsaCompany, type PsaCompanyMap, type PsaCompanyMapInput, type PsaConnection, type PsaConnectionInput, type PsaTestResult } from '../../../contract/psa.ts';
import { parseJson } from '../../db/database.ts';
import type { PsaConnectionsTable } from '../../db/schema.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { TenantContext } from '../../http/tenant-context.ts';
import { enqueueJobs } from '../../jobs/jobs.repository.ts';
import { clientNamesOf, existingClientIds } from '../clients/clients.service.ts';
import { authorize } from '../tenants/tenants.policy.ts';
import { suggestCompanies } from './company-match.ts';
import { PsaError } from './psa-http.ts';
import { adapterFor, decryptSecrets, encryptSecrets, errorText, inboundUrl, publicSettings, rulesOf, type PsaDeps } from './psa-runtime.ts';
import * as repo from './psa.repository.ts';

/** Owners and admins manage PSA connections (the ability that governs integrations: where alerts come from and go). */
const MANAGE = 'manageIntegrations' as const;
export const REGISTER_JOB = 'psa.register';
const connectionNotFound = () => notFound(PSA_MSG.notFound);

async function present(deps: PsaDeps, row: PsaConnectionsTable, queue: Map<string, number>): Promise<PsaConnection> {
  const rules = rulesOf(row);
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    enabled: row.enabled === 1,
    settings: parseJson<Record<string, unknown>>(row.settings, {}),
    secretsSet: Object.fromEntries(PSA_SECRET_FIELDS[row.type].map((k) => [k, parseJson<string[]>(row.secret_names, []).includes(k)])),
    rules: {
      priorities: rules.priorities,
      triggerMode: rules.triggerMode,
      unacknowledgedMinutes: rules.unacknowledgedMinutes ?? null,
      catchAllCompanyId: rules.catchAllCompanyId ?? null,
      recurrence: rules.recurrence,
      inboundClose: rules.inboundClose,
    },
    inboundUrl: await inboundUrl(deps, row),
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    queueLength: queue.get(row.id) ?? 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function load(deps: PsaDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  const row = await repo.getConnection(deps.db, ctx.tenant.id, id);
  if (!row) throw connectionNotFound();
  return row;
}

const presentOne = async (deps: PsaDeps, tenantId: string, id: string) => {
  const row = (await repo.getConnection(deps.db, tenantId, id))!;
  return present(deps, row, await repo.queueLengths(deps.db, tenantId));
};

/** The secrets of the input (those given), and the settings without them. */
function splitSecrets(input: PsaConnectionInput) {
  const settings = input.settings as Record<string, unknown>;
  const secrets: Record<string, string> = {};
  for (const k of PSA_SECRET_FIELDS[input.type]) if (typeof settings[k] === 'string') secrets[k] = settings[k];
  return { settings: publicSettings(input.type, settings), secrets };
}

/** ConnectWise's callback is registered by a job (retried while the PSA is away); HaloPSA's webhook is set up in HaloPSA. */
async function scheduleRegistration(deps: PsaDeps, row: Pick<PsaConnectionsTable, 'id' | 'tenant_id' | 'type' | 'updated_at'>) {
  if (row.type !== 'connectwise') return;
  const now = deps.jobs.clock();
  await enqueueJobs(deps.db, [{ kind: REGISTER_JOB, uniqueKey: `${REGISTER_JOB}:${row.id}:${row.updated_at}`, dueAt: now, tenantId: row.tenant_id, payload: { connectionId: row.id }, maxAttempts: 8 }], now);
  deps.jobs.worker.wakeWithin(100);
}

/** The job: registers the connection's inbound URL with its PSA; a failure is the connection's last error. */
export async function registerInbound(deps: PsaDeps, tenantId: string, connectionId: string, finalAttempt: boolean) {
  const row = await repo.getConnection(deps.db, tenantId, connectionId);
  if (!row || !row.enabled) return;
  const url = await inboundUrl(deps, row);
  try {
    if (url) await (await adapterFor(deps, row)).registerInbound(url);
  } catch (err) {
    await repo.updateConnection(deps.db, tenantId, connectionId, { last_error: errorText(err), last_error_at: deps.jobs.clock().toISOString() });
    if (!finalAttempt && !(err instanceof PsaError && err.opts.permanent)) throw err;
  }
}

export async function listConnections(deps: PsaDeps, ctx: TenantContext) {
  authorize(ctx, MANAGE);
  const [rows, queue] = await Promise.all([repo.listConnections(deps.db, ctx.tenant.id), repo.queueLengths(deps.db, ctx.tenant.id)]);
  return { items: await Promise.all(rows.map((r) => present(deps, r, queue))) };
}

export async function getConnection(deps: PsaDeps, ctx: TenantContext, id: string) {
  await load(deps, ctx, id);
  return presentOne(deps, ctx.tenant.id, id);
}

export async function createConnection(deps: PsaDeps, ctx: TenantContext, input: PsaConnectionInput): Promise<PsaConnection> {
  authorize(ctx, MANAGE);
  const { settings, secrets } = splitSecrets(input);
  const missing = PSA_SECRET_FIELDS[input.type].filter((k) => !secrets[k]);
  if (missing.length) throw badRequest(PSA_MSG.secretRequired, Object.fromEntries(missing.map((k) => [`settings.${k}`, PSA_MSG.secretRequired])));
  if ((await repo.countConnections(deps.db, ctx.tenant.id)) >= PSA_LIMITS.perTenant) throw badRequest(PSA_MSG.tooMany);
  const at = new Date().toISOString();
  const row: PsaConnectionsTable = {
    id: randomUUID(),
    tenant_id: ctx.tenant.id,
    type: input.type,
    name: input.name,
    enabled: input.enabled === false ? 0 : 1,
    settings: JSON.stringify(settings),
    secrets_enc: await encryptSecrets(deps.db, secrets),
    secret_names: JSON.stringify(Object.keys(secrets)),
    rules: JSON.stringify(PsaRules.parse(input.rules ?? {})),
    last_error: null,
    last_error_at: null,
    created_by: ctx.user.id,
    created_at: at,
    updated_at: at,
  };
  await repo.insertConnection(deps.db, row);
  deps.connections.forget(ctx.tenant.id);
  if (row.enabled) await scheduleRegistration(deps, row);
  return presentOne(deps, ctx.tenant.id, row.id);
}

/** Everything but the type; a secret left out keeps the stored one. */
export async function updateConnection(deps: PsaDeps, ctx: TenantContext, id: string, input: PsaConnectionInput): Promise<PsaConnection> {
  const row = await load(deps, ctx, id);
  if (input.type !== row.type) throw badRequest(PSA_MSG.typeFixed, { type: PSA_MSG.typeFixed });
  const { settings, secrets } = splitSecrets(input);
  const merged = { ...(await decryptSecrets(deps.db, row)), ...secrets };
  const at = new Date().toISOString();
  const patch = {
    name: input.name,
    enabled: input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
    settings: JSON.stringify(settings),
    secrets_enc: await encryptSecrets(deps.db, merged),
    secret_names: JSON.stringify(Object.keys(merged)),
    rules: JSON.stringify(PsaRules.parse(input.rules ?? rulesOf(row))),
    updated_at: at,
  };
  await repo.updateConnection(deps.db, ctx.tenant.id, id, patch);
  deps.connections.forget(ctx.tenant.id);
  if (patch.enabled) await scheduleRegistration(deps, { ...row, updated_at: at });
  return presentOne(deps, ctx.tenant.id, id);
}

export async function deleteConnection(deps: PsaDeps, ctx: TenantContext, id: string) {
  authorize(ctx, MANAGE);
  if (!(await repo.deleteConnection(deps.db, ctx.tenant.id, id))) throw connectionNotFound();
  deps.connections.forget(ctx.tenant.id);
}

/** "Test connection": one authenticated read; the answer says what went wrong in the PSA's words. */
export async function testConnection(deps: PsaDeps, ctx: TenantContext, id: string): Promise<PsaTestResult> {
  const row = await load(deps, ctx, id);
  try {
    await (await adapterFor(deps, row)).test();
    return { ok: true, message: PSA_MSG.testOk };
  } catch (err) {
    return { ok: false, message: errorText(err) };
  }
}

/** The PSA's companies (a failure to reach the PSA is a 400 saying why: the caller's settings, not our server). */
async function companiesOf(deps: PsaDeps, row: PsaConnectionsTable, search: string | undefined): Promise<PsaCompany[]> {
  try {
    return await (await adapterFor(deps, row)).listCompanies(search || undefined);
  } catch (err) {
    throw badRequest(errorText(err));
  }
}

export async function listCompanies(deps: PsaDeps, ctx: TenantContext, id: string, search: string | undefined) {
  const row = await load(deps, ctx, id);
  return { items: (await companiesOf(deps, row, search)).slice(0, search ? PSA_LIMITS.companiesShown : undefined) };
}

/** Each client with its mapped company, or a suggestion by its name and aliases among the PSA's companies. */
export async function getCompanyMap(deps: PsaDeps, ctx: TenantContext, id: string): Promise<PsaCompanyMap> {
  const row = await load(deps, ctx, id);
  const [clients, mapped] = await Promise.all([clientNamesOf(deps.db, ctx.tenant.id), repo.listCompanyMap(deps.db, ctx.tenant.id, id)]);
  const byClient = new Map(mapped.map((m) => [m.client_id, m]));
  const unmapped = clients.filter((c) => !byClient.has(c.id));
  const suggestions = unmapped.length ? suggestCompanies(unmapped.map((c) => ({ id: c.id, name: c.name, aliases: parseJson<string[]>(c.aliases, []) })), await companiesOf(deps, row, undefined)) : new Map();
  return {
    items: clients.map((c) => {
      const m = byClient.get(c.id);
      return { clientId: c.id, clientName: c.name, companyId: m?.company_id ?? null, companyName: m?.company_name ?? null, suggested: m ? null : (suggestions.get(c.id) ?? null) };
    }),
  };
}

/** Replaces the connection's whole map (an item per mapped client). */
export async function putCompanyMap(deps: PsaDeps, ctx: TenantContext, id: string, input: PsaCompanyMapInput): Promise<PsaCompanyMap> {
  await load(deps, ctx, id);
  const ids = [...new Set(input.items.map((i) => i.clientId))];
  const found = await existingClientIds(deps.db, ctx.tenant.id, ids);
  const fields: Record<string, string> = {};
  input.items.forEach((i, n) => {
    if (!found.has(i.clientId)) fields[`items.${n}.clientId`] = PSA_MSG.unknownClient;
  });
  if (Object.keys(fields).length) throw badRequest(PSA_MSG.unknownClient, fields);
  const at = new Date().toISOString();
  const rows = new Map(input.items.map((i) => [i.clientId, { tenant_id: ctx.tenant.id, connection_id: id, client_id: i.clientId, company_id: i.companyId, company_name: i.companyName ?? null, updated_at: at }]));
  await repo.replaceCompanyMap(deps.db, ctx.tenant.id, id, [...rows.values()]);
  const [clients, mapped] = await Promise.all([clientNamesOf(deps.db, ctx.tenant.id), repo.listCompanyMap(deps.db, ctx.tenant.id, id)]);
  const byClient = new Map(mapped.map((m) => [m.client_id, m]));
  return { items: clients.map((c) => ({ clientId: c.id, clientName: c.name, companyId: byClient.get(c.id)?.company_id ?? null, companyName: byClient.get(c.id)?.company_name ?? null, suggested: null })) };
}
