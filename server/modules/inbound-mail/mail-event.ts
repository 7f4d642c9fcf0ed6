import { EMAIL_LIMITS, type EmailSettings } from '../../../contract/integrations.ts';
import { clip, TITLE_MAX, type NormalizedEvent } from '../alerts/ingest/ingest.mappers.ts';
import { stripBadCharacters } from '../../http/body-guard.ts';
import { boundedKey, capturedKey, isResolveSubject, normalizeSubject, priorityOf, runPattern } from './mail-rules.ts';

/** What the rules need of a received mail (mail-parse.ts makes it from the raw message). */
export interface InboundMail {
  subject: string;
  /** The text part, else the HTML part as text. */
  text: string;
  from: { name: string; address: string } | null;
  /** The SMTP envelope's sender (MAIL FROM); '' for the null sender. */
  envelopeFrom: string;
  messageId: string | null;
  date: string | null;
  /** Named only: attachments are not stored. */
  attachments: Array<{ filename: string | null; mimeType: string; size: number }>;
}

export const NO_SUBJECT = '(no subject)';
const DESCRIPTION_MAX = 65_536;
const MAX_ATTACHMENTS_LISTED = 20;

/** Text fit to store: no NUL or unpaired surrogates (the database refuses them), at most `max` characters. */
export const cleanText = (s: string, max: number) => clip(stripBadCharacters(s), max);

/**
 * The event a mail makes for one integration under its rules (EmailSettings in contract/integrations.ts): subject →
 * title, text → description, From → source; the dedup key, priority and resolution by the rules. `timedOut` names the
 * tenant patterns that were stopped (they then counted as not matching), for the log.
 */
export function mailToEvent(mail: InboundMail, settings: EmailSettings, recipient: string): { event: NormalizedEvent; timedOut: string[] } {
  const subject = cleanText(mail.subject.replace(/\s+/g, ' ').trim(), EMAIL_LIMITS.subjectChars);
  const body = cleanText(mail.text, EMAIL_LIMITS.bodyChars);
  const timedOut: string[] = [];
  const match = (pattern: string | null, field: 'subject' | 'body', name: string) => {
    if (!pattern) return null;
    const found = runPattern(pattern, field === 'subject' ? subject : body);
    if (found === 'timeout') timedOut.push(name);
    return found === 'timeout' ? null : found;
  };

  const dedupMatch = match(settings.dedupPattern, settings.dedupField, 'dedupPattern');
  const fromAddress = mail.from?.address || mail.envelopeFrom;
  const key = (dedupMatch && capturedKey(dedupMatch)) || normalizeSubject(subject) || (fromAddress ? `from:${fromAddress.toLowerCase()}` : NO_SUBJECT);
  const resolves = settings.resolvePattern ? match(settings.resolvePattern, settings.resolveField, 'resolvePattern') !== null : isResolveSubject(subject);

  const fromText = mail.from ? (mail.from.name ? `${mail.from.name} <${mail.from.address}>` : mail.from.address) : null;
  const attachments = mail.attachments.slice(0, MAX_ATTACHMENTS_LISTED).map((a) => ({ filename: a.filename ? cleanText(a.filename, 255) : null, mimeType: cleanText(a.mimeType, 255), size: a.size }));
  const metadata: Record<string, unknown> = { to: recipient };
  if (fromText) metadata.from = cleanText(fromText, 1024);
  if (mail.envelopeFrom && mail.envelopeFrom !== mail.from?.address) metadata.envelopeFrom = cleanText(mail.envelopeFrom, 1024);
  if (mail.messageId) metadata.messageId = cleanText(mail.messageId, 1024);
  if (mail.date) metadata.date = cleanText(mail.date, 64);
  if (attachments.length) metadata.attachments = attachments;
  if (mail.attachments.length > MAX_ATTACHMENTS_LISTED) metadata.attachmentsNotListed = mail.attachments.length - MAX_ATTACHMENTS_LISTED;

  return {
    event: {
      action: resolves ? 'resolve' : 'trigger',
      dedupKey: boundedKey(cleanText(key, 2048)),
      title: clip(subject || NO_SUBJECT, TITLE_MAX),
      description: cleanText(mail.text.trim(), DESCRIPTION_MAX),
      priority: priorityOf(subject, settings.priorityWords, settings.defaultPriority),
      source: cleanText(fromAddress || mail.from?.name || 'email', 1024),
      clientRef: null,
      tags: ['email'],
      metadata,
    },
    timedOut,
  };
}
