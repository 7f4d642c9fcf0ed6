import type { Priority } from '../../contract/profile.ts';
import type { ChannelPreferences } from './preferences.ts';
import type { Mail } from './mailer.ts';

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

export const asDeliveryError = (err: unknown) => (err instanceof DeliveryError ? err : new DeliveryError((err as Error).message, false));

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * How a message leaves the server, one function per provider: the edge of the world, which tests replace with local
 * stand-ins (`server/test/fake-transports.ts`).
 */
export interface Transports {
  email(mail: Mail): Promise<{ providerId: string | null }>;
  push(target: PushTarget, payload: string): Promise<{ providerId: string | null }>;
  /** Null when no SMS provider is configured: the sms channel is off. */
  sms: ((to: string, body: string) => Promise<{ providerId: string | null }>) | null;
  /** A phone call (issue 27); null or absent when no voice provider is configured: the voice channel is off. */
  voice?: ((call: VoiceCall) => Promise<{ providerId: string | null }>) | null;
}

/** A call: what it says, and (a page) the acknowledge token its "press 1" answers with. */
export interface VoiceCall {
  to: string;
  say: string;
  ackToken: string | null;
}

export type ChannelName = 'email' | 'push' | 'sms' | 'voice';

/**
 * What to tell a person, whatever the channel; each channel renders it. `purpose` decides which preferences apply: an
 * alert page needs "alert notifications" on for email and the alert's priority among the person's SMS priorities.
 */
export interface Message {
  purpose: 'alert' | 'approval' | 'oncall';
  /** Alert pages: the alert's priority (SMS goes only for the priorities the person chose). */
  priority?: Priority;
  /** Email subject and push title. */
  title: string;
  /** Email body (plain text; also the alternative of an HTML email). */
  text: string;
  /** Email body as HTML, sent with `text` as its plain-text alternative. */
  html?: string;
  /** Push body. */
  summary: string;
  /** The SMS text (at most 160 characters); a message without one is never sent by SMS. */
  sms?: string;
  /** What a voice call says (alert pages: client, priority and title); without it, the title. */
  voice?: string;
  /** Where the push notification opens. */
  url: string;
  /** More fields for the push payload the service worker reads (an alert's id and acknowledge token). */
  pushData?: Record<string, string>;
}

/** A person as a channel sees them: their address, saved preferences and push subscriptions. */
export interface Contact {
  userId: string;
  email: string;
  prefs: ChannelPreferences;
  pushTargets: PushTarget[];
}

/**
 * One way to reach a person. `unreachable` says why this person cannot get this message by it (null when they can),
 * from their preferences alone; `send` renders and sends it (throwing a DeliveryError), returning the provider's id.
 */
export interface Channel {
  name: ChannelName;
  unreachable(contact: Contact, message: Message): string | null;
  send(contact: Contact, message: Message): Promise<string | null>;
}
