import { PostgresAdapter, sql, type Kysely } from 'kysely';

// issue 14: the alert search (a case-insensitive substring of search_text, `%` and `_` literal) served by a trigram
// index instead of reading every alert (a text matching nothing cost ~0.5–1 s at a million alerts). Queries of 3
// characters or more narrow by the index; the LIKE of before still decides, so the results are exactly as before.
// Building it over existing alerts, at a million: SQLite's 'rebuild' ~4 s, PostgreSQL's index ~6 s (ingestion waits).
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // pg_trgm is one per database, while every test file migrates its own schema of one database at the same time:
    // two `create extension if not exists` racing both see none and one fails (unique violation). The lock is held to
    // the end of this migration's transaction, so a waiter then sees the extension created.
    await sql`select pg_advisory_xact_lock(hashtext('alertdesk: create extension pg_trgm'))`.execute(db);
    // In public, where every schema can reach it; the operator class is named with its schema because a private
    // schema's search_path (tests, benchmarks) leaves public out. An installation that already has pg_trgm elsewhere
    // keeps it there, hence the look-up.
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    // A GIN index of search_text's trigrams: serves `like '%…%' escape '\'` (3 characters or more) directly.
    await sql`create index alerts_search_trgm_idx on alerts using gin (search_text ${sql.id(rows[0].schema, 'gin_trgm_ops')})`.execute(db);
    return;
  }
  // SQLite: an FTS5 table of search_text's trigrams over the alerts table itself (external content: the text is not
  // stored twice), keyed by the alerts' rowid (alerts is an ordinary rowid table; its text id is a separate key). The
  // rowid is implicit: VACUUM keeps it (checked with SQLite 3.53), but a later migration that rebuilds alerts (create,
  // copy, drop, rename) must recreate these triggers and run the 'rebuild' below again.
  // External content must be kept in step by triggers: a missing delete leaves entries the table no longer has
  // (FTS5 reports it with its 'integrity-check' command). detail=none keeps only which alerts hold a trigram, not where:
  // the search asks for trigrams covering the text and the LIKE decides, so positions would only cost space and
  // ingestion time (a phrase query needs them; an AND of trigrams does not).
  await sql`create virtual table alerts_fts using fts5(search_text, content='alerts', content_rowid='rowid', tokenize='trigram', detail=none)`.execute(db);
  await sql`create trigger alerts_fts_insert after insert on alerts begin
    insert into alerts_fts (rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`create trigger alerts_fts_delete after delete on alerts begin
    insert into alerts_fts (alerts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
  end`.execute(db);
  // Only a change of the text itself: a repeat of an alert (its count and last-seen time) or a status change does not
  // touch the index.
  await sql`create trigger alerts_fts_update after update of search_text on alerts when old.search_text is not new.search_text begin
    insert into alerts_fts (alerts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
    insert into alerts_fts (rowid, search_text) values (new.rowid, new.search_text);
  end`.execute(db);
  await sql`insert into alerts_fts (alerts_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The extension stays: other schemas of the database may use it.
    await sql`drop index if exists alerts_search_trgm_idx`.execute(db);
    return;
  }
  for (const t of ['alerts_fts_insert', 'alerts_fts_delete', 'alerts_fts_update']) await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
  await sql`drop table if exists alerts_fts`.execute(db);
}
