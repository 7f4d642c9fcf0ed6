import https from 'node:https';
import webpush from 'web-push';
import { PAGING_MSG } from '../../../contract/paging.ts';
import type { DB } from '../../db/database.ts';
import { serverKey } from '../../db/server-keys.ts';
import { asDeliveryError, DeliveryError, type Channel, type Transports } from '../channel.ts';
import { publicOnlyLookup, refusedHost } from '../public-address.ts';

const transient = (status: number) => status === 408 || status === 429 || status >= 500;

export interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** VAPID keys from the environment, else the pair this server generated at first start (any instance), kept in server_keys. */
export async function resolveVapid(db: DB, configured: Vapid | null, subject: string): Promise<Vapid> {
  if (configured) return configured;
  const kept = JSON.parse(await serverKey(db, 'vapid', () => JSON.stringify(webpush.generateVAPIDKeys()))) as { publicKey: string; privateKey: string };
  return { ...kept, subject };
}

/**
 * Web Push with VAPID. 404/410 mean the subscription is gone; 408, 429 and 5xx are retried. Only push services at
 * public addresses are spoken to (`public-address.ts`; `allowedHosts` are exempt): a subscription aimed elsewhere is
 * refused before any connection and removed as gone.
 */
export function pushTransport(vapid: Vapid, opts: { allowedHosts?: readonly string[]; ca?: string | Buffer } = {}): Transports['push'] {
  const allowed = opts.allowedHosts ?? [];
  const agent = new https.Agent({ keepAlive: true, lookup: publicOnlyLookup(allowed) as never, ...(opts.ca ? { ca: opts.ca } : {}) });
  return async (target, payload) => {
    let host: string;
    try {
      host = new URL(target.endpoint).hostname;
    } catch {
      throw new DeliveryError('push: the subscription has no valid endpoint', true, true);
    }
    const refused = refusedHost(allowed, host);
    if (refused) throw new DeliveryError(`push: refused: ${refused}`, true, true);
    try {
      const res = await webpush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
        vapidDetails: vapid,
        TTL: 3600,
        urgency: 'high',
        timeout: 10_000,
        agent,
      });
      return { providerId: (res.headers?.location as string | undefined) ?? null };
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) throw new DeliveryError(`push: subscription gone (${status})`, true, true);
      if (typeof status === 'number') throw new DeliveryError(`push: the push service answered ${status}`, !transient(status));
      if ((err as { code?: string }).code === 'ENOTPUBLIC') throw new DeliveryError(`push: refused: ${(err as Error).message}`, true, true);
      throw new DeliveryError(`push: ${(err as Error).message}`, false);
    }
  };
}

/**
 * Push to every browser the person subscribed: sent when one took it. A subscription the push service says is gone is
 * removed (`gone`); when none took it, the last error stands.
 */
export function pushChannel(transports: Transports, gone: (userId: string, endpoint: string) => Promise<void>): Channel {
  return {
    name: 'push',
    unreachable: ({ prefs, pushTargets }) => (!prefs.push.enabled ? PAGING_MSG.pushOff : pushTargets.length ? null : PAGING_MSG.noPushSubscription),
    async send(contact, message) {
      const payload = JSON.stringify({ title: message.title.slice(0, 200), body: message.summary.slice(0, 300), ...message.pushData, url: message.url });
      let sent: string | null = null;
      let lastError: DeliveryError | null = null;
      let delivered = 0;
      for (const target of contact.pushTargets) {
        try {
          sent = (await transports.push(target, payload)).providerId ?? sent;
          delivered++;
        } catch (err) {
          const e = asDeliveryError(err);
          if (e.gone) await gone(contact.userId, target.endpoint);
          lastError = e;
        }
      }
      if (delivered === 0) throw lastError ?? new DeliveryError(PAGING_MSG.noPushSubscription, true);
      return sent;
    },
  };
}
