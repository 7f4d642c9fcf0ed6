import path from 'node:path';

/** Every environment variable the server reads, parsed and documented in one place (see README). */
export interface Config {
  /** `sqlite:<file>` / a file path (default ./data/alertdesk.db), `:memory:`, or `postgres://…`. */
  databaseUrl: string;
  /** PostgreSQL schema to use (created when missing); tests give each file its own. */
  databaseSchema: string | null;
  /**
   * PostgreSQL: the longest a statement may run (server-side statement_timeout) and, a second later, the longest the
   * server waits for an answer (a silent network drop): the request then answers 503. 0 turns both off. Default 5 s.
   */
  databaseTimeoutMs: number;
  port: number;
  host: string;
  /** Public base URL used in emails and OIDC redirects, e.g. https://alertdesk.example.com. */
  publicUrl: string;
  /** Hosts starting with this prefix redirect `/` to /app/dashboard. */
  appHostPrefix: string;
  /**
   * Which hops of X-Forwarded-* to trust (behind a reverse proxy), in the form Fastify's `trustProxy` takes: false =
   * none (no proxy), `trustHops(n)` = the n hops closest to the server, a list = proxy addresses / CIDR ranges. Never
   * "every hop": a client would forge its address with a left-most X-Forwarded-For entry.
   */
  trustProxy: false | string[] | TrustHops;
  /** Directory with the built web app; null serves the API only. */
  webDir: string | null;
  logLevel: string;
  smtpUrl: string | null;
  mailFrom: string;
  oidc: { issuer: string; clientId: string; clientSecret: string; allowInsecure: boolean } | null;
  /** Web push keys; without VAPID_* in the environment the server generates a pair at first start and keeps it. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** The VAPID `sub` claim: VAPID_SUBJECT, else the public URL when https, else a mailto: of MAIL_FROM. */
  vapidSubject: string;
  /**
   * Hosts, addresses or CIDR ranges of push services that may be spoken to although they are not public
   * (PUSH_ALLOWED_HOSTS, comma-separated): by default only public addresses are.
   */
  pushAllowedHosts: string[];
  /**
   * Pages handed to their providers at once, per server, whose outcome is not recorded yet (PAGE_SENDS_IN_FLIGHT,
   * default 5): a process killed or a database lost mid-send sends at most that many pages twice.
   */
  pageSendsInFlight: number;
  /**
   * More pages than this for one person on one channel within a minute are kept for one summary page a minute
   * (PAGE_STORM_LIMIT, default 5; 0 turns summaries off).
   */
  pageStormLimit: number;
  /** SMS through a Twilio-compatible Messages API; null turns the sms channel off. */
  sms: { apiUrl: string; accountSid: string; authToken: string; from: string } | null;
  /**
   * Voice calls through a Twilio-compatible Calls API (issue 27): VOICE_ACCOUNT_SID, VOICE_AUTH_TOKEN and VOICE_FROM
   * (the calling number), VOICE_API_URL (default https://api.twilio.com); null turns the voice channel off. The auth
   * token also checks the signature of the calls' "press 1" callbacks.
   */
  voice: { apiUrl: string; accountSid: string; authToken: string; from: string } | null;
  /** Run the job worker (escalation steps, deliveries) in this process; tests drive it by hand instead. */
  jobWorker: boolean;
  /**
   * Failed sign-ins per window: `perAccount` from one address to one account (the owner elsewhere is not locked out),
   * `perIp` over all accounts from one address, `perAccountTotal` to one account from every address together (against
   * distributed guessing; an address the account holds a live session from is exempt from that ceiling).
   */
  signInLimit: { perAccount: number; perIp: number; perAccountTotal: number; windowMs: number };
  /** Registration attempts (password sign-up and Google organization sign-up) per address per window. */
  registerLimit: { perIp: number; windowMs: number };
  /** Password-reset requests per address per window, whatever the email asked for (each email also gets 5 mails an hour). */
  resetLimit: { perIp: number; windowMs: number };
  admin: { email: string; password: string } | null;
  /** Alert ingestion: events accepted per integration key per window (429 beyond), and the largest single-event body. */
  ingest: { rateLimit: number; rateWindowMs: number; maxEventBytes: number };
  /** NODE_ENV=production: error reporting runs only then (spec section 9). */
  production: boolean;
  /** `GET /metrics` wants `Authorization: Bearer <token>` when set; unset, only loopback clients are served. */
  metricsToken: string | null;
  /**
   * Sentry-compatible DSNs, honoured only in production mode: the server's (SENTRY_DSN) and the web app's
   * (SENTRY_DSN_WEB, else SENTRY_DSN), handed to the browser at run time through /api/config.
   */
  sentry: { serverDsn: string | null; webDsn: string | null };
  /**
   * Email to alert: the SMTP listener (INBOUND_SMTP_PORT, default 2525; `0` turns it off, which is `port: null`; a
   * config given in code may say `port: 0` for a free port the OS picks, as tests do), on HOST, for the mail domain
   * of the integrations' addresses (INBOUND_EMAIL_DOMAIN, default the host of PUBLIC_URL). STARTTLS is offered only
   * with a certificate (INBOUND_SMTP_TLS_CERT and INBOUND_SMTP_TLS_KEY, PEM file paths, read at start).
   */
  inboundMail: { port: number | null; host: string; domain: string; tls: { certFile: string; keyFile: string } | null };
  /** Requests one API token may make per minute (API_TOKEN_RATE_LIMIT, default 600; 429 beyond). */
  apiTokenRateLimit: number;
  /**
   * Outbound requests to addresses tenants give (webhooks): private, loopback, link-local, CGNAT and metadata addresses
   * are refused unless OUTBOUND_ALLOW_PRIVATE is `true` (self-hosters reaching their own network) or a comma list of
   * CIDRs allowed despite being private (`10.1.0.0/16,127.0.0.1/32`).
   */
  outbound: { allowPrivate: boolean; allowCidrs: string[] };
  /**
   * AWS SNS ingestion: the hosts a signing certificate (and a SubscribeURL) may come from (AWS_SNS_CERT_HOST_PATTERN,
   * a regular expression; default sns.<region>.amazonaws.com[.cn]), and the GET they are fetched with (null: the
   * built-in fetch; tests hand in a stand-in).
   */
  awsSns: { certHostPattern: RegExp; fetch: ((url: string) => Promise<{ status: number; body: string }>) | null };
  /**
   * Slack (issue 29): the Web API's base URL (SLACK_API_URL, default https://slack.com/api/; tests point it at a
   * stand-in) and the signing secret of the Slack app whose interactions come to /api/slack/interactions
   * (SLACK_SIGNING_SECRET; without it, button clicks are refused).
   */
  slack: { apiUrl: string; signingSecret: string | null };
  /** PSA connections (issue 30): where Autotask's zone of a user is looked up (AUTOTASK_ZONE_LOOKUP_URL). */
  psa: { autotaskZoneLookupUrl: string };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const oidcIssuer = env.OIDC_ISSUER ?? 'https://accounts.google.com';
  return {
    databaseUrl: env.DATABASE_URL ?? path.resolve('data', 'alertdesk.db'),
    databaseSchema: env.DATABASE_SCHEMA ?? null,
    databaseTimeoutMs: Number(env.DATABASE_TIMEOUT_MS ?? 5_000),
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl,
    appHostPrefix: env.APP_HOST_PREFIX ?? 'app.',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webDir: path.resolve(env.WEB_DIR ?? path.join('dist', 'web')),
    logLevel: env.LOG_LEVEL ?? 'info',
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Alertdesk <no-reply@alertdesk.local>',
    oidc:
      env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
        ? {
            issuer: oidcIssuer,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            allowInsecure: oidcIssuer.startsWith('http://'),
          }
        : null,
    vapid:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT ?? vapidSubject(publicUrl, env) }
        : null,
    vapidSubject: env.VAPID_SUBJECT ?? vapidSubject(publicUrl, env),
    sms:
      env.SMS_ACCOUNT_SID && env.SMS_AUTH_TOKEN && env.SMS_FROM
        ? {
            apiUrl: (env.SMS_API_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''),
            accountSid: env.SMS_ACCOUNT_SID,
            authToken: env.SMS_AUTH_TOKEN,
            from: env.SMS_FROM,
          }
        : null,
    voice:
      env.VOICE_ACCOUNT_SID && env.VOICE_AUTH_TOKEN && env.VOICE_FROM
        ? { apiUrl: (env.VOICE_API_URL ?? 'https://api.twilio.com').replace(/\/+$/, ''), accountSid: env.VOICE_ACCOUNT_SID, authToken: env.VOICE_AUTH_TOKEN, from: env.VOICE_FROM }
        : null,
    jobWorker: env.JOB_WORKER !== 'false',
    pageSendsInFlight: Math.max(1, Number(env.PAGE_SENDS_IN_FLIGHT ?? 5) || 5),
    pageStormLimit: stormLimit(env.PAGE_STORM_LIMIT),
    pushAllowedHosts: (env.PUSH_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    signInLimit: {
      perAccount: Number(env.SIGNIN_LIMIT_ACCOUNT ?? 5),
      perIp: Number(env.SIGNIN_LIMIT_IP ?? 30),
      perAccountTotal: Number(env.SIGNIN_LIMIT_ACCOUNT_TOTAL ?? 50),
      windowMs: Number(env.SIGNIN_LIMIT_WINDOW_MS ?? 15 * 60_000),
    },
    registerLimit: {
      perIp: Number(env.REGISTER_LIMIT_IP ?? 10),
      windowMs: Number(env.REGISTER_LIMIT_WINDOW_MS ?? 3600_000),
    },
    resetLimit: {
      perIp: Number(env.RESET_LIMIT_IP ?? 20),
      windowMs: Number(env.RESET_LIMIT_WINDOW_MS ?? 3600_000),
    },
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    ingest: {
      // 20,000 per 10 s: a burst of several thousand events in one second from one key is accepted.
      rateLimit: Number(env.INGEST_RATE_LIMIT ?? 20_000),
      rateWindowMs: Number(env.INGEST_RATE_WINDOW_MS ?? 10_000),
      maxEventBytes: Number(env.INGEST_MAX_EVENT_BYTES ?? 512 * 1024),
    },
    production: env.NODE_ENV === 'production',
    metricsToken: env.METRICS_TOKEN || null,
    sentry: { serverDsn: env.SENTRY_DSN || null, webDsn: env.SENTRY_DSN_WEB || env.SENTRY_DSN || null },
    inboundMail: inboundMail(env, publicUrl),
    apiTokenRateLimit: Math.max(1, Number(env.API_TOKEN_RATE_LIMIT ?? 600) || 600),
    outbound: {
      allowPrivate: (env.OUTBOUND_ALLOW_PRIVATE ?? '').trim().toLowerCase() === 'true',
      allowCidrs: (env.OUTBOUND_ALLOW_PRIVATE ?? '').trim().toLowerCase() === 'true' ? [] : (env.OUTBOUND_ALLOW_PRIVATE ?? '').split(',').map((c) => c.trim()).filter(Boolean),
    },
    awsSns: { certHostPattern: new RegExp(env.AWS_SNS_CERT_HOST_PATTERN?.trim() || '^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$'), fetch: null },
    slack: { apiUrl: env.SLACK_API_URL?.trim() || 'https://slack.com/api/', signingSecret: env.SLACK_SIGNING_SECRET?.trim() || null },
    psa: { autotaskZoneLookupUrl: env.AUTOTASK_ZONE_LOOKUP_URL?.trim() || 'https://webservices.autotask.net/atservicesrest' },
  };
}

/**
 * INBOUND_SMTP_*: a port that is not a whole number 0–65535, a domain that is not a host name, or only half of the
 * TLS pair stops the server at start: mail silently not listened for is worse than a server that says why it will
 * not start.
 */
function inboundMail(env: NodeJS.ProcessEnv, publicUrl: string): Config['inboundMail'] {
  const rawPort = (env.INBOUND_SMTP_PORT ?? '2525').trim();
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) throw new Error(`INBOUND_SMTP_PORT must be a port number, or 0 to turn inbound mail off (got "${rawPort}")`);
  let fallback = 'localhost';
  try {
    fallback = new URL(publicUrl).hostname || fallback;
  } catch {
    // An unparsable PUBLIC_URL fails elsewhere; the mail domain then needs INBOUND_EMAIL_DOMAIN.
  }
  const domain = (env.INBOUND_EMAIL_DOMAIN ?? '').trim().toLowerCase() || fallback.toLowerCase();
  if (!/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(domain)) {
    throw new Error(`INBOUND_EMAIL_DOMAIN must be a domain name such as alerts.example.com (got "${domain}")`);
  }
  const certFile = env.INBOUND_SMTP_TLS_CERT?.trim();
  const keyFile = env.INBOUND_SMTP_TLS_KEY?.trim();
  if (!certFile !== !keyFile) throw new Error('INBOUND_SMTP_TLS_CERT and INBOUND_SMTP_TLS_KEY go together: set both or neither');
  return { port: port === 0 ? null : port, host: env.HOST ?? '0.0.0.0', domain, tls: certFile && keyFile ? { certFile, keyFile } : null };
}

/** Push services want an https: URL or a mailto: address naming who runs the server. */
function vapidSubject(publicUrl: string, env: NodeJS.ProcessEnv) {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const from = /<([^>]+)>/.exec(env.MAIL_FROM ?? '')?.[1] ?? env.MAIL_FROM;
  return `mailto:${from && from.includes('@') ? from.trim() : 'no-reply@alertdesk.local'}`;
}

/**
 * Trusts the `hops` proxies closest to the server. A function, because Fastify 5.12+ takes a bare number as "trust
 * nothing" (it cannot check the immediate peer): the operator who sets a count vouches that only the proxy reaches us.
 */
export type TrustHops = ((address: string, hop: number) => boolean) & { hops: number };
export const trustHops = (hops: number): TrustHops => Object.assign((_address: string, hop: number) => hop < hops, { hops });

/**
 * TRUST_PROXY: unset/empty/`false`/`0` = no proxy; `true` = one hop (the proxy in front of us); a whole number = that
 * many hops; otherwise a comma-separated list of proxy addresses or CIDR ranges (`10.0.0.0/8,192.168.1.1`, or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
export function parseTrustProxy(value: string | undefined): false | string[] | TrustHops {
  const v = (value ?? '').trim();
  if (v === '' || v.toLowerCase() === 'false' || v === '0') return false;
  if (v.toLowerCase() === 'true') return trustHops(1);
  if (/^\d+$/.test(v)) return trustHops(Number(v));
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  return list.length > 0 ? list : false;
}

/** PAGE_STORM_LIMIT: a whole number ≥ 0 (0: no summaries); anything else is the default, 5. */
function stormLimit(v: string | undefined): number {
  const n = Number(v ?? 5);
  return Number.isInteger(n) && n >= 0 ? n : 5;
}
