import { sql, type Kysely } from 'kysely';

// Reports (issue 31): the figures of the alerts a tenant (or one of its clients) opened in a period, read by SQL
// aggregates over a range of creation times.
// - alerts_opened_idx: the tenant's alerts by creation time, narrow. A covering index carrying every column the
//   figures read was measured first: the reports read the index alone, but every ingested alert wrote its seven
//   columns, and ingestion (issue 26: bench:yardstick) lost about a third of its rate; reports are rarer than alerts.
// - alerts_client_opened_idx: one client's alerts by creation time (a client's report, the printable pages). Partial
//   (alerts with a client): a query naming a client implies it, a query over the whole tenant cannot take it, and an
//   alert without a client (most alerts of a tool watching many clients) writes nothing to it.
// Frozen once shipped: never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('alerts_opened_idx').on('alerts').columns(['tenant_id', 'created_at']).execute();
  await db.schema
    .createIndex('alerts_client_opened_idx')
    .on('alerts')
    .columns(['tenant_id', 'client_id', 'created_at'])
    .where(sql.ref('client_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alerts_client_opened_idx').ifExists().execute();
  await db.schema.dropIndex('alerts_opened_idx').ifExists().execute();
}
