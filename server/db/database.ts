import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type MigrationProvider, type PostgresPool, type PostgresPoolClient } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';

export type DB = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: DB;
  dialect: Dialect;
  /** PostgreSQL's connection pool (its in-use and waiting counts are metrics); null with SQLite. */
  pool: pg.Pool | null;
  close(): Promise<void>;
}

// pg returns int8 (count(*)) as string; our counts fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens the database named by DATABASE_URL: postgres://… for PostgreSQL, anything else is a SQLite file path. */
export function openDatabase(
  url: string,
  opts: {
    searchPath?: string;
    poolSize?: number;
    onConnectionError?: (err: Error) => void;
    /** Statement timeout (server side) and, a second later, the wait for an answer (client side); 0 or absent: none. */
    timeoutMs?: number;
  } = {},
): DatabaseHandle {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const timeout = opts.timeoutMs ?? 0;
    const options = [opts.searchPath ? `-c search_path=${opts.searchPath}` : '', timeout > 0 ? `-c statement_timeout=${timeout}` : ''].filter(Boolean).join(' ');
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      // While the database is away, a request waits at most this long for a connection, then answers 503.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // A connection that went silent (packets dropped, no reset) is found out: by TCP keepalive when idle, and by
      // the answer not coming within the statement timeout plus a second when a query is waiting on it.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(timeout > 0 ? { query_timeout: timeout + 1_000 } : {}),
      // Names our connections in pg_stat_activity (per schema, so an operator or a test can tell instances apart).
      application_name: applicationName(opts.searchPath),
      ...(options ? { options } : {}),
    });
    // A pooled connection whose backend goes away (failover, pg_terminate_backend, a proxy's idle timeout) emits
    // 'error'; unheard, that event kills the process. Idle ones are reported by the pool, checked-out ones by the
    // client itself (between two queries of a transaction); the pool drops either and opens a new one when needed.
    const report = opts.onConnectionError ?? (() => {});
    pool.on('error', () => {}); // already reported by the client listener below
    pool.on('connect', (client) => client.on('error', report));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withCallbackQueries(pool) }) });
    return { db, dialect: 'postgres', pool, close: () => db.destroy() };
  }
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', pool: null, close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it, whose clients run each query through pg's callback form instead of its promise form
 * (`client.query(text, values)` without a callback). With the promise form, V8's allocation-site pretenuring misjudges
 * how long a query's objects live: every finished query (its rows, their strings, pg's bookkeeping) is kept through
 * two young-generation collections and moved to the old generation. Measured on the dashboard's list over HTTP
 * (1,000,000 alerts, PostgreSQL): about 1.1 MB promoted per scavenge and 2 ms scavenge pauses, against nothing
 * promoted and 0.5 ms with the callback form (`--no-allocation-site-pretenuring` does the same). One wrapper
 * per pg client, so Kysely keeps recognising its connections.
 */
export function withCallbackQueries(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    // A connection whose answer did not come in time is given up: released with the error, the pool closes it
    // instead of handing it out again with the lost query still in its queue.
    let lost: Error | undefined;
    function query(text: string | pg.Submittable, values: readonly unknown[] = []) {
      if (typeof text !== 'string') return client.query(text); // a cursor
      return new Promise<pg.QueryResult>((resolve, reject) =>
        client.query(text, values as unknown[], (err, res) => {
          if (err && err.message === QUERY_READ_TIMEOUT) lost = err;
          return err ? reject(err) : resolve(res);
        }),
      );
    }
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => {
        client.release(lost);
        if (lost) wrappers.delete(client);
      },
    };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)));
      return wrapper;
    },
    end: () => pool.end(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, keeping its most recently used prepared statements: Kysely prepares every
 * query it runs, and compiling the same SQL again cost ingestion about 6 % of its CPU. Statements are
 * keyed by their SQL text (parameters are bound at each run), the least recently used dropped past the cache size. A
 * statement is never run twice at once: better-sqlite3 runs each to completion before returning.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, size = STATEMENT_CACHE_SIZE) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => void sqlite.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) cache.delete(text);
      else {
        stmt = sqlite.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, stmt);
      return stmt;
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * The migrations the database records as run, read from Kysely's table directly (null: it has no such table yet).
 * Kysely's migrator reads the whole database's catalog instead (every schema's tables and columns, by name), which
 * fails when another process renames or drops a schema meanwhile (PostgreSQL: "schema … does not exist"; test files
 * running in parallel do so all the time), and creates its tables when they are missing.
 */
async function recordedMigrations(db: DB, schema: string | null): Promise<Set<string> | null> {
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    return new Set(rows.map((r) => r.name));
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === '42P01' || /no such table/.test(String(e?.message))) return null;
    throw err;
  }
}

/**
 * Whether every migration is recorded as run: then there is nothing to do, and Kysely's migrator is not started (its
 * catalog reads cost a restart more than the rest of its start). A database without the table, or with other
 * migrations recorded than these, goes to the migrator, which migrates it or says what is wrong.
 */
async function upToDate(db: DB, schema: string | null): Promise<boolean> {
  try {
    const done = await recordedMigrations(db, schema);
    const names = Object.keys(migrations);
    return done !== null && done.size === names.length && names.every((n) => done.has(n));
  } catch {
    return false;
  }
}

/** Brings the schema up to date; throws when a migration fails. */
export async function migrate(db: DB, schema?: string | null): Promise<void> {
  if (await upToDate(db, schema ?? null)) return;
  // With a private schema (tests), the migration bookkeeping must live there too, or parallel runs see each other's.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/**
 * How many known migrations the database has not run (readiness: 0 once `migrate` has brought it up to date). A read
 * of one table: the probe runs every few seconds, and creates nothing.
 */
export async function pendingMigrations(db: DB, schema?: string | null): Promise<number> {
  const done = await recordedMigrations(db, schema ?? null);
  return Object.keys(migrations).filter((n) => !done?.has(n)).length;
}

/** The application_name our PostgreSQL connections carry: `alertdesk`, or `alertdesk/<schema>` with a schema. */
export const applicationName = (schema?: string | null) => (schema ? `alertdesk/${schema}` : 'alertdesk').slice(0, 63);

/** True when the database answers within `timeoutMs` (health checks must not hang while it is away). */
export async function ping(db: DB, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs);
    });
    await Promise.race([sql`select 1`.execute(db), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

// PostgreSQL SQLSTATEs meaning "the database is not there right now": connection exceptions (class 08), shutdown
// and start-up (57P01–57P03), too many connections (53300), and a read-only standby after failover (25006).
const PG_UNAVAILABLE = /^(08...|57P0[1-3]|53300|25006)$/;
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN)/;
/** What pg says when no answer came within query_timeout. */
const QUERY_READ_TIMEOUT = 'Query read timeout';
const PG_CLIENT_MESSAGES = [
  QUERY_READ_TIMEOUT,
  // statement_timeout (57014 is also a cancel by an operator, which is no outage).
  'canceling statement due to statement timeout',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
];

/**
 * True when an error says the database is unreachable or overloaded rather than that the query was wrong: such a
 * request answers 503 (try again), not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  // Follows a few levels of `cause` (wrapped errors), never a cycle.
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || NET_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CLIENT_MESSAGES.some((m) => message.includes(m))) return true;
    // 55000 is a general "object not in prerequisite state"; only the database refusing connections is an outage.
    if (code === '55000' && typeof message === 'string' && /not currently accepting connections/.test(message)) return true;
  }
  return false;
}

/** True when a write broke a unique constraint (PostgreSQL 23505, SQLite's UNIQUE constraint): a race lost to a twin. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null | undefined;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint/.test(err?.message ?? '');
}

export const now = () => new Date().toISOString();
/** The fields every named, per-tenant entity with a default (policies, schedules) presents the same way. */
export const namedTenantRow = (row: { id: string; tenant_id: string; name: string; description: string | null; is_default: number }) => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  description: row.description,
  isDefault: row.is_default === 1,
});

export const parseJson = <T>(s: string | null | undefined, fallback: T): T => {
  if (!s) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};
