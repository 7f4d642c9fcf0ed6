import type { Kysely } from 'kysely';

// Microsoft Teams and Slack destinations (issue 29).
// - slack_messages: the message posted for an alert to a Slack destination (its channel and ts), so it is updated
//   (chat.update) when the alert changes state; one per destination and alert. `state` is what the message shows
//   (status, priority, assignee): a repeat of the alert that changes none of it updates nothing.
// - slack_user_links: which Alertdesk member a Slack user (team id + user id) acts as in a tenant; made once through a
//   one-time link.
// - chat_action_tokens: one-time links of chat posts (a Teams card's Acknowledge / Resolve buttons, a Slack user's
//   "link your account"): only the SHA-256 of the token is kept, with what it allows and until when; used_at marks use.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('slack_messages')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destinations.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('ts', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('slack_messages_pk', ['destination_id', 'alert_id'])
    .execute();
  await db.schema.createIndex('slack_messages_alert_idx').on('slack_messages').columns(['tenant_id', 'alert_id']).execute();

  await db.schema
    .createTable('slack_user_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('slack_team_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('slack_user_links_slack_idx').on('slack_user_links').columns(['tenant_id', 'slack_team_id', 'slack_user_id']).unique().execute();

  await db.schema
    .createTable('chat_action_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('alert_id', 'text')
    .addColumn('destination_id', 'text')
    .addColumn('slack_team_id', 'text')
    .addColumn('slack_user_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_action_tokens_expiry_idx').on('chat_action_tokens').columns(['expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chat_action_tokens').ifExists().execute();
  await db.schema.dropTable('slack_user_links').ifExists().execute();
  await db.schema.dropTable('slack_messages').ifExists().execute();
}
