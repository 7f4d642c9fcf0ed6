import type { Kysely } from 'kysely';

// Shift swaps and "take the pager" (issue 27). Frozen once shipped: never import application code here.
//
// - shift_swaps: what a swap asks, beside its approval request (one row per request of type shift_swap; the request
//   holds the decision, this row the shift): the schedule, who asks, who is asked, the stretch, and the override made
//   on final approval. Its status follows the request's, so overlapping pending swaps are one indexed query.
// - oncall_pager_settings: per schedule, whether only its participants may take its pager (no row: anyone may).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shift_swaps')
    .addColumn('request_id', 'text', (c) => c.primaryKey().references('approval_requests.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('schedule_id', 'text', (c) => c.notNull().references('oncall_schedules.id').onDelete('cascade'))
    .addColumn('requester_id', 'text', (c) => c.notNull())
    .addColumn('taker_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('override_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shift_swaps_schedule_idx').on('shift_swaps').columns(['tenant_id', 'schedule_id', 'status']).execute();
  await db.schema.createIndex('shift_swaps_requester_idx').on('shift_swaps').columns(['tenant_id', 'requester_id', 'ends_at']).execute();
  await db.schema.createIndex('shift_swaps_taker_idx').on('shift_swaps').columns(['tenant_id', 'taker_id', 'ends_at']).execute();

  await db.schema
    .createTable('oncall_pager_settings')
    .addColumn('schedule_id', 'text', (c) => c.primaryKey().references('oncall_schedules.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('participants_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oncall_pager_settings').ifExists().execute();
  await db.schema.dropTable('shift_swaps').ifExists().execute();
}
