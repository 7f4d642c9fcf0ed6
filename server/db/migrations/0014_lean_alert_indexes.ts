import { PostgresAdapter, sql, type Kysely, type SqlBool } from 'kysely';

// Issues 11 and 14 (speed): every new alert and every write of an open alert's escalation paid for indexes that
// serve something else.
// - The text search's trigram index (migration 0012) is read by the history alone (resolved and closed alerts; the
//   active list reads its few thousand open alerts without it). It now holds history alerts only: an alert enters it
//   when it is resolved or closed and leaves it if it ever opens again. Ingestion and the escalation's writes of open
//   alerts no longer tokenize their text (PostgreSQL: a GIN entry per trigram on every new row version).
// - alerts_active_status_idx and alerts_active_priority_idx (migration 0003) become one, alerts_active_filter_idx on
//   (tenant_id, status, priority): the active list's pages read the open alerts in their order through
//   alerts_active_idx / alerts_active_rank_idx and filter them, and this one index alone answers the filtered counts and
//   the stat cards without reading the rows. Every open alert's insert and non-HOT update writes one entry, not two.
// Frozen once shipped: never import application code here.
const HISTORY = `status in ('resolved', 'closed')`;

const ACTIVE = `status in ('new', 'acknowledged', 'in_progress')`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_active_status_idx').ifExists().execute();
  await db.schema.dropIndex('alerts_active_priority_idx').ifExists().execute();
  await db.schema.createIndex('alerts_active_filter_idx').on('alerts').columns(['tenant_id', 'status', 'priority']).where(sql.raw<SqlBool>(ACTIVE)).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The operator class as migration 0012 found it (public, or wherever the installation keeps pg_trgm).
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    await sql`drop index if exists alerts_search_trgm_idx`.execute(db);
    // The history's queries say `status in ('resolved', 'closed')` (or one of the two): the planner proves they fall
    // inside the predicate and uses the index as before.
    await sql`create index alerts_search_trgm_idx on alerts using gin (search_text ${sql.id(rows[0].schema, 'gin_trgm_ops')}) where ${sql.raw(HISTORY)}`.execute(db);
    return;
  }
  // SQLite: the FTS5 table keeps its definition (external content over alerts, keyed by rowid); its triggers now index
  // a row exactly while it is in the history. FTS5 must be told the very text it indexed when a row leaves, so each
  // trigger's condition mirrors what the table holds: the old text leaves if the old row was in the history, the new
  // text enters if the new row is. A repeat or an escalation write of an open alert fires nothing; resolved → closed
  // with the same text neither.
  for (const t of ['alerts_fts_insert', 'alerts_fts_delete', 'alerts_fts_update']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  await sql.raw(`create trigger alerts_fts_insert after insert on alerts when new.${HISTORY} begin
    insert into alerts_fts (rowid, search_text) values (new.rowid, new.search_text);
  end`).execute(db);
  await sql.raw(`create trigger alerts_fts_delete after delete on alerts when old.${HISTORY} begin
    insert into alerts_fts (alerts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
  end`).execute(db);
  await sql.raw(`create trigger alerts_fts_update after update of search_text, status on alerts
    when (old.${HISTORY}) <> (new.${HISTORY}) or (new.${HISTORY} and old.search_text is not new.search_text) begin
    insert into alerts_fts (alerts_fts, rowid, search_text) select 'delete', old.rowid, old.search_text where old.${HISTORY};
    insert into alerts_fts (rowid, search_text) select new.rowid, new.search_text where new.${HISTORY};
  end`).execute(db);
  // The index again, of the history alone ('rebuild' would read every alert of the content table).
  await sql`insert into alerts_fts (alerts_fts) values ('delete-all')`.execute(db);
  await sql.raw(`insert into alerts_fts (rowid, search_text) select rowid, search_text from alerts where ${HISTORY}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const active = sql.raw(ACTIVE);
  await db.schema.dropIndex('alerts_active_filter_idx').ifExists().execute();
  await sql`create index if not exists alerts_active_status_idx on alerts (tenant_id, status, created_at) where ${active}`.execute(db);
  await sql`create index if not exists alerts_active_priority_idx on alerts (tenant_id, priority, created_at) where ${active}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    await sql`drop index if exists alerts_search_trgm_idx`.execute(db);
    await sql`create index alerts_search_trgm_idx on alerts using gin (search_text ${sql.id(rows[0].schema, 'gin_trgm_ops')})`.execute(db);
    return;
  }
  for (const t of ['alerts_fts_insert', 'alerts_fts_delete', 'alerts_fts_update']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  await sql`create trigger alerts_fts_insert after insert on alerts begin
    insert into alerts_fts (rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`create trigger alerts_fts_delete after delete on alerts begin
    insert into alerts_fts (alerts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
  end`.execute(db);
  await sql`create trigger alerts_fts_update after update of search_text on alerts when old.search_text is not new.search_text begin
    insert into alerts_fts (alerts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
    insert into alerts_fts (rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`insert into alerts_fts (alerts_fts) values ('rebuild')`.execute(db);
}
