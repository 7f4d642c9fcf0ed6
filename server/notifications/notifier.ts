import type { DB } from '../db/database.ts';
import { asDeliveryError, type Channel, type ChannelName, type Contact, type Message, type Transports } from './channel.ts';
import { emailChannel } from './channels/email.ts';
import { pushChannel } from './channels/push.ts';
import { smsChannel } from './channels/sms.ts';
import { voiceChannel } from './channels/voice.ts';
import { deletePushToken, findPreferencesOfMany, listPushTargetsOfMany } from './contacts.repository.ts';
import { toChannelPreferences } from './preferences.ts';

/** Sends of one batch in flight to the providers at once. */
const SEND_CONCURRENCY = 50;

/** One message to one person by one channel. */
export interface Delivery {
  person: { userId: string; email: string };
  channel: ChannelName;
  message: Message;
  /** The last try: a transient failure is then final ('failed') rather than 'pending' (to be retried). */
  final: boolean;
}

/**
 * What became of a delivery: sent (with the provider's id), skipped (the person cannot be reached by that channel:
 * `reason` says why), failed for good, or pending (a transient failure: the caller retries it; `error` is the cause).
 */
export interface Outcome {
  outcome: 'sent' | 'skipped' | 'failed' | 'pending';
  reason: string | null;
  providerId: string | null;
  error: unknown;
}

export type Notifier = ReturnType<typeof createNotifier>;

/** `fn` over `list` with at most `limit` calls in flight; results in order. */
async function mapLimit<T, R>(list: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(list.length);
  let next = 0;
  const lane = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await fn(list[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, lane));
  return out;
}

/**
 * The only way the server reaches a person. A batch of deliveries reads everyone's preferences and push subscriptions
 * once, intersects each wanted channel with the person's preferences (a channel they cannot be reached by is skipped
 * with the reason), renders and sends through the channel registry (a push subscription found gone is removed), and
 * answers an outcome per delivery; the caller records them (pages: `attempts.repository.ts`).
 */
export function createNotifier(deps: { db: DB; transports: Transports }) {
  const { db, transports } = deps;
  const channels: Record<ChannelName, Channel> = {
    email: emailChannel(transports),
    push: pushChannel(transports, (userId, endpoint) => deletePushToken(db, userId, endpoint)),
    sms: smsChannel(transports),
    voice: voiceChannel(transports),
  };

  async function contactsOf(people: Array<{ userId: string; email: string }>, withPush: (userId: string) => boolean): Promise<Map<string, Contact>> {
    const ids = [...new Set(people.map((p) => p.userId))];
    const rows = await findPreferencesOfMany(db, ids);
    const prefs = new Map(ids.map((id) => [id, toChannelPreferences(rows.get(id))]));
    const targets = await listPushTargetsOfMany(db, ids.filter((id) => prefs.get(id)!.push.enabled && withPush(id)));
    return new Map(people.map((p) => [p.userId, { userId: p.userId, email: p.email, prefs: prefs.get(p.userId)!, pushTargets: targets.get(p.userId) ?? [] }]));
  }

  /**
   * Reads what the deliveries need (everyone's preferences and push subscriptions, once) and answers a function that
   * sends delivery `i` and says its outcome, for callers that pace the sends themselves (pages record each one).
   */
  async function prepare(deliveries: Delivery[]): Promise<(i: number) => Promise<Outcome>> {
    const pushWanted = new Set(deliveries.filter((d) => d.channel === 'push').map((d) => d.person.userId));
    const contacts = deliveries.length
      ? await contactsOf(
          deliveries.map((d) => d.person),
          (id) => pushWanted.has(id),
        )
      : new Map<string, Contact>();
    return async (i) => {
      const d = deliveries[i];
      const channel = channels[d.channel];
      const contact = contacts.get(d.person.userId)!;
      const why = channel.unreachable(contact, d.message);
      if (why) return { outcome: 'skipped', reason: why, providerId: null, error: null };
      try {
        return { outcome: 'sent', reason: null, providerId: await channel.send(contact, d.message), error: null };
      } catch (err) {
        const e = asDeliveryError(err);
        if (!e.permanent && !d.final) return { outcome: 'pending', reason: e.message, providerId: null, error: e };
        return { outcome: 'failed', reason: e.message, providerId: null, error: null };
      }
    };
  }

  /** Sends every delivery (at most 50 at once); an outcome each, in order. */
  async function deliver(deliveries: Delivery[]): Promise<Outcome[]> {
    if (deliveries.length === 0) return [];
    const send = await prepare(deliveries);
    return mapLimit(
      deliveries.map((_, i) => i),
      SEND_CONCURRENCY,
      send,
    );
  }

  /** One message to one person on each of `channels`; outcomes in that order. */
  const notify = (person: Delivery['person'], message: Message, wanted: ChannelName[], final: boolean) => deliver(wanted.map((channel) => ({ person, channel, message, final })));

  /** By which level channels each person can be paged for an alert now (their preferences, subscriptions, the server's SMS). */
  async function reachability(people: Array<{ userId: string; email: string }>): Promise<Map<string, Record<Exclude<ChannelName, 'voice'>, boolean>>> {
    const contacts = await contactsOf(people, () => true);
    const probe: Message = { purpose: 'alert', title: '', text: '', summary: '', url: '' };
    return new Map(
      [...contacts].map(([id, c]) => [id, { email: !channels.email.unreachable(c, probe), push: !channels.push.unreachable(c, probe), sms: !channels.sms.unreachable(c, probe) }]),
    );
  }

  return { prepare, deliver, notify, reachability, smsConfigured: transports.sms !== null };
}
