import type https from 'node:https';
import type { Config } from '../config.ts';
import type { Transports } from './channel.ts';
import { emailTransport } from './channels/email.ts';
import { pushTransport, type Vapid } from './channels/push.ts';
import { smsTransport } from './channels/sms.ts';
import type { Mailer } from './mailer.ts';

/** The real providers: SMTP through the mailer, Web Push with VAPID, SMS through a Twilio-compatible API. */
export function createTransports(
  config: Pick<Config, 'sms'>,
  vapid: Vapid,
  mailer: Mailer,
  /** An agent for push services (tests: one trusting a local push service's own certificate). */
  opts: { pushAgent?: https.Agent } = {},
): Transports {
  return { email: emailTransport(mailer), push: pushTransport(vapid, opts.pushAgent), sms: smsTransport(config.sms) };
}
