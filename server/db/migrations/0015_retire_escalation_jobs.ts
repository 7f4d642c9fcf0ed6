import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// The escalation engine keeps an escalation's next level and overdue check on the alert (0013) and sends pages as
// 'escalation.pages' jobs of many pages each, with signed acknowledge links that store nothing until used. This moves
// what an older server may have left in the older shapes, so the engine has one code path:
// - 'escalation.step' jobs → the alert's next level (`escalation_level` = the job's level - 1, `next_step_at` = its
//   due time), or, for a repeat, its `overdue_check_at`; 'escalation.overdue' jobs → `overdue_check_at`. Only alerts
//   still new and running are touched; an earlier time already set on the alert wins.
// - 'page.deliver' jobs (one page each) → 'escalation.pages' jobs (their pages grouped, 500 a job) due when they were.
// - acknowledge tokens stored at send time and never used: their links stop working (signed links replace them).
// Frozen once shipped: never import application code here.

type Job = { id: string; kind: string; payload: string; due_at: string; created_at: string };
type Page = { tenantId: string; alertId: string; userId: string; channel: string; step: string; level: number | null };

export async function up(db: Kysely<any>): Promise<void> {
  const jobs = (await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'payload', 'due_at', 'created_at'])
    .where('kind', 'in', ['escalation.step', 'escalation.overdue', 'page.deliver'])
    .execute()) as Job[];
  const parse = (j: Job) => {
    try {
      return JSON.parse(j.payload) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const running = (alertId: unknown, tenantId: unknown) => (qb: any) =>
    qb.where('id', '=', String(alertId)).where('tenant_id', '=', String(tenantId)).where('status', '=', 'new').where('escalation_state', '=', 'running');
  const pages: Page[] = [];
  for (const job of jobs) {
    const p = parse(job);
    if (job.kind === 'page.deliver') {
      if (typeof p.alertId === 'string' && typeof p.userId === 'string') pages.push(p as unknown as Page);
      continue;
    }
    const overdue = job.kind === 'escalation.overdue' || p.repeat === true;
    const column = overdue ? 'overdue_check_at' : 'next_step_at';
    const set: Record<string, unknown> = { [column]: job.due_at };
    if (!overdue) set.escalation_level = Math.max(0, Number(p.level ?? 1) - 1);
    await running(p.alertId, p.tenantId)(db.updateTable('alerts').set(set))
      .where((eb: any) => eb.or([eb(column, 'is', null), eb(column, '>', job.due_at)]))
      .execute();
  }
  const groups = new Map<string, { shared: Omit<Page, 'alertId'>; alertIds: string[] }>();
  for (const p of pages) {
    const key = `${p.tenantId}|${p.step}|${p.level}|${p.userId}|${p.channel}`;
    const g = groups.get(key) ?? groups.set(key, { shared: { tenantId: p.tenantId, step: p.step, level: p.level ?? null, userId: p.userId, channel: p.channel }, alertIds: [] }).get(key)!;
    g.alertIds.push(p.alertId);
  }
  const packed = [...groups.values()].map((g) => ({ ...g.shared, alertIds: g.alertIds }));
  const due = jobs.filter((j) => j.kind === 'page.deliver').map((j) => j.due_at).sort()[0];
  const at = new Date().toISOString();
  for (let i = 0; i < packed.length; i += 100) {
    await db
      .insertInto('jobs')
      .values({
        id: randomUUID(),
        tenant_id: null,
        alert_id: null,
        kind: 'escalation.pages',
        unique_key: `pages:${randomUUID()}`,
        payload: JSON.stringify({ groups: packed.slice(i, i + 100) }),
        due_at: due ?? at,
        attempts: 0,
        max_attempts: 3,
        lock_token: null,
        locked_until: null,
        created_at: at,
      })
      .execute();
  }
  const ids = jobs.map((j) => j.id);
  for (let i = 0; i < ids.length; i += 500) await db.deleteFrom('jobs').where('id', 'in', ids.slice(i, i + 500)).execute();
  await sql`delete from ack_tokens where used_at is null`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to undo: the older shapes are not produced again.
}
