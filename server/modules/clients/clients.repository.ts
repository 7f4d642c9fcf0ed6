import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Client, ClientInput, ClientListQuery } from '../../../contract/clients.ts';
import type { DB } from '../../db/database.ts';
import { parseJson } from '../../db/database.ts';
import type { ClientsTable } from '../../db/schema.ts';

export type ClientRow = Selectable<ClientsTable> & { created_by_name: string | null };

/** The lowercased text the list search matches: name, contact name and contact email. */
export function clientSearchText(v: { name: string; contactName: string | null; contactEmail: string | null }) {
  // A newline separates the fields so a search never matches across two of them.
  return [v.name, v.contactName ?? '', v.contactEmail ?? ''].join('\n').toLowerCase();
}

/** The columns a person edits, with the lowercased copies that serve sorting and search. */
export function clientColumns(input: ClientInput) {
  return {
    name: input.name,
    name_lower: input.name.toLowerCase(),
    description: input.description,
    contact_name: input.contactName,
    contact_email: input.contactEmail,
    contact_phone: input.contactPhone,
    address: input.address,
    city: input.city,
    state: input.state,
    zip_code: input.zipCode,
    country: input.country,
    website: input.website,
    industry: input.industry,
    size: input.size,
    status: input.status,
    tags: JSON.stringify(input.tags),
    custom_fields: JSON.stringify(input.customFields),
    search_text: clientSearchText(input),
    escalation_policy_id: input.escalationPolicyId,
    aliases: JSON.stringify(input.aliases),
  } satisfies Updateable<ClientsTable>;
}

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    description: row.description,
    contactName: row.contact_name,
    contactEmail: row.contact_email,
    contactPhone: row.contact_phone,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zip_code,
    country: row.country,
    website: row.website,
    industry: row.industry,
    size: (row.size || null) as Client['size'],
    status: row.status,
    tags: parseJson<string[]>(row.tags, []),
    customFields: parseJson<Record<string, string>>(row.custom_fields, {}),
    escalationPolicyId: row.escalation_policy_id ?? null,
    aliases: parseJson<string[]>(row.aliases ?? '[]', []),
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `%term%` for LIKE with the term's own `%`, `_` and `\` taken literally. */
const containsPattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtered(db: DB, tenantId: string, q: Pick<ClientListQuery, 'status' | 'search'>) {
  let query = db.selectFrom('clients as c').where('c.tenant_id', '=', tenantId);
  if (q.status !== 'all') query = query.where('c.status', '=', q.status);
  // search_text is stored lowercased, so this is case-insensitive on both databases; ESCAPE makes `\` the escape
  // character on SQLite too (it has none by default).
  if (q.search) query = query.where(sql<boolean>`c.search_text like ${containsPattern(q.search)} escape '\\'`);
  return query;
}

/**
 * One page of a tenant's clients and the total that match. Every order ends on the id so pages never overlap, and
 * each filter and order is served by a covering index on (tenant_id, …) of migration 0005.
 */
export async function listClients(db: DB, tenantId: string, q: ClientListQuery): Promise<{ items: ClientRow[]; total: number }> {
  const dir = q.order;
  const base = filtered(db, tenantId, q);
  let page = base.select('c.id');
  if (q.sort === 'name') page = page.orderBy('c.name_lower', dir).orderBy('c.id', dir);
  else if (q.sort === 'status') page = page.orderBy('c.status', dir).orderBy('c.name_lower', dir).orderBy('c.id', dir);
  else page = page.orderBy('c.created_at', dir).orderBy('c.id', dir);
  page = page.limit(q.pageSize).offset((q.page - 1) * q.pageSize);

  const [ids, count] = await Promise.all([
    page.execute(),
    base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  const rows = ids.length ? await selectRows(db, tenantId).where('c.id', 'in', ids.map((r) => r.id)).execute() : [];
  // The page's order comes from the id query; the rows query only fills them in.
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { items: ids.map((r) => byId.get(r.id)).filter((r): r is ClientRow => !!r), total: Number(count.n) };
}

function selectRows(db: DB, tenantId: string) {
  return db
    .selectFrom('clients as c')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .selectAll('c')
    .select('u.display_name as created_by_name')
    .where('c.tenant_id', '=', tenantId);
}

export async function findClient(db: DB, tenantId: string, clientId: string): Promise<ClientRow | undefined> {
  return selectRows(db, tenantId).where('c.id', '=', clientId).executeTakeFirst();
}

export async function countClients(db: DB, tenantId: string): Promise<number> {
  const r = await db.selectFrom('clients').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Which of the given ids are clients of the tenant. */
export async function existingClientIds(db: DB, tenantId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db.selectFrom('clients').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The client of the tenant an event names, by id or by name (case-insensitive; the oldest of that name), or null. */
export async function findClientIdByRef(db: DB, tenantId: string, ref: string): Promise<string | null> {
  const row = await db
    .selectFrom('clients')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('id', '=', ref), eb('name_lower', '=', ref.toLowerCase())]))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Every client of the tenant as ingestion matches them: id, name and aliases, oldest first (the first match wins). */
export async function clientNamesOf(db: DB, tenantId: string): Promise<Array<{ id: string; name: string; aliases: string }>> {
  const rows = await db.selectFrom('clients').select(['id', 'name', 'aliases']).where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, aliases: r.aliases ?? '[]' }));
}

/** Every client of the platform (deliberately unscoped: platform analytics for super admins). */
export async function unsafeCountAllClients(db: DB): Promise<number> {
  const r = await db.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertClient(db: DB, row: Insertable<ClientsTable>): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

/** Replaces the editable columns of one client of the tenant; false when the tenant has no such client. */
export async function updateClient(db: DB, tenantId: string, clientId: string, values: Updateable<ClientsTable>): Promise<boolean> {
  const r = await db.updateTable('clients').set(values).where('tenant_id', '=', tenantId).where('id', '=', clientId).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** False when the tenant has no such client. */
export async function deleteClient(db: DB, tenantId: string, clientId: string): Promise<boolean> {
  const r = await db.deleteFrom('clients').where('tenant_id', '=', tenantId).where('id', '=', clientId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
