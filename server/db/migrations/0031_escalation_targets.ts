import type { Kysely } from 'kysely';

// Escalation levels that page the schedule (issue 27): each level (JSON text in escalation_policies.level_1…3) says
// whom it pages on its schedules, `notify`: 'primary' or 'primary_and_secondary'. Until now a schedule's secondary was
// paged with its primary on every level naming it (one alert gave a backup three mails); the issue says that stops,
// so every stored level takes 'primary'. A level with only schedules is valid from now on; no column changes.
// Frozen once shipped: never import application code here.
const LEVEL_COLUMNS = ['level_1', 'level_2', 'level_3'] as const;

async function rewriteLevels(db: Kysely<any>, change: (level: Record<string, unknown>) => boolean): Promise<void> {
  const rows: Array<Record<string, string>> = await db.selectFrom('escalation_policies').select(['id', ...LEVEL_COLUMNS]).execute();
  for (const row of rows) {
    const set: Record<string, string> = {};
    for (const column of LEVEL_COLUMNS) {
      let level: unknown;
      try {
        level = JSON.parse(row[column]);
      } catch {
        continue; // unreadable levels are left as they are: the application reads them as empty
      }
      if (level && typeof level === 'object' && !Array.isArray(level) && change(level as Record<string, unknown>)) set[column] = JSON.stringify(level);
    }
    if (Object.keys(set).length) await db.updateTable('escalation_policies').set(set).where('id', '=', row.id).execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await rewriteLevels(db, (level) => {
    if (level.notify === 'primary' || level.notify === 'primary_and_secondary') return false;
    level.notify = 'primary';
    return true;
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewriteLevels(db, (level) => {
    if (!('notify' in level)) return false;
    delete level.notify;
    return true;
  });
}
