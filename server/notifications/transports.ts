import type { Config } from '../config.ts';
import type { Transports } from './channel.ts';
import { emailTransport } from './channels/email.ts';
import { pushTransport, type Vapid } from './channels/push.ts';
import { smsTransport } from './channels/sms.ts';
import { voiceTransport } from './channels/voice.ts';
import type { Mailer } from './mailer.ts';

/** The real providers: SMTP through the mailer, Web Push with VAPID, SMS and voice through Twilio-compatible APIs. */
export function createTransports(
  config: Pick<Config, 'sms' | 'pushAllowedHosts'> & Partial<Pick<Config, 'voice' | 'publicUrl'>>,
  vapid: Vapid,
  mailer: Mailer,
  /** Tests: the certificate of a local push service to trust. */
  opts: { pushCa?: string | Buffer } = {},
): Transports {
  return { email: emailTransport(mailer), push: pushTransport(vapid, { allowedHosts: config.pushAllowedHosts, ca: opts.pushCa }), sms: smsTransport(config.sms), voice: voiceTransport(config.voice ?? null, () => config.publicUrl ?? '') };
}
