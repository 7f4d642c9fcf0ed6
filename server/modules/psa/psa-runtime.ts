import { createHmac, timingSafeEqual } from 'node:crypto';
import { PSA_SECRET_FIELDS, type PsaRules } from '../../../contract/psa.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { PsaConnectionsTable } from '../../db/schema.ts';
import { serverKey } from '../../db/server-keys.ts';
import type { AlertBus } from '../../events/alert-bus.ts';
import type { JobsRuntime } from '../../jobs/jobs.plugin.ts';
import type { OutboundPolicy } from '../destinations/outbound-post.ts';
import { decryptSecret, encryptSecret, newSecretKey } from '../destinations/webhook-signing.ts';
import { connectWise } from './connectwise.ts';
import { autotask } from './autotask.ts';
import { haloPsa } from './halopsa.ts';
import type { PsaAdapter } from './psa-adapter.ts';
import { PsaError, psaRequest, PSA_HTTP } from './psa-http.ts';
import * as repo from './psa.repository.ts';

/** What the PSA module's parts share (built once by the plugin). */
export interface PsaDeps {
  db: DB;
  bus: AlertBus;
  jobs: Pick<JobsRuntime, 'clock' | 'worker'>;
  outbound: OutboundPolicy;
  publicUrl: string;
  connections: ReturnType<typeof connectionCache>;
  /** How long a PSA call may wait for its answer (tests shorten it). */
  timeoutMs?: number;
  /** Autotask: where a user's zone is looked up (config.psa.autotaskZoneLookupUrl). */
  autotaskZoneLookupUrl: string;
}

/**
 * A tenant's enabled connections as the alert listener reads them, cached 30 s: every write here forgets the
 * tenant's (at once on this instance; another sees it within 30 s).
 */
export function connectionCache(db: DB) {
  const cache = new Map<string, { at: number; list: PsaConnectionsTable[] }>();
  return {
    async list(tenantId: string) {
      const hit = cache.get(tenantId);
      if (hit && hit.at > Date.now() - 30_000) return hit.list;
      const list = await repo.listEnabledConnections(db, tenantId);
      if (cache.size > 10_000) cache.clear();
      cache.set(tenantId, { at: Date.now(), list });
      return list;
    },
    forget: (tenantId: string) => void cache.delete(tenantId),
  };
}

/** The server key PSA credentials are encrypted with (generated once, kept in server_keys). */
const secretKey = (db: DB) => serverKey(db, 'psa-secret-key', newSecretKey);
/** The server key the inbound URLs are signed with. */
const inboundKey = (db: DB) => serverKey(db, 'psa-inbound-key', newSecretKey);

export async function encryptSecrets(db: DB, secrets: Record<string, string>): Promise<string> {
  return encryptSecret(await secretKey(db), JSON.stringify(secrets));
}

export async function decryptSecrets(db: DB, row: Pick<PsaConnectionsTable, 'secrets_enc'>): Promise<Record<string, string>> {
  return JSON.parse(decryptSecret(await secretKey(db), row.secrets_enc)) as Record<string, string>;
}

/** The settings without the type's secrets (what is stored in clear and answered). */
export function publicSettings(type: PsaConnectionsTable['type'], settings: Record<string, unknown>) {
  const secret = new Set<string>(PSA_SECRET_FIELDS[type]);
  return Object.fromEntries(Object.entries(settings).filter(([k, v]) => !secret.has(k) && v !== undefined));
}

export const rulesOf = (row: Pick<PsaConnectionsTable, 'rules'>) => parseJson<PsaRules>(row.rules, {} as PsaRules);

/** The PSA's API for a connection: its settings and decrypted secrets, every call through the address guard. */
export async function adapterFor(deps: Pick<PsaDeps, 'db' | 'outbound' | 'timeoutMs' | 'autotaskZoneLookupUrl'>, row: PsaConnectionsTable): Promise<PsaAdapter> {
  const secrets = await decryptSecrets(deps.db, row);
  const settings = { ...parseJson<Record<string, unknown>>(row.settings, {}), ...secrets };
  // A PSA's error answer is quoted in the connection's last error: a secret it might echo is taken out.
  const scrub = (text: string) => Object.values(secrets).reduce((t, v) => (v.length >= 4 ? t.split(v).join('[redacted]') : t), text);
  const call = <T>(req: Parameters<typeof psaRequest>[0]) =>
    psaRequest<T>(req, deps.outbound, deps.timeoutMs ?? PSA_HTTP.timeoutMs).catch((err: unknown) => {
      throw err instanceof PsaError ? new PsaError(scrub(err.message), err.opts) : err;
    });
  const input = { type: row.type, settings, call, zoneLookupUrl: deps.autotaskZoneLookupUrl };
  if (row.type === 'connectwise') return connectWise(input);
  if (row.type === 'halopsa') return haloPsa(input);
  return autotask(input);
}

const signatureOf = (key: string, connectionId: string) => createHmac('sha256', Buffer.from(key, 'base64')).update(`psa-inbound:${connectionId}`).digest('base64url');

/** Our URL the PSA tells of ticket changes (ConnectWise's callback, HaloPSA's webhook), signed per connection. */
export async function inboundUrl(deps: Pick<PsaDeps, 'db' | 'publicUrl'>, row: Pick<PsaConnectionsTable, 'id' | 'type'>): Promise<string | null> {
  if (row.type === 'autotask') return null; // Autotask is polled.
  return `${deps.publicUrl}/api/ingest/psa/${row.id}.${signatureOf(await inboundKey(deps.db), row.id)}`;
}

export async function inboundSignatureValid(db: DB, connectionId: string, signature: string): Promise<boolean> {
  const expected = Buffer.from(signatureOf(await inboundKey(db), connectionId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A failure's words as stored and answered: a PsaError's own message (never credentials), else a generic one. */
export const errorText = (err: unknown) => (err instanceof PsaError ? err.message : 'Unexpected error while calling the PSA').slice(0, 500);
