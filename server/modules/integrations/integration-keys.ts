import { randomInt } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now, parseJson } from '../../db/database.ts';
import { hashToken } from '../../lib/tokens.ts';
import { INTEGRATION_KEY_LENGTH } from '../../../contract/integrations.ts';
import type { RoutingRule } from '../../../contract/ingest-formats.ts';
import { touchIntegration, unsafeFindIntegrationByKeyHash } from './integrations.repository.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new integration key: 32 characters from [A-Za-z0-9] (about 190 bits), the shape PagerDuty tools expect. */
export function newIntegrationKey() {
  let key = '';
  for (let i = 0; i < INTEGRATION_KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return { key, hash: hashToken(key), prefix: key.slice(0, 6) };
}


/** What the ingestion path needs to know about the integration a key belongs to. */
export interface IntegrationAuth {
  id: string;
  tenantId: string;
  clientId: string | null;
  name: string;
  /** Its routing rules (issue 28), in order; none or empty: events go as they come. */
  rules?: RoutingRule[];
}

interface Entry {
  auth: IntegrationAuth | null;
  expiresAt: number;
}

const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const TOUCH_EVERY_MS = 60_000;
const MAX_ENTRIES = 50_000;

/**
 * Key → integration, cached so an event costs no lookup query. Revocation, rotation and re-binding evict the entry
 * on every instance at once (through the alert bus); the TTL only bounds how long a missed eviction could last.
 */
export class IntegrationKeyCache {
  private entries = new Map<string, Entry>();
  private touchedAt = new Map<string, number>();

  constructor(private readonly db: DB) {}

  async authenticate(key: string | undefined | null): Promise<IntegrationAuth | null> {
    if (!key || key.length > 200) return null;
    const hash = hashToken(key);
    const at = Date.now();
    const hit = this.entries.get(hash);
    let auth: IntegrationAuth | null;
    if (hit && hit.expiresAt > at) auth = hit.auth;
    else {
      const row = await unsafeFindIntegrationByKeyHash(this.db, hash);
      auth = row && !row.revoked_at ? { id: row.id, tenantId: row.tenant_id, clientId: row.client_id, name: row.name, rules: parseJson<RoutingRule[]>(row.routing_rules ?? '[]', []) } : null;
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { auth, expiresAt: at + (auth ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
    }
    if (auth) this.touch(auth, at);
    return auth;
  }

  /** Forgets the given integrations (and every unknown-key answer, which a rotation may have made wrong). */
  evict(integrationIds: string[]) {
    const ids = new Set(integrationIds);
    for (const [hash, e] of this.entries) if (!e.auth || ids.has(e.auth.id)) this.entries.delete(hash);
  }

  private touch(auth: IntegrationAuth, at: number) {
    const last = this.touchedAt.get(auth.id) ?? 0;
    if (at - last < TOUCH_EVERY_MS) return;
    this.touchedAt.set(auth.id, at);
    touchIntegration(this.db, auth.tenantId, auth.id, now()).catch(() => {});
  }
}
