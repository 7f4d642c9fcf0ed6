import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applicationName, migrate, openDatabase } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';

/**
 * Migrated databases for test apps, made once and handed out again and again.
 *
 * Migrating a fresh PostgreSQL schema is 2–3 s of DDL, and Kysely's migration lock is one advisory lock for the whole
 * database, so test files running in parallel also wait for each other's migrations; the suite starts a few hundred
 * test apps. Emptying a schema takes about 0.2 s. So a schema, once migrated, goes back
 * to a pool when its app closes: the connections named after it are ended, every table but the migrations' own is
 * emptied, it is renamed, and it is free for the next app, in this test file or another (the pool is a table in `public`, so parallel
 * files and later runs share it). A schema whose structure a test changed is dropped instead of pooled, and the pool is
 * keyed by the migrations' source, so a changed or added migration never meets a schema made without it.
 *
 * SQLite: the migrated database file is made once per migration set, in the temp folder, and copied for each app.
 */

/** Changes whenever what the pool checks on return changes: schemas pooled under older rules are not reused. */
const POOL_RULES = 3;

/** Identifies the migration set by its source: a migration edited or added gives another key. */
export const migrationsKey = createHash('sha256')
  .update(`pool rules ${POOL_RULES}\n`)
  .update(
    Object.entries(migrations)
      .map(([name, m]) => `${name}\n${String(m.up)}\n${String(m.down ?? '')}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16);

const POOL = 'public.alertdesk_test_schemas';
/** The bookkeeping tables the migrator fills: kept when a schema is emptied. */
const KEEP = new Set(['kysely_migration', 'kysely_migration_lock']);
/** A schema taken longer ago than this belongs to a test process that died: it is dropped when next seen. */
const ABANDONED_AFTER = '30 minutes';

/**
 * Held while a schema is made and migrated, renamed or dropped, by every process: Kysely's migrator reads the whole
 * database's catalog by schema name before it migrates, and fails ("schema … does not exist") when another process
 * renames or drops a schema meanwhile. (Apps over pooled schemas do not start the migrator: `migrate` finds every
 * migration recorded.)
 */
const DDL_LOCK = `hashtext('alertdesk_test_schemas_ddl')`;

/** Runs `run` holding the lock above on `c`'s session. */
async function holdingDdlLock<T>(c: pg.Client, run: () => Promise<T>): Promise<T> {
  await c.query(`select pg_advisory_lock(${DDL_LOCK})`);
  try {
    return await run();
  } finally {
    await c.query(`select pg_advisory_unlock(${DDL_LOCK})`);
  }
}

/**
 * Runs `run` while no other test process makes, renames or drops a schema (the lock above): for a test that starts
 * Kysely's migrator on a schema itself, or renames schemas of its own. Not while holding a pooled schema's lock.
 */
export function whileSchemasStay<T>(url: string, run: () => Promise<T>): Promise<T> {
  return withClient(url, (c) => holdingDdlLock(c, run));
}

const newSchemaName = () => `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

async function withClient<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'alertdesk-test-pool' });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function ensurePool(c: pg.Client) {
  await c.query('begin');
  try {
    await c.query(`select pg_advisory_xact_lock(hashtext('alertdesk_test_schemas'))`);
    await c.query(`create table if not exists ${POOL} (name text primary key, migrations text not null, structure text not null, busy boolean not null, taken_at timestamptz)`);
    await c.query('commit');
  } catch (err) {
    await c.query('rollback');
    throw err;
  }
}

/**
 * The schema's tables, columns, constraints, indexes, functions, triggers and other relations (views, sequences…), as
 * one hash: what a migration makes, and what a test that adds a trigger or a function must not leave to the next.
 */
async function structureOf(c: pg.Client, schema: string): Promise<string> {
  const { rows } = await c.query<{ s: string | null }>(
    `select md5(replace(coalesce((select string_agg(table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' || coalesce(column_default, ''), ',' order by table_name, column_name)
                   from information_schema.columns where table_schema = $1), '')
            || coalesce((select string_agg(indexdef, ',' order by indexname) from pg_indexes where schemaname = $1), '')
            || coalesce((select string_agg(conname || ':' || pg_get_constraintdef(oid), ',' order by conname) from pg_constraint where connamespace = $1::regnamespace), '')
            || coalesce((select string_agg(proname || '(' || pg_get_function_identity_arguments(oid) || ')', ',' order by proname) from pg_proc where pronamespace = $1::regnamespace), '')
            || coalesce((select string_agg(t.tgname, ',' order by t.tgname) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace and not t.tgisinternal), '')
            || coalesce((select string_agg(relname || ':' || relkind::text, ',' order by relname) from pg_class where relnamespace = $1::regnamespace and relkind not in ('r', 'i')), ''), $1 || '.', '')) as s`,
    [schema],
  );
  return rows[0].s ?? '';
}

/** Every migration recorded as run, and the migration lock free: a test may have changed either. */
async function migrationsIntact(c: pg.Client, schema: string): Promise<boolean> {
  const { rows } = await c.query<{ run: number; locked: number }>(
    `select (select count(*) from "${schema}".kysely_migration)::int as run, (select count(*) from "${schema}".kysely_migration_lock where is_locked <> 0)::int as locked`,
  );
  return rows[0].run === Object.keys(migrations).length && rows[0].locked === 0;
}

async function dropSchema(c: pg.Client, schema: string) {
  await c.query(`begin; select pg_advisory_xact_lock(${DDL_LOCK}); drop schema if exists "${schema}" cascade; commit;`);
  await c.query(`delete from ${POOL} where name = $1`, [schema]);
}

/**
 * A migrated schema of this migration set, taken for one test app. A free one is taken from the pool; otherwise a new
 * one is made and migrated here (the app's own migration then finds nothing to do).
 */
export async function takeSchema(url: string): Promise<string> {
  return withClient(url, async (c) => {
    await ensurePool(c);
    // Schemas of dead test processes, and free schemas of another migration set, are dropped: one at a time, here.
    const stale = await c.query<{ name: string }>(
      `delete from ${POOL} where name = (select name from ${POOL} where (busy and taken_at < now() - interval '${ABANDONED_AFTER}') or (not busy and migrations <> $1) limit 1 for update skip locked) returning name`,
      [migrationsKey],
    );
    for (const { name } of stale.rows) await c.query(`begin; select pg_advisory_xact_lock(${DDL_LOCK}); drop schema if exists "${name}" cascade; commit;`);
    const taken = await c.query<{ name: string }>(
      `update ${POOL} set busy = true, taken_at = now() where name = (select name from ${POOL} where not busy and migrations = $1 limit 1 for update skip locked) returning name`,
      [migrationsKey],
    );
    if (taken.rows[0]) return taken.rows[0].name;
    const schema = newSchemaName();
    await holdingDdlLock(c, async () => {
      await c.query(`create schema "${schema}"`);
      const handle = openDatabase(url, { poolSize: 1, searchPath: schema });
      try {
        await migrate(handle.db, schema);
      } finally {
        await handle.close();
      }
    });
    await c.query(`insert into ${POOL} (name, migrations, structure, busy, taken_at) values ($1, $2, $3, true, now())`, [schema, migrationsKey, await structureOf(c, schema)]);
    return schema;
  });
}

/**
 * Gives a schema back once its app is closed: every connection still named after it is ended (a forked worker, a
 * test's own client), its tables are emptied, it is renamed, and it is free again — or dropped, when its structure is
 * no longer what the migrations made.
 */
export async function returnSchema(url: string, schema: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()`, [applicationName(schema)]);
    const row = await c.query<{ structure: string }>(`select structure from ${POOL} where name = $1`, [schema]);
    if (!row.rows[0] || row.rows[0].structure !== (await structureOf(c, schema)) || !(await migrationsIntact(c, schema))) return dropSchema(c, schema);
    const { rows } = await c.query<{ tablename: string }>(`select tablename from pg_tables where schemaname = $1`, [schema]);
    const tables = rows.map((r) => r.tablename).filter((t) => !KEEP.has(t));
    // Renamed as it is emptied: an app a test left running (its connections come back after being ended) then finds
    // no schema of that name, as when schemas were dropped, instead of writing into the next test's data; and the bus's
    // NOTIFY channel, named after the schema, changes with it.
    const next = newSchemaName();
    try {
      // DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE gives each of ~50 tables and ~130 indexes new
      // files (about 1.5 s). Foreign keys are not checked meanwhile (replica role), so the order does not matter.
      await c.query(
        `begin; select pg_advisory_xact_lock(${DDL_LOCK}); set local session_replication_role = replica; ${tables.map((t) => `delete from "${schema}"."${t}";`).join(' ')} alter schema "${schema}" rename to "${next}"; commit;`,
      );
      await c.query(`update ${POOL} set name = $2, busy = false, taken_at = null where name = $1`, [schema, next]);
    } catch {
      await c.query('rollback').catch(() => {});
      await dropSchema(c, schema);
    }
  });
}

/**
 * A migrated SQLite database at `file`: a copy of this migration set's template in the temp folder, made the first
 * time by whichever process needs it (written aside, then renamed, so a half-written template is never copied).
 */
export async function copyMigratedSqlite(file: string): Promise<void> {
  const template = path.join(os.tmpdir(), `alertdesk-test-template-${migrationsKey}.db`);
  if (!fs.existsSync(template)) {
    const aside = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const handle = openDatabase(aside);
    try {
      await migrate(handle.db, null);
    } finally {
      await handle.close();
    }
    // Closing checkpoints the WAL into the file: the file alone is the database.
    for (const extra of ['-wal', '-shm']) fs.rmSync(aside + extra, { force: true });
    fs.renameSync(aside, template);
  }
  fs.copyFileSync(template, file);
}
