/**
 * Marks every mail Alertdesk sends (server/notifications/mailer.ts sets it): a page forwarded back to an integration's
 * address, by a person's mailbox rule or a distribution list, must not become a new alert that pages again.
 */
export const ALERTDESK_MAIL_HEADER = 'x-alertdesk-mail';

export type IgnoreReason = 'alertdesk-mail' | 'auto-reply' | 'bounce';

/**
 * Why a mail is accepted but makes no alert, or null when it makes one. Only what answers another mail is ignored:
 * - a mail Alertdesk sent (ALERTDESK_MAIL_HEADER);
 * - an auto-reply (RFC 3834): `Auto-Submitted` other than `no` and `auto-generated`, an `X-Autoreply`/`X-Autorespond`
 *   header, or `Precedence: junk` (what vacation programs write);
 * - a bounce: the null envelope sender (`MAIL FROM:<>`, RFC 5321 §4.5.5), `Return-Path: <>`, or a delivery report
 *   (`Content-Type: multipart/report`).
 * `Auto-Submitted: auto-generated` and `Precedence: bulk`/`list` are NOT ignored: they mark automatic notifications, which
 * is what alert mail is (cron writes both on every job's output mail; monitoring tools write them too).
 */
export function ignoreReason(headers: ReadonlyArray<{ key: string; value: string }>, envelopeFrom: string | null): IgnoreReason | null {
  let reason: IgnoreReason | null = envelopeFrom === '' ? 'bounce' : null;
  for (const h of headers) {
    const value = h.value.trim().toLowerCase();
    switch (h.key) {
      case ALERTDESK_MAIL_HEADER:
        return 'alertdesk-mail';
      case 'auto-submitted': {
        const kind = value.split(';')[0].trim();
        if (kind && kind !== 'no' && kind !== 'auto-generated') reason ??= 'auto-reply';
        break;
      }
      case 'x-autoreply':
      case 'x-autorespond':
      case 'x-auto-reply':
        if (value && value !== 'no') reason ??= 'auto-reply';
        break;
      case 'precedence':
        if (value === 'junk') reason ??= 'auto-reply';
        break;
      case 'return-path':
        if (value === '<>') reason ??= 'bounce';
        break;
      case 'content-type':
        if (value.startsWith('multipart/report')) reason ??= 'bounce';
        break;
    }
  }
  return reason;
}
