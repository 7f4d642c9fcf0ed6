import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, OperationNode, QueryId, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type DB } from '../../db/database.ts';
import { findAlertsByIds } from '../alerts/alerts.repository.ts';
import { markPagedNobody } from './paged-nobody.repository.ts';
import { setEscalationMany } from './paging.repository.ts';

/** Keeps every statement a query builder runs through it, to be compiled again and explained. */
class Recorder implements KyselyPlugin {
  nodes: Array<{ node: RootOperationNode; queryId: QueryId }> = [];
  transformQuery(args: { node: RootOperationNode; queryId: QueryId }) {
    this.nodes.push(args);
    return args.node;
  }
  async transformResult<R>(args: { result: R }) {
    return args.result;
  }
}

/**
 * The statements that pick many alerts of one tenant by id look the ids up by the primary key on SQLite. Without
 * statistics, SQLite's planner judged `tenant_id = ?` more selective than ten ids and read the tenant's whole index
 * instead: the escalation engine's update after every level cost 26 µs an alert at 60,000 alerts of one tenant, and
 * grew with the tenant (the yardstick's ingestion rose from 7,061 to 9,705 new alerts/s with the ids leading).
 */
describe('alerts picked by ids (SQLite plans)', () => {
  let dir: string;
  let db: DB;
  let close: () => Promise<void>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-plans-'));
    ({ db, close } = openDatabase(`sqlite:${path.join(dir, 'plans.db')}`));
    await migrate(db);
  });
  afterAll(async () => {
    await close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The query plans of what `run` executes, as SQLite's `explain query plan` words them, a line per table. */
  async function plansOf(run: (db: DB) => Promise<unknown>): Promise<string[]> {
    const recorder = new Recorder();
    await run(db.withPlugin(recorder));
    expect(recorder.nodes.length).toBeGreaterThan(0);
    const plans: string[] = [];
    for (const { node, queryId } of recorder.nodes) {
      const compiled = db.getExecutor().compileQuery(node as OperationNode as RootOperationNode, queryId);
      const { rows } = await db.executeQuery<{ detail: string }>({ ...compiled, sql: `explain query plan ${compiled.sql}` });
      plans.push(rows.map((r) => r.detail).join(' | '));
    }
    return plans;
  }

  const ids = Array.from({ length: 40 }, (_, i) => `alert-${i}`);
  const byPrimaryKey = /SEARCH (a|alerts) USING INDEX sqlite_autoindex_alerts_1 \(id=\?\)/;

  it("the engine's update of many alerts' escalation", async () => {
    for (const plan of await plansOf((d) => setEscalationMany(d, 'tenant-1', ids, { escalation_level: 2, next_step_at: null }))) expect(plan).toMatch(byPrimaryKey);
  });

  it('the paged-nobody mark', async () => {
    for (const plan of await plansOf((d) => markPagedNobody(d, 'tenant-1', ids, new Date().toISOString(), 'unreachable'))) expect(plan).toMatch(byPrimaryKey);
  });

  it("the live stream's read of the alerts that changed", async () => {
    const [plan] = await plansOf((d) => findAlertsByIds(d, 'tenant-1', ids));
    expect(plan.split(' | ')[0]).toMatch(byPrimaryKey);
  });
});
