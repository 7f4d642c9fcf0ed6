import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/**
 * Path segments that carry a secret: an integration key (ingestion URLs), an invitation token (API and page), a
 * calendar feed's secret, an acknowledge link's token (API and page).
 */
const SECRET_SEGMENT = /(\/(?:ingest\/(?:alertmanager|events)|v2\/enqueue|invitations|calendarFeeds|ack)\/)[^/?#]+/gi;
/** Query parameters that carry a secret: reset and invitation tokens, OIDC codes and state, keys sent as parameters. */
const SECRET_PARAM = /^(?:token|code|state|key|routing_key|integration_key|api_key|apikey|password|secret|access_token|id_token|refresh_token|session)$/i;

/**
 * A URL as it may be written to the log: the secret path segments and query parameter values replaced with
 * `[redacted]`, everything else (ids included) kept so the log stays useful.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const pathPart = (q < 0 ? url : url.slice(0, q)).replace(SECRET_SEGMENT, `$1${REDACTED}`);
  if (q < 0) return pathPart;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // kept as sent
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

/** Fastify's own request serializer, with the URL redacted (headers are not logged at all). */
export function requestSerializer(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}
