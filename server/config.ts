import path from 'node:path';

/** Every environment variable the server reads, parsed and documented in one place (see README). */
export interface Config {
  /** `sqlite:<file>` / a file path (default ./data/alertdesk.db), `:memory:`, or `postgres://…`. */
  databaseUrl: string;
  /** PostgreSQL schema to use (created when missing); tests give each file its own. */
  databaseSchema: string | null;
  port: number;
  host: string;
  /** Public base URL used in emails and OIDC redirects, e.g. https://alertdesk.example.com. */
  publicUrl: string;
  /** Hosts starting with this prefix redirect `/` to /app/dashboard. */
  appHostPrefix: string;
  /** Trust X-Forwarded-* (behind a reverse proxy). */
  trustProxy: boolean;
  /** Directory with the built web app; null serves the API only. */
  webDir: string | null;
  logLevel: string;
  smtpUrl: string | null;
  mailFrom: string;
  oidc: { issuer: string; clientId: string; clientSecret: string; allowInsecure: boolean } | null;
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  signInLimit: { perAccount: number; perIp: number; windowMs: number };
  admin: { email: string; password: string } | null;
  /** Alert ingestion: events accepted per integration key per window (429 beyond), and the largest single-event body. */
  ingest: { rateLimit: number; rateWindowMs: number; maxEventBytes: number };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const oidcIssuer = env.OIDC_ISSUER ?? 'https://accounts.google.com';
  return {
    databaseUrl: env.DATABASE_URL ?? path.resolve('data', 'alertdesk.db'),
    databaseSchema: env.DATABASE_SCHEMA ?? null,
    port,
    host: env.HOST ?? '0.0.0.0',
    publicUrl,
    appHostPrefix: env.APP_HOST_PREFIX ?? 'app.',
    trustProxy: env.TRUST_PROXY === 'true',
    webDir: env.WEB_DIR ?? path.resolve('dist', 'web'),
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
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT ?? publicUrl }
        : null,
    signInLimit: {
      perAccount: Number(env.SIGNIN_LIMIT_ACCOUNT ?? 5),
      perIp: Number(env.SIGNIN_LIMIT_IP ?? 30),
      windowMs: Number(env.SIGNIN_LIMIT_WINDOW_MS ?? 15 * 60_000),
    },
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    ingest: {
      // 20,000 per 10 s: a burst of several thousand events in one second from one key is accepted.
      rateLimit: Number(env.INGEST_RATE_LIMIT ?? 20_000),
      rateWindowMs: Number(env.INGEST_RATE_WINDOW_MS ?? 10_000),
      maxEventBytes: Number(env.INGEST_MAX_EVENT_BYTES ?? 512 * 1024),
    },
  };
}
