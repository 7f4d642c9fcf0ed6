import { sql, type Kysely } from 'kysely';

// Issue 25, "Storms and nobody paged": an alert whose escalation paged nobody says so on its card, and the dashboard
// counts those of the last 24 hours.
// - alerts.paged_nobody_at: when it was found that nobody would be paged for the alert (ISO-8601 UTC text, like every
//   time of the table); null for an alert that paged someone, or whose escalation has not started yet.
// - alerts.paged_nobody_reason: why, as a short code the contract turns into a text ('no_policy', 'nobody_on_level',
//   'unreachable', 'failed').
// Existing alerts stay unmarked: their escalation ran before anybody looked. The partial index holds the marked
// alerts alone (few, once the tenant has a policy), so the dashboard's "last 24 hours" count reads a handful of index
// entries, and the writes of the many alerts that paged someone never touch it.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('paged_nobody_at', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('paged_nobody_reason', 'text').execute();
  await db.schema
    .createIndex('alerts_paged_nobody_idx')
    .on('alerts')
    .columns(['tenant_id', 'paged_nobody_at'])
    .where(sql.ref('paged_nobody_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_paged_nobody_idx').ifExists().execute();
  await db.schema.alterTable('alerts').dropColumn('paged_nobody_reason').execute();
  await db.schema.alterTable('alerts').dropColumn('paged_nobody_at').execute();
}
