import type https from 'node:https';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import type { Mail, Mailer } from '../../notifications/mailer.ts';

/** A delivery that did not go through: `permanent` ones are recorded as failed at once, others are retried. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The push subscription no longer exists (404/410): it is removed. */
    readonly gone = false,
  ) {
    super(message);
  }
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How a page leaves the server, one function per channel; tests point these at local fakes of the providers. */
export interface Transports {
  email(mail: Mail): Promise<{ providerId: string | null }>;
  push(target: PushTarget, payload: string): Promise<{ providerId: string | null }>;
  /** Null when no SMS provider is configured: the sms channel is off. */
  sms: ((to: string, body: string) => Promise<{ providerId: string | null }>) | null;
}

const transient = (status: number) => status === 408 || status === 429 || status >= 500;

/** The real transports: SMTP through the mailer, Web Push with VAPID, SMS through a Twilio-compatible API. */
export function createTransports(
  config: Pick<Config, 'sms'>,
  vapid: { publicKey: string; privateKey: string; subject: string },
  mailer: Mailer,
  /** An agent for push services (tests: one trusting a local push service's own certificate). */
  opts: { pushAgent?: https.Agent } = {},
): Transports {
  const sms = config.sms;
  return {
    async email(mail) {
      try {
        await mailer.send(mail);
        return { providerId: null };
      } catch (err) {
        // SMTP 5xx replies are permanent (a refused address); connection trouble and 4xx are worth retrying.
        const code = (err as { responseCode?: number }).responseCode;
        throw new DeliveryError(`email: ${(err as Error).message}`, typeof code === 'number' && code >= 500);
      }
    },
    async push(target, payload) {
      try {
        const res = await webpush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
          vapidDetails: vapid,
          TTL: 3600,
          urgency: 'high',
          timeout: 10_000,
          ...(opts.pushAgent ? { agent: opts.pushAgent } : {}),
        });
        return { providerId: (res.headers?.location as string | undefined) ?? null };
      } catch (err) {
        const status = (err as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) throw new DeliveryError(`push: subscription gone (${status})`, true, true);
        if (typeof status === 'number') throw new DeliveryError(`push: the push service answered ${status}`, !transient(status));
        throw new DeliveryError(`push: ${(err as Error).message}`, false);
      }
    },
    sms: sms
      ? async (to, body) => {
          let res: Response;
          try {
            res = await fetch(`${sms.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(sms.accountSid)}/Messages.json`, {
              method: 'POST',
              headers: {
                authorization: `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64')}`,
                'content-type': 'application/x-www-form-urlencoded',
              },
              body: new URLSearchParams({ To: to, From: sms.from, Body: body }),
              signal: AbortSignal.timeout(10_000),
            });
          } catch (err) {
            throw new DeliveryError(`sms: ${(err as Error).message}`, false);
          }
          const json = (await res.json().catch(() => ({}))) as { sid?: string; message?: string };
          if (!res.ok) throw new DeliveryError(`sms: the provider answered ${res.status}${json.message ? `: ${json.message}` : ''}`, !transient(res.status));
          return { providerId: json.sid ?? null };
        }
      : null,
  };
}
