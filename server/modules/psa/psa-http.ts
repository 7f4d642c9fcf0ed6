import http from 'node:http';
import https from 'node:https';
import { publicOnlyLookup, refusedHost } from '../../notifications/public-address.ts';
import type { OutboundPolicy } from '../destinations/outbound-post.ts';

/** Longest wait for a PSA's answer; the most of an answer read. */
export const PSA_HTTP = { timeoutMs: 10_000, answerBytes: 1024 * 1024 };

/**
 * A failed call to a PSA. `lost`: the request went out and its answer never came (a timeout, a connection cut): the
 * PSA may have acted on it, so a create is looked for before it is made again. `permanent`: retrying will not help
 * (the address guard refused the host, 400/401/403/404 answers).
 */
export class PsaError extends Error {
  constructor(
    message: string,
    readonly opts: { lost?: boolean; permanent?: boolean; status?: number } = {},
  ) {
    super(message);
  }
}

export interface PsaRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** JSON (sent as application/json) or a form (URLSearchParams). */
  body?: unknown;
}

/**
 * One call to a PSA through the same address guard as outbound webhooks (destinations/outbound-post.ts): public
 * addresses only unless allowed, checked on the socket's own look-up, no redirects, 10 s, 1 MB of answer. Resolves
 * with the parsed JSON answer of a 2xx; anything else throws a PsaError whose message never carries credentials.
 */
export function psaRequest<T = unknown>(req: PsaRequest, policy: OutboundPolicy, timeoutMs = PSA_HTTP.timeoutMs): Promise<T> {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch {
    return Promise.reject(new PsaError('invalid URL', { permanent: true }));
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new PsaError('only http and https are allowed', { permanent: true }));
  if (!policy.allowPrivate) {
    const refused = refusedHost(policy.allowed, target.hostname);
    if (refused) return Promise.reject(new PsaError(refused, { permanent: true }));
  }
  const lookup = policy.allowPrivate ? policy.resolve : publicOnlyLookup(policy.allowed, policy.resolve);
  const transport = target.protocol === 'https:' ? https : http;
  const isForm = req.body instanceof URLSearchParams;
  const body = req.body === undefined ? null : isForm ? String(req.body) : JSON.stringify(req.body);
  const what = `${req.method} ${target.pathname}`;

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let sent = false;
    const fail = (err: PsaError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(err);
    };
    const request = transport.request(
      target,
      {
        method: req.method,
        headers: {
          accept: 'application/json',
          'user-agent': 'Alertdesk-PSA/1.0',
          ...(body !== null ? { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...req.headers,
        },
        agent: false,
        ...(lookup ? { lookup: lookup as unknown as http.RequestOptions['lookup'] } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > PSA_HTTP.answerBytes) fail(new PsaError(`${what}: answer too large`));
          else chunks.push(c);
        });
        res.on('error', () => fail(new PsaError(`${what}: the answer was cut off`, { lost: true })));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const text = Buffer.concat(chunks).toString('utf8');
          if (status < 200 || status >= 300) {
            const permanent = status === 400 || status === 401 || status === 403 || status === 404 || status === 422;
            return reject(new PsaError(`${what} answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`, { status, permanent }));
          }
          try {
            resolve((text ? JSON.parse(text) : null) as T);
          } catch {
            reject(new PsaError(`${what}: the answer is not JSON`, { status }));
          }
        });
      },
    );
    const timer = setTimeout(() => fail(new PsaError(`${what}: no answer within ${timeoutMs / 1000} s`, { lost: sent })), timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOTPUBLIC') return fail(new PsaError(err.message, { permanent: true }));
      // Refused or unreachable before sending: the PSA never saw it. Cut after sending: it may have acted on it.
      fail(new PsaError(`${what}: ${err.code ?? err.message}`, { lost: sent && err.code !== 'ECONNREFUSED' }));
    });
    request.on('finish', () => (sent = true));
    request.end(body ?? undefined);
  });
}
