import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase, pendingMigrations } from './database.ts';
import { migrations } from './migrations/index.ts';
import { copyMigratedSqlite, returnSchema, takeSchema, whileSchemasStay } from '../test/schema-pool.ts';
import { testDatabases } from '../test/test-app.ts';

/** A migrated database of this kind, and how to give it back. */
async function migratedDatabase(db: { name: string; url: string }) {
  if (db.name === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-migrate-'));
    const file = path.join(dir, 'test.db');
    await copyMigratedSqlite(file);
    return { handle: openDatabase(file), schema: null, done: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = await takeSchema(db.url);
  return { handle: openDatabase(db.url, { searchPath: schema }), schema, done: () => returnSchema(db.url, schema) };
}

for (const db of testDatabases()) {
  describe(`migrations at start [${db.name}]`, () => {
    it('start on an up-to-date database while other schemas of it are renamed and dropped', async () => {
      if (db.name !== 'postgres') return;
      const { handle, schema, done } = await migratedDatabase(db);
      // Another process keeps renaming a schema (test files running side by side do), under the test pool's lock so
      // that the other test files' own migrations are not disturbed by it.
      const other = new pg.Client({ connectionString: db.url });
      await other.connect();
      const a = `churn_${randomBytes(4).toString('hex')}`;
      try {
        await whileSchemasStay(db.url, async () => {
          await other.query(`create schema "${a}"; ${Array.from({ length: 60 }, (_, i) => `create table "${a}".t${i} (x int, y text, z int);`).join(' ')}`);
          let churning = true;
          const churn = (async () => {
            for (let n = 0; churning; n++) await other.query(`alter schema "${a}${n % 2 ? '_r' : ''}" rename to "${a}${n % 2 ? '' : '_r'}"`);
          })();
          try {
            for (let i = 0; i < 30; i++) await migrate(handle.db, schema);
            // The readiness probe's count too (it went through Kysely's migrator, which read every schema's catalog).
            for (let i = 0; i < 30; i++) expect(await pendingMigrations(handle.db, schema)).toBe(0);
          } finally {
            churning = false;
            await churn;
            await other.query(`drop schema if exists "${a}" cascade; drop schema if exists "${a}_r" cascade`);
          }
        });
      } finally {
        await other.end();
        await handle.close();
        await done();
      }
    });

    it('counts every migration pending on an empty database, creating nothing there (the readiness probe)', async () => {
      const schema = db.name === 'postgres' ? `empty_${randomBytes(4).toString('hex')}` : null;
      const dir = schema ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-empty-'));
      const admin = schema ? new pg.Client({ connectionString: db.url }) : null;
      await admin?.connect();
      // Made and dropped under the test pool's lock: another file's migrator may be reading the catalog meanwhile.
      const ddl = (statement: string) => whileSchemasStay(db.url, () => admin!.query(statement));
      if (schema) await ddl(`create schema "${schema}"`);
      const handle = schema ? openDatabase(db.url, { searchPath: schema }) : openDatabase(path.join(dir!, 'empty.db'));
      try {
        expect(await pendingMigrations(handle.db, schema)).toBe(Object.keys(migrations).length);
        const tables = schema
          ? (await admin!.query(`select table_name as name from information_schema.tables where table_schema = $1`, [schema])).rows
          : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(handle.db)).rows;
        expect(tables).toEqual([]);
      } finally {
        await handle.close();
        if (schema) await ddl(`drop schema if exists "${schema}" cascade`);
        await admin?.end();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('runs what is missing, and says which migration failed', async () => {
      const { handle, schema, done } = await migratedDatabase(db);
      try {
        await migrate(handle.db, schema);
        const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
        // A migration recorded as not run: the migrator runs it, and its tables being there already, it fails by name.
        const last = Object.keys(migrations).at(-1)!;
        await sql`delete from ${table} where name = ${last}`.execute(handle.db);
        // The migrator reads every schema's tables: no other test file may rename one meanwhile.
        const run = () => migrate(handle.db, schema);
        await expect(schema ? whileSchemasStay(db.url, run) : run()).rejects.toThrow(`Migration ${last} failed`);
      } finally {
        await handle.close();
        await done();
      }
    });
  });
}
