import { PAGING_MSG } from '../../../contract/paging.ts';
import { DeliveryError, type Channel, type Transports } from '../channel.ts';
import type { Mailer } from '../mailer.ts';

/** SMTP through the mailer. A 5xx reply is permanent (a refused address); connection trouble and 4xx are retried. */
export function emailTransport(mailer: Mailer): Transports['email'] {
  return async (mail) => {
    try {
      await mailer.send(mail);
      return { providerId: null };
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      throw new DeliveryError(`email: ${(err as Error).message}`, typeof code === 'number' && code >= 500);
    }
  };
}

/** Email: on in the person's preferences (alert pages also need "alert notifications" on). */
export function emailChannel(transports: Transports): Channel {
  return {
    name: 'email',
    unreachable: ({ prefs }, message) => (prefs.email.enabled && (message.purpose !== 'alert' || prefs.email.alertNotifications) ? null : PAGING_MSG.emailOff),
    send: async (contact, message) =>
      (await transports.email({ to: contact.email, subject: message.title.slice(0, 200), text: message.text, ...(message.html ? { html: message.html } : {}) })).providerId,
  };
}
