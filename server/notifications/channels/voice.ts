import { createHmac, timingSafeEqual } from 'node:crypto';
import { PAGING_MSG } from '../../../contract/paging.ts';
import type { Config } from '../../config.ts';
import { DeliveryError, type Channel, type Transports, type VoiceCall } from '../channel.ts';

const transient = (status: number) => status === 408 || status === 429 || status >= 500;

export const VOICE_MSG = {
  notConfigured: 'Voice calls are not configured on this server',
  pressOne: 'Press 1 to acknowledge.',
  noAnswer: 'No key was pressed. Goodbye.',
  goodbye: 'Goodbye.',
} as const;

/** The path of a call's "press 1" callback: the page's signed, single-use acknowledge token names alert and person. */
export const voiceCallbackPath = (ackToken: string) => `/api/voice/${ackToken}`;

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** TwiML that says `text` and ends the call. */
export const sayTwiml = (text: string) => `<?xml version="1.0" encoding="UTF-8"?><Response><Say>${xml(text)}</Say></Response>`;

/**
 * The TwiML of a call: a page says its text (twice), asking for 1 on the keypad, which Twilio posts to the call's own
 * callback (`Digits`); a call without an acknowledge token (a test page) only speaks.
 */
export function callTwiml(say: string, callbackUrl: string | null): string {
  if (!callbackUrl) return sayTwiml(say);
  const prompt = xml(`${say} ${VOICE_MSG.pressOne}`);
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Gather numDigits="1" timeout="8" method="POST" action="${xml(callbackUrl)}"><Say>${prompt}</Say><Pause length="1"/><Say>${prompt}</Say></Gather><Say>${xml(VOICE_MSG.noAnswer)}</Say></Response>`;
}

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed by the auth token, over the full URL followed by every POST
 * parameter's name and value, sorted by name (https://www.twilio.com/docs/usage/security#validating-requests).
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const data = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).reduce((s, [k, v]) => s + k + v, url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function validTwilioSignature(authToken: string, url: string, params: URLSearchParams, header: string | undefined): boolean {
  if (!header) return false;
  const want = Buffer.from(twilioSignature(authToken, url, params));
  const got = Buffer.from(header);
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Calls through a Twilio-compatible Calls API (POST {base}/2010-04-01/Accounts/{sid}/Calls.json with inline TwiML);
 * null when none is configured (the channel is off). `publicUrl` is read per call (the server may learn it after start).
 */
export function voiceTransport(voice: Config['voice'], publicUrl: () => string): Transports['voice'] {
  if (!voice) return null;
  return async (call: VoiceCall) => {
    const callback = call.ackToken ? `${publicUrl()}${voiceCallbackPath(call.ackToken)}` : null;
    let res: Response;
    try {
      res = await fetch(`${voice.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(voice.accountSid)}/Calls.json`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${voice.accountSid}:${voice.authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: call.to, From: voice.from, Twiml: callTwiml(call.say, callback) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new DeliveryError(`voice: ${(err as Error).message}`, false);
    }
    const json = (await res.json().catch(() => ({}))) as { sid?: string; message?: string };
    if (!res.ok) throw new DeliveryError(`voice: the provider answered ${res.status}${json.message ? `: ${json.message}` : ''}`, !transient(res.status));
    return { providerId: json.sid ?? null };
  };
}

/**
 * Voice: a call to the person's saved phone number, for alert pages (and test pages), when the server has a provider.
 * Which pages call is the person's notification rules' choice (a level that allows SMS allows a call).
 */
export function voiceChannel(transports: Transports): Channel {
  return {
    name: 'voice',
    unreachable({ prefs }, message) {
      if (!transports.voice) return VOICE_MSG.notConfigured;
      if (message.purpose !== 'alert') return 'This kind of message is not sent by voice';
      return prefs.phoneNumber ? null : PAGING_MSG.noPhoneNumber;
    },
    send: async (contact, message) =>
      (await transports.voice!({ to: contact.prefs.phoneNumber!, say: (message.voice ?? message.title).slice(0, 500), ackToken: message.pushData?.ackToken ?? null })).providerId,
  };
}
