import type { Mailbox } from './smtp-listener.ts';

const POSITIVE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

/**
 * Address token → integration, cached like the integration keys (integration-keys.ts): a burst of mail to one address
 * costs one query. Revocation, renewal and a change of rules evict the integration on every instance at once (through
 * the alert bus); the TTL only bounds how long a missed eviction could last.
 */
export class MailboxCache {
  private entries = new Map<string, { mailbox: Mailbox | null; expiresAt: number }>();

  constructor(private readonly load: (token: string) => Promise<Mailbox | null>) {}

  async lookup(token: string): Promise<Mailbox | null> {
    const at = Date.now();
    const hit = this.entries.get(token);
    if (hit && hit.expiresAt > at) return hit.mailbox;
    const mailbox = await this.load(token);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { mailbox, expiresAt: at + (mailbox ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS) });
    return mailbox;
  }

  /** Forgets the given integrations, and every "no such address" answer (a renewal may have made one wrong). */
  evict(integrationIds: string[]) {
    const ids = new Set(integrationIds);
    for (const [token, e] of this.entries) if (!e.mailbox || !('auth' in e.mailbox) || ids.has(e.mailbox.auth.id)) this.entries.delete(token);
  }
}
