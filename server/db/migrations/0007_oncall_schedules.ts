import { sql, type Kysely } from 'kysely';

// issue 12: on-call schedules, their overrides, and personal calendar feeds. Frozen once shipped: never import
// application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oncall_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    // Calendar dates YYYY-MM-DD in time_zone: coverage from 00:00 of start_date through 24:00 of end_date.
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    // IANA zone name; shift hours are wall-clock hours there.
    .addColumn('time_zone', 'text', (c) => c.notNull())
    // JSON text: {"0".."6": [{startHour, endHour, primaryOnCall, secondaryOnCall|null}]}. User ids without foreign
    // keys: a member who leaves stays in the rotation as 'Unknown User' until someone edits the schedule.
    .addColumn('rotations', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oncall_schedules_tenant_idx').on('oncall_schedules').columns(['tenant_id', 'created_at', 'id']).execute();
  // One default per tenant, whatever the code does: a second concurrent default fails here instead of being stored.
  await db.schema
    .createIndex('oncall_schedules_one_default_uq')
    .on('oncall_schedules')
    .column('tenant_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  await db.schema
    .createTable('oncall_overrides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('schedule_id', 'text', (c) => c.notNull().references('oncall_schedules.id').onDelete('cascade'))
    .addColumn('replaced_user_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // "Who is on call at t" reads the overrides of one schedule that have not ended by t.
  await db.schema.createIndex('oncall_overrides_schedule_idx').on('oncall_overrides').columns(['tenant_id', 'schedule_id', 'ends_at']).execute();

  await db.schema
    .createTable('calendar_feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // sha256 of the secret in the feed's URL; the secret itself is shown once and never stored.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // One live feed per person and tenant: renewing replaces it, revoking deletes it.
  await db.schema.createIndex('calendar_feeds_user_uq').on('calendar_feeds').columns(['tenant_id', 'user_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').ifExists().execute();
  await db.schema.dropTable('oncall_overrides').ifExists().execute();
  await db.schema.dropTable('oncall_schedules').ifExists().execute();
}
