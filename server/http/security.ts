import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';
import { OWN_MSG } from '../../contract/messages.ts';
import { apiTokenOf, SESSION_COOKIE } from './session.ts';

const BASE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The origin of a DSN (`https://key@host/project`), or null when there is none or it is not a URL. */
function dsnOrigin(dsn: string | null): string | null {
  if (!dsn) return null;
  try {
    const url = new URL(dsn);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The page's content security policy. With error reporting on in the browser, its service is allowed too: the SDK
 * posts to it and the user feedback dialog (spec section 7) loads its script from it; nothing else is.
 */
export function contentSecurityPolicy(webDsn: string | null): string {
  const reporting = dsnOrigin(webDsn);
  return reporting ? BASE_CSP.replace("script-src 'self'", `script-src 'self' ${reporting}`).replace("connect-src 'self'", `connect-src 'self' ${reporting}`) : BASE_CSP;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Security headers on every answer, and refusal of cross-origin state-changing requests (CSRF). */
export function registerSecurity(app: FastifyInstance, opts: { publicUrl: string; csrfExempt: (url: string) => boolean; webDsn: string | null }) {
  const publicOrigin = new URL(opts.publicUrl).origin;
  const CSP = contentSecurityPolicy(opts.webDsn);
  // Swagger UI ships inline scripts of its own; its pages get a looser policy.
  const DOCS_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");

  app.addHook('onRequest', async (req) => {
    if (!UNSAFE_METHODS.has(req.method) || opts.csrfExempt(req.url)) return;
    // A script with an API token and no session cookie is no browser riding on a session: nothing to forge. With a
    // cookie too, the check stays (and the cookie is ignored: the token alone decides).
    if (apiTokenOf(req) && !req.cookies?.[SESSION_COOKIE]) return;
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (origin) {
      const own = `${req.protocol}://${req.host}`;
      if (origin !== own && origin !== publicOrigin) throw new AppError(403, 'cross_origin', OWN_MSG.crossOrigin);
    } else if (site === 'cross-site') {
      throw new AppError(403, 'cross_origin', OWN_MSG.crossOrigin);
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('content-security-policy', req.url.startsWith('/api/docs') ? DOCS_CSP : CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (req.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
