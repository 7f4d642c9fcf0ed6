import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The `unsafe…` naming rule: an exported repository function that reads, updates or deletes rows of a tenant-owned
 * table without holding the query to one tenant is named `unsafe…` (a look-up by a token before the tenant is known,
 * platform listings and counts, the escalation engine's batches over every tenant), so every call across tenants is
 * visible where it is made.
 *
 * A textual check, honest about its limits:
 * - tenant-owned tables are those of server/db/schema.ts with a `tenant_id` column, and `tenants` itself;
 * - a function uses a table when its own text names it in selectFrom/updateTable/deleteFrom or a join, or after
 *   from/join/update in raw SQL; tables used only through a non-exported helper it calls are not seen (the helpers
 *   here take the tenant id and hold their query to it);
 * - inserts are left out: a row is written to the tenant its values name;
 * - the query counts as held to a tenant when the function compares a `tenant_id` column (or anything) with a value
 *   (`where('x.tenant_id', '=', …)`, `on(…, '=', tenantId)`, raw `tenant_id = ${…}`); a column-to-column comparison
 *   (whereRef, onRef) does not count. A condition that is there but does not apply to every tenant-owned table of
 *   the query is not caught: that needs reading the query, which review does.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where repositories live: every module, and the infrastructure folders that keep tables (jobs, notifications). */
const REPOSITORY_DIRS = ['server/modules', 'server/jobs', 'server/notifications', 'server/db'];

function repositories(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...repositories(p));
    else if (e.name.endsWith('.repository.ts')) out.push(p);
  }
  return out;
}

/** Table names whose row type has a `tenant_id` column, read from schema.ts, plus `tenants`. */
function tenantOwnedTables(): Set<string> {
  const schema = fs.readFileSync(path.join(ROOT, 'server/db/schema.ts'), 'utf8');
  const withTenant = new Set<string>();
  for (const m of schema.matchAll(/export interface (\w+Table) \{([^}]*)\}/g)) if (/\btenant_id\??:/.test(m[2])) withTenant.add(m[1]);
  const tables = new Set(['tenants']);
  for (const m of schema.matchAll(/^ {2}(\w+): (\w+Table);$/gm)) if (withTenant.has(m[2])) tables.add(m[1]);
  return tables;
}

/** Each exported function of a file with its text: up to the closing brace at the start of a line, or its one line. */
function exportedFunctions(text: string): Array<{ name: string; body: string }> {
  const out: Array<{ name: string; body: string }> = [];
  for (const m of text.matchAll(/^export (?:async )?function (\w+)|^export const (\w+) = (?:async )?\(/gm)) {
    const start = m.index!;
    const rest = text.slice(start);
    const end = m[1] ? rest.search(/\n\}\n/) + 2 : rest.search(/\n(?=\S)/);
    out.push({ name: m[1] ?? m[2], body: end > 0 ? rest.slice(0, end) : rest });
  }
  return out;
}

const TABLE_USES = [
  /\b(?:selectFrom|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'(\w+)/g,
  /\b(?:from|join|update)\s+(\w+)\b/gi,
];
const TENANT_CONDITIONS = [
  /\b(?:where|on|eb)\(\s*'(?:\w+\.)?tenant_id'\s*,\s*'(?:=|in)'/,
  /'(?:=|in)'\s*,\s*(?:[\w.]+\.)?tenantId\b/,
  /\btenant_id\s*(?:=|in)\s*\$\{/,
  // Rows given as values, each with its tenant: `… from (values …) as v where alerts.tenant_id = v.tenant_id`.
  /\.tenant_id\s*=\s*v\.tenant_id\b/,
];

/** `label: name (tables)` of each exported function of `text` that breaks the rule. */
function unscopedReads(label: string, text: string, owned: Set<string>) {
  const found: string[] = [];
  for (const fn of exportedFunctions(text)) {
    if (/^unsafe[A-Z]/.test(fn.name)) continue;
    const used = new Set(TABLE_USES.flatMap((re) => [...fn.body.matchAll(re)].map((m) => m[1])).filter((t) => owned.has(t)));
    if (used.size === 0 || TENANT_CONDITIONS.some((re) => re.test(fn.body))) continue;
    found.push(`${label}: ${fn.name} (${[...used].join(', ')})`);
  }
  return found;
}

describe('repository functions across tenants', () => {
  const owned = tenantOwnedTables();
  const files = REPOSITORY_DIRS.flatMap((d) => repositories(path.join(ROOT, d)));

  it('reads the tenant-owned tables from the schema', () => {
    expect([...owned]).toEqual(expect.arrayContaining(['tenants', 'tenant_members', 'clients', 'alerts', 'escalation_policies', 'oncall_schedules']));
    expect(owned.has('users')).toBe(false);
    expect(files.length).toBeGreaterThan(10);
  });

  it('are named unsafe… when a query of a tenant-owned table is not held to one tenant', () => {
    expect(files.flatMap((f) => unscopedReads(path.relative(ROOT, f), fs.readFileSync(f, 'utf8'), owned))).toEqual([]);
  });

  it('catches such a function (the check itself)', () => {
    const planted = [
      'export async function byToken(db: DB, hash: string) {',
      "  return db.selectFrom('member_invitations').selectAll().where('token_hash', '=', hash).execute();",
      '}',
      'export async function unsafeByToken(db: DB, hash: string) {',
      "  return db.selectFrom('member_invitations').selectAll().where('token_hash', '=', hash).execute();",
      '}',
      'export async function joinedByRef(db: DB) {',
      "  return db.selectFrom('tenants').innerJoin('tenant_members as m', (j) => j.onRef('m.tenant_id', '=', 'tenants.id')).execute();",
      '}',
      'export async function scoped(db: DB, tenantId: string, id: string) {',
      "  return db.selectFrom('clients').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).execute();",
      '}',
      'export async function raw(db: DB, since: string) {',
      '  return sql`select count(*) from alerts where created_at >= ${since}`.execute(db);',
      '}',
      'export async function insertOnly(db: DB, row: Row) {',
      "  await db.insertInto('clients').values(row).execute();",
      '}',
      '',
    ].join('\n');
    expect(unscopedReads('planted', planted, owned)).toEqual([
      'planted: byToken (member_invitations)',
      'planted: joinedByRef (tenants, tenant_members)',
      'planted: raw (alerts)',
    ]);
  });
});
