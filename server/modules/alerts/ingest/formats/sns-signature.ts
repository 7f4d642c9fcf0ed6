import { createVerify, X509Certificate } from 'node:crypto';
import { AppError, forbidden } from '../../../../http/errors.ts';

export type SnsFetch = (url: string) => Promise<{ status: number; body: string }>;

/** The fields of an SNS HTTP(S) message that are signed, in the order AWS signs them, per message type. */
const SIGNED_FIELDS: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

export const SNS_MSG = {
  forged: 'The SNS message signature could not be verified',
  badCertUrl: 'SigningCertURL must be an https URL of an SNS host',
  badSubscribeUrl: 'SubscribeURL must be an https URL of an SNS host',
  unreachable: 'The SNS signing certificate could not be fetched; try again',
} as const;

const MAX_CERTS = 100;

/** AWS could not be reached: the one 5xx of these routes, so SNS delivers the message again later. */
const unavailable = (message: string) => new AppError(503, 'unavailable', message, undefined, { 'retry-after': '30' });

/**
 * Verifies SNS messages (docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html): the string AWS
 * signed is rebuilt from the message's fields, and checked (SignatureVersion 1: SHA1withRSA, 2: SHA256withRSA)
 * against the certificate at SigningCertURL, which is fetched only from an https URL whose host matches `hosts`
 * (sns.<region>.amazonaws.com) and kept (a few certificates serve every topic of a region). A URL of another host
 * is refused before anything is fetched.
 */
export class SnsVerifier {
  private certs = new Map<string, string>();

  constructor(
    private readonly hosts: RegExp,
    private readonly get: SnsFetch,
  ) {}

  /** An https URL on an SNS host, without credentials or an odd port; else null. */
  snsUrl(raw: string, pem: boolean): URL | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
    if (!this.hosts.test(url.hostname)) return null;
    if (pem && !url.pathname.endsWith('.pem')) return null;
    return url;
  }

  /** Throws 403 unless `msg` carries a valid signature of an SNS certificate. */
  async verify(msg: Record<string, unknown>): Promise<void> {
    const fields = SIGNED_FIELDS[String(msg.Type)];
    const version = msg.SignatureVersion;
    if (!fields || (version !== '1' && version !== '2') || typeof msg.Signature !== 'string') throw forbidden(SNS_MSG.forged);
    const certUrl = typeof msg.SigningCertURL === 'string' ? this.snsUrl(msg.SigningCertURL, true) : null;
    if (!certUrl) throw forbidden(SNS_MSG.badCertUrl);
    let signed = '';
    for (const f of fields) {
      const v = msg[f];
      if (v === undefined || v === null) {
        if (f === 'Subject') continue;
        throw forbidden(SNS_MSG.forged);
      }
      if (typeof v !== 'string') throw forbidden(SNS_MSG.forged);
      signed += `${f}\n${v}\n`;
    }
    const pem = await this.certificate(certUrl.href);
    const ok = createVerify(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(signed, 'utf8')
      .verify(pem, msg.Signature, 'base64');
    if (!ok) throw forbidden(SNS_MSG.forged);
  }

  /** Confirms a subscription by GETting its SubscribeURL: only an SNS host's, only after `verify`. */
  async confirm(subscribeUrl: unknown): Promise<void> {
    const url = typeof subscribeUrl === 'string' ? this.snsUrl(subscribeUrl, false) : null;
    if (!url) throw forbidden(SNS_MSG.badSubscribeUrl);
    const res = await this.fetchOrUnavailable(url.href);
    // SNS sends the confirmation again after a 5xx: worth it when its endpoint failed for a moment.
    if (res.status < 200 || res.status >= 300) throw unavailable(`SNS did not confirm the subscription (${res.status}); try again`);
  }

  private async certificate(url: string): Promise<string> {
    const hit = this.certs.get(url);
    if (hit) return hit;
    const res = await this.fetchOrUnavailable(url);
    let pem: string;
    try {
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      new X509Certificate(res.body); // a certificate, not some other page
      pem = res.body;
    } catch {
      throw forbidden(SNS_MSG.forged);
    }
    if (this.certs.size >= MAX_CERTS) this.certs.clear();
    this.certs.set(url, pem);
    return pem;
  }

  private async fetchOrUnavailable(url: string) {
    try {
      return await this.get(url);
    } catch {
      throw unavailable(SNS_MSG.unreachable);
    }
  }
}

/** The built-in GET: 5 s, no redirects (a redirect could leave the SNS host), at most 64 kB read. */
export const httpsGet: SnsFetch = async (url) => {
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5000) });
  const body = (await res.text()).slice(0, 65_536);
  return { status: res.status, body };
};
