import { sql, type Kysely } from 'kysely';

// Issue 13: approval workflows. Frozen once shipped: never import application code here.
//
// - approval_policies: levels as JSON text [{level, approvers, timeToExpire}]; soft-deleted (active = 0).
// - approval_requests: the policy's levels copied at creation, each with its decision; `version` makes every change a
//   conditional update (two approvers acting at once advance a level once).
// - approval_approvers: who may act on a pending request now (its current level's approvers), so "pending for me" is
//   an indexed join rather than a search through JSON.
// - approval_history: created, decisions, delegation, cancel, expiry.
// - approval_attachments + approval_attachment_chunks: files in the database (every instance serves them), in
//   256 KiB chunks so a download streams. `bytea` is PostgreSQL's binary type; SQLite stores blobs as they are
//   whatever the declared type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('approval_policies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('auto_reject_on_expire', 'integer', (c) => c.notNull())
    .addColumn('notify_on_create', 'integer', (c) => c.notNull())
    .addColumn('notify_on_update', 'integer', (c) => c.notNull())
    .addColumn('delegation_enabled', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('approval_policies_tenant_type_idx').on('approval_policies').columns(['tenant_id', 'type', 'active']).execute();

  await db.schema
    .createTable('approval_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('policy_id', 'text', (c) => c.notNull().references('approval_policies.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_name', 'text', (c) => c.notNull())
    .addColumn('requested_by_email', 'text', (c) => c.notNull())
    .addColumn('current_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('approval_requests_tenant_idx').on('approval_requests').columns(['tenant_id', 'created_at']).execute();
  await db.schema.createIndex('approval_requests_creator_idx').on('approval_requests').columns(['tenant_id', 'created_by', 'created_at']).execute();

  await db.schema
    .createTable('approval_approvers')
    .addColumn('request_id', 'text', (c) => c.notNull().references('approval_requests.id').onDelete('cascade'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_approvers_pk', ['request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('approval_approvers_user_idx').on('approval_approvers').columns(['tenant_id', 'user_id']).execute();

  await db.schema
    .createTable('approval_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull().references('approval_requests.id').onDelete('cascade'))
    // The request's version the entry made (1: created): the order of events even when two share a millisecond.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('level', 'text')
    .addColumn('comment', 'text')
    .addColumn('target_id', 'text')
    .execute();
  await db.schema.createIndex('approval_history_request_idx').on('approval_history').columns(['request_id', 'seq']).execute();

  await db.schema
    .createTable('approval_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('request_id', 'text', (c) => c.notNull().references('approval_requests.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('approval_attachments_request_idx').on('approval_attachments').columns(['request_id', 'position']).execute();

  await db.schema
    .createTable('approval_attachment_chunks')
    .addColumn('attachment_id', 'text', (c) => c.notNull().references('approval_attachments.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', sql`bytea`, (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_attachment_chunks_pk', ['attachment_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['approval_attachment_chunks', 'approval_attachments', 'approval_history', 'approval_approvers', 'approval_requests', 'approval_policies']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
