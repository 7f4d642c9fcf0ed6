import type { Kysely } from 'kysely';

// issue 5: invitations, notification preferences, user push tokens. Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  // Pending invitations of a signed-in user are found by email.
  await db.schema.createIndex('tenant_members_email_idx').on('tenant_members').columns(['email', 'status']).execute();

  await db.schema
    .createTable('member_invitations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('tenant_members.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('member_invitations_member_idx').on('member_invitations').column('member_id').execute();
  await db.schema.createIndex('member_invitations_tenant_idx').on('member_invitations').column('tenant_id').execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_enabled', 'integer', (c) => c.notNull())
    .addColumn('email_alert_notifications', 'integer', (c) => c.notNull())
    .addColumn('email_weekly_digest', 'integer', (c) => c.notNull())
    .addColumn('email_system_updates', 'integer', (c) => c.notNull())
    .addColumn('sms_enabled', 'integer', (c) => c.notNull())
    .addColumn('sms_alert_types', 'text', (c) => c.notNull())
    .addColumn('push_enabled', 'integer', (c) => c.notNull())
    .addColumn('phone_number', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alert_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.references('clients.id').onDelete('cascade'))
    .addColumn('value', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_subscriptions_user_idx').on('alert_subscriptions').columns(['tenant_id', 'user_id']).execute();
  // Who is subscribed to an alert's priority or tag, and to its client.
  await db.schema.createIndex('alert_subscriptions_value_idx').on('alert_subscriptions').columns(['tenant_id', 'type', 'value']).execute();
  await db.schema.createIndex('alert_subscriptions_client_idx').on('alert_subscriptions').columns(['tenant_id', 'client_id']).execute();

  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_tokens_user_idx').on('user_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['user_tokens', 'alert_subscriptions', 'notification_preferences', 'member_invitations']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await db.schema.dropIndex('tenant_members_email_idx').ifExists().execute();
}
