import { DeliveryError, type Transports } from '../notifications/channel.ts';
import type { Mail } from '../notifications/mailer.ts';

/** Local stand-ins for the providers (the edge of the world): they keep what they were asked to send. */
export function fakeTransports(opts: { sms?: boolean } = {}) {
  const sent = { email: [] as Mail[], push: [] as Array<{ endpoint: string; payload: any }>, sms: [] as Array<{ to: string; body: string }> };
  const failures = { email: [] as DeliveryError[] };
  const transports: Transports = {
    async email(mail) {
      const f = failures.email.shift();
      if (f) throw f;
      sent.email.push(mail);
      return { providerId: null };
    },
    async push(target, payload) {
      sent.push.push({ endpoint: target.endpoint, payload: JSON.parse(payload) });
      return { providerId: null };
    },
    sms:
      opts.sms === false
        ? null
        : async (to, body) => {
            sent.sms.push({ to, body });
            return { providerId: `SM${sent.sms.length}` };
          },
  };
  return { transports, sent, failures };
}
