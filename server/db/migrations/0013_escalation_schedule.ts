import { sql, type Kysely } from 'kysely';

// Issue 11 (speed): an escalation's next level and its overdue check are columns of its alert instead of one job row
// each per alert (the alert row is written when they are set and when they fire anyway).
// - alerts.next_step_at: when the escalation's next level (escalation_level + 1) falls due; null without one to come.
// - alerts.overdue_check_at: when the alert falls due for its overdue check (its priority's acknowledgement target),
//   set when the escalation starts, cleared when the check has run or the escalation stops.
// Each has a partial index holding only alerts with one to come: the worker finds the due ones through it.
// Jobs of kinds 'escalation.step' and 'escalation.overdue' scheduled before this migration still run as jobs.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('next_step_at', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('overdue_check_at', 'text').execute();
  await db.schema
    .createIndex('alerts_next_step_idx')
    .on('alerts')
    .column('next_step_at')
    .where(sql.ref('next_step_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('alerts_overdue_check_idx')
    .on('alerts')
    .column('overdue_check_at')
    .where(sql.ref('overdue_check_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_overdue_check_idx').ifExists().execute();
  await db.schema.dropIndex('alerts_next_step_idx').ifExists().execute();
  await db.schema.alterTable('alerts').dropColumn('overdue_check_at').execute();
  await db.schema.alterTable('alerts').dropColumn('next_step_at').execute();
}
