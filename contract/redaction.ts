/**
 * Secrets out of what leaves the process (log lines, error reports), shared by the server and the web app: the
 * server's log serializer and both error reporters use it.
 */

export const REDACTED = '[redacted]';

/**
 * The segments a secret follows in a path: an integration key (ingestion URLs), an invitation token (API and page), a
 * calendar feed's secret, an acknowledge link's token (API and page), a PSA's inbound URL, the digest's "turn off"
 * link, a chat post's one-time action link (API and page). Compared decoded and lowercased, as a router
 * that decodes `%65vents` to `events` would route it.
 */
const SECRET_AFTER = [['ingest', 'alertmanager'], ['ingest', 'events'], ['v2', 'enqueue'], ['invitations'], ['calendarfeeds'], ['ack'], ['api', 'heartbeat'], ['ingest', 'psa'], ['digest', 'off'], ['chat-links'], ['app', 'chat']];

const decodedSegment = (segment: string) => {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
};

/** A top-level path segment the next segment of which is a secret: an SMS page's short acknowledge link (/a/<code>). */
const SECRET_AFTER_ROOT = ['a'];

/** A path with the segment after each secret-bearing prefix replaced, however the prefix was percent-encoded. */
function redactPath(path: string): string {
  const raw = path.split('/');
  const decoded = raw.map(decodedSegment);
  // Where the path starts: after `scheme://host` in a whole URL.
  const root = /^[a-z][a-z0-9+.-]*:$/i.test(raw[0]) && raw[1] === '' ? 3 : 1;
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] === '') continue;
    if (SECRET_AFTER.some((prefix) => prefix.every((word, k) => decoded[i - prefix.length + k] === word))) raw[i] = REDACTED;
    else if (i === root + 1 && SECRET_AFTER_ROOT.includes(decoded[root])) raw[i] = REDACTED;
  }
  return raw.join('/');
}
/** Query parameters that carry a secret: reset and invitation tokens, OIDC codes and state, keys sent as parameters. */
const SECRET_PARAM = /^(?:token|code|state|key|routing_key|integration_key|api_key|apikey|password|secret|access_token|id_token|refresh_token|session)$/i;

/**
 * A URL (a path with its query, or a whole URL) as it may be written out: the secret path segments and query
 * parameter values replaced with `[redacted]`, everything else (ids included) kept so it stays useful.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  if (hash >= 0) url = url.slice(0, hash);
  const q = url.indexOf('?');
  const pathPart = redactPath(q < 0 ? url : url.slice(0, q));
  if (q < 0) return pathPart;
  return `${pathPart}?${redactQuery(url.slice(q + 1))}`;
}

/** A query string (without `?`) with the values of secret parameters replaced. */
export function redactQuery(query: string): string {
  return query
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
}

/** Keys whose values are secrets wherever they appear in a report: headers, bodies, extra data, breadcrumbs. */
const SECRET_KEY = /pass(word)?|token|secret|cookie|authori[sz]ation|session|routing[_-]?key|integration[_-]?key|api[_-]?key|private[_-]?key|^key$/i;
/** Keys whose string values are URLs or paths (redacted with `redactUrl`). */
const URL_KEY = /^(url|from|to|http\.url|http\.target|url\.full|url\.path|http\.route_raw|referer|referrer)$/i;

/** A copy of `value` with secret-named keys replaced and URL-valued keys redacted, at most `depth` levels down. */
export function scrubValue(value: unknown, depth = 8): unknown {
  if (depth < 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_KEY.test(k)) out[k] = REDACTED;
    else if (typeof v === 'string' && URL_KEY.test(k)) out[k] = redactUrl(v);
    else out[k] = scrubValue(v, depth - 1);
  }
  return out;
}

/** The parts of a Sentry event this scrubber touches (kept structural, so neither SDK's types are needed here). */
export interface ReportEvent {
  transaction?: string;
  request?: { url?: string; query_string?: unknown; cookies?: unknown; headers?: Record<string, string>; data?: unknown; env?: unknown };
  breadcrumbs?: Array<{ data?: Record<string, unknown>; message?: string }>;
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
  tags?: Record<string, unknown>;
  spans?: Array<{ description?: string; data?: Record<string, unknown> }>;
  user?: unknown;
}

/**
 * An error or transaction event made safe to send: no cookies, no authorization header, no request body (passwords,
 * integration keys in PagerDuty bodies, free-form alert metadata), secrets in URLs, query strings, transaction and
 * span names redacted, and every secret-named key anywhere replaced. The user is dropped (no emails or addresses).
 */
export function scrubReport<E extends ReportEvent>(event: E): E {
  if (event.transaction) event.transaction = redactUrl(event.transaction);
  const req = event.request;
  if (req) {
    delete req.cookies;
    delete req.data;
    delete req.env;
    if (req.url) req.url = redactUrl(req.url);
    if (typeof req.query_string === 'string') req.query_string = redactQuery(req.query_string);
    else if (req.query_string) req.query_string = scrubValue(req.query_string);
    if (req.headers) req.headers = scrubValue(req.headers) as Record<string, string>;
  }
  for (const crumb of event.breadcrumbs ?? []) {
    if (crumb.data) crumb.data = scrubValue(crumb.data) as Record<string, unknown>;
    if (crumb.message) crumb.message = redactUrl(crumb.message);
  }
  for (const span of event.spans ?? []) {
    if (span.description) span.description = redactUrl(span.description);
    if (span.data) span.data = scrubValue(span.data) as Record<string, unknown>;
  }
  if (event.extra) event.extra = scrubValue(event.extra) as Record<string, unknown>;
  if (event.contexts) event.contexts = scrubValue(event.contexts) as Record<string, unknown>;
  if (event.tags) event.tags = scrubValue(event.tags) as Record<string, unknown>;
  delete event.user;
  return event;
}
