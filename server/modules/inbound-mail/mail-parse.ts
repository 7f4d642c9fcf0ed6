import PostalMime from 'postal-mime';
import type { Address } from 'postal-mime';
import { htmlToText } from './html-text.ts';
import type { InboundMail } from './mail-event.ts';

/** The first mailbox of a From header (a group's first member). */
function firstMailbox(from: Address | undefined): { name: string; address: string } | null {
  if (!from) return null;
  if (from.group) return from.group[0] ? { name: from.group[0].name, address: from.group[0].address } : null;
  return from.address || from.name ? { name: from.name, address: from.address } : null;
}

const byteLength = (content: ArrayBuffer | Uint8Array | string) => (typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength);

/**
 * A raw message as the rules see it, and its top-level headers (for the loop checks). Throws on a message PostalMime
 * cannot read at all (nesting or headers past its limits): retrying such a mail cannot help, the caller refuses it.
 */
export async function parseMail(raw: Uint8Array, envelopeFrom: string): Promise<{ mail: InboundMail; headers: Array<{ key: string; value: string }> }> {
  const parsed = await PostalMime.parse(raw, { maxNestingDepth: 32, maxHeadersSize: 512 * 1024, maxRfc822NestingDepth: 2 });
  const text = parsed.text?.trim() ? parsed.text : parsed.html ? htmlToText(parsed.html) : '';
  return {
    mail: {
      subject: parsed.subject ?? '',
      text,
      from: firstMailbox(parsed.from),
      envelopeFrom,
      messageId: parsed.messageId ?? null,
      date: parsed.date ?? null,
      attachments: parsed.attachments.map((a) => ({ filename: a.filename, mimeType: a.mimeType, size: byteLength(a.content) })),
    },
    headers: parsed.headers,
  };
}
