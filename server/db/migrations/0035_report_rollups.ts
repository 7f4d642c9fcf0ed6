import type { Kysely } from 'kysely';

// Reports speed (issue 31): the whole tenant's summary adds stored sums of its settled alerts instead of reading
// every alert of the period. Frozen once shipped: never import application code here.
// - report_rollup_state: per tenant, the hours covered ([covered_from, covered_to), ISO hour starts), the watermark
//   `settled_to` (every alert created in a covered hour and resolved at or before it is in exactly one rollup row),
//   the acknowledgement targets the rows were summed under (`targets`: rebuilt when they change) and a `generation`
//   that changes when the rows are thrown away (a process's cached sum of them is then stale).
// - report_rollups: one row per (tenant, UTC hour of creation, watermark): the sum (JSON) of that hour's alerts
//   settled after the previous watermark and at or before this one. Rows are written once and never changed, so a
//   process may keep their sum and move it along a sliding period. Both go with their tenant.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_rollup_state')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('generation', 'text', (c) => c.notNull())
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('covered_from', 'text', (c) => c.notNull())
    .addColumn('covered_to', 'text', (c) => c.notNull())
    .addColumn('settled_to', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('report_rollups')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('hour', 'text', (c) => c.notNull())
    .addColumn('settled_to', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_rollups_pk', ['tenant_id', 'hour', 'settled_to'])
    .execute();
  // The rows written since a watermark (a cached sum catching up).
  await db.schema.createIndex('report_rollups_settled_idx').on('report_rollups').columns(['tenant_id', 'settled_to']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('report_rollups').ifExists().execute();
  await db.schema.dropTable('report_rollup_state').ifExists().execute();
}
