import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { DESTINATION_LIMITS } from '../../../contract/destinations.ts';
import { publicOnlyLookup, refusedHost } from '../../notifications/public-address.ts';

export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE=true: any address (self-hosters). */
  allowPrivate: boolean;
  /** Hosts, addresses or CIDRs allowed although not public. */
  allowed: readonly string[];
  /** Tests: a resolver standing in for DNS (a name that resolves to a private address). */
  resolve?: typeof dns.lookup;
}

export interface PostResult {
  status: number | null;
  retryAfter: string | null;
  latencyMs: number;
  /** The answer's first 1 KB (as text). */
  excerpt: string | null;
  error: string | null;
  /** The address guard refused the destination (not retried). */
  guardRefused: boolean;
}

/**
 * POSTs JSON to a tenant's URL, guarded against server-side request forgery: the host is resolved when connecting and
 * refused when any of its addresses is private, loopback, link-local (cloud metadata), unique-local or CGNAT (unless
 * allowed); the socket connects to the address that was checked (the lookup is the socket's own: no second DNS
 * query between check and use). No redirect is followed (a 3xx is the answer), 10 s for the whole exchange, and at
 * most 256 KB of the answer is read.
 */
export function postJson(url: string, body: string, headers: Record<string, string>, policy: OutboundPolicy): Promise<PostResult> {
  const started = Date.now();
  const done = (r: Partial<PostResult>): PostResult => ({ status: null, retryAfter: null, excerpt: null, error: null, guardRefused: false, latencyMs: Date.now() - started, ...r });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done({ error: 'invalid URL', guardRefused: true }));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.resolve(done({ error: 'only http and https are allowed', guardRefused: true }));
  if (!policy.allowPrivate) {
    const refused = refusedHost(policy.allowed, target.hostname);
    if (refused) return Promise.resolve(done({ error: refused, guardRefused: true }));
  }
  const lookup = policy.allowPrivate ? policy.resolve : publicOnlyLookup(policy.allowed, policy.resolve);
  const transport = target.protocol === 'https:' ? https : http;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: Partial<PostResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(r));
    };
    const req = transport.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Alertdesk-Webhooks/1.0', 'content-length': String(Buffer.byteLength(body)), ...headers },
        agent: false,
        ...(lookup ? { lookup: lookup as unknown as http.RequestOptions['lookup'] } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () =>
          finish({
            status: res.statusCode ?? null,
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            excerpt: Buffer.concat(chunks).subarray(0, DESTINATION_LIMITS.excerptBytes).toString('utf8'),
          });
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= DESTINATION_LIMITS.answerBytes) chunks.push(c);
          else answer(); // The cap: what came is enough to judge the answer by.
        });
        res.on('end', answer);
        res.on('error', () => answer());
      },
    );
    const timer = setTimeout(() => finish({ error: `no answer within ${DESTINATION_LIMITS.timeoutMs / 1000} s` }), DESTINATION_LIMITS.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ error: err.message, guardRefused: err.code === 'ENOTPUBLIC' }));
    req.end(body);
  });
}
