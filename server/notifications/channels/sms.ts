import { PAGING_MSG } from '../../../contract/paging.ts';
import type { Config } from '../../config.ts';
import { DeliveryError, type Channel, type Transports } from '../channel.ts';

const transient = (status: number) => status === 408 || status === 429 || status >= 500;

/** SMS through a Twilio-compatible Messages API; null when none is configured (the channel is off). */
export function smsTransport(sms: Config['sms']): Transports['sms'] {
  if (!sms) return null;
  return async (to, body) => {
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
  };
}

/** At most 160 characters: the head, as much of the title as fits, the tail. */
export function fitSms(head: string, title: string, tail: string) {
  const room = 160 - head.length - tail.length;
  const t = title.length > room ? `${title.slice(0, Math.max(0, room - 1))}…` : title;
  return `${head}${t}${tail}`.slice(0, 160);
}

const NOT_BY_SMS = 'This kind of message is not sent by SMS';

/**
 * SMS: only for messages that carry an SMS text (alert pages), when the server has a provider and the person turned
 * SMS on for the message's priority and saved a phone number. Without a priority (asking whether a person can be
 * paged at all), any chosen priority will do.
 */
export function smsChannel(transports: Transports): Channel {
  return {
    name: 'sms',
    unreachable({ prefs }, message) {
      if (!transports.sms) return PAGING_MSG.smsNotConfigured;
      if (message.sms === undefined && message.purpose !== 'alert') return NOT_BY_SMS;
      if (!prefs.sms.enabled) return PAGING_MSG.smsOff;
      if (message.priority ? !prefs.sms.alertTypes.includes(message.priority) : prefs.sms.alertTypes.length === 0) return PAGING_MSG.smsPriorityOff(message.priority ?? 'any');
      return prefs.phoneNumber ? null : PAGING_MSG.noPhoneNumber;
    },
    send: async (contact, message) => (await transports.sms!(contact.prefs.phoneNumber!, (message.sms ?? message.title).slice(0, 160))).providerId,
  };
}
