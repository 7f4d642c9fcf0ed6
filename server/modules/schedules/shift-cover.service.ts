import { randomUUID } from 'node:crypto';
import type { DB } from '../../db/database.ts';
import { now } from '../../db/database.ts';
import { pieces, type Piece } from './oncall.ts';
import * as repo from './schedules.repository.ts';
import { scheduleNotFound } from './schedules.service.ts';

/**
 * Who covers a stretch of a schedule, for shift swaps and "take the pager" (issue 27): the final schedule (template,
 * layers, overrides) read once, as consecutive pieces. Overrides made here are ordinary overrides: every view of the
 * schedule, who-is-on-call and paging see them.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** A schedule of the tenant with its pieces over [from, to); 404 when the tenant has no such schedule. */
export async function scheduleStretches(db: DB, tenantId: string, scheduleId: string, from: number, to: number) {
  const row = await repo.findSchedule(db, tenantId, scheduleId);
  if (!row) throw scheduleNotFound();
  const overrides = (await repo.listOverrides(db, tenantId, [scheduleId], { from: iso(from), to: iso(to) })).map(repo.toOverrideSpec);
  const spec = repo.toScheduleSpec(row);
  return { id: row.id, name: row.name, pieces: pieces(spec, overrides, from, to), base: pieces(spec, [], from, to) };
}

export interface CoverStretch {
  /** Whom an override must name as replaced: the person the rotation (template or layers) puts there. */
  replaced: string;
  /** Who is there now, overrides applied (the person who stops being on call). */
  current: string;
  start: number;
  end: number;
}

/**
 * The stretches an override must cover to put someone in the place of whoever holds `role` where `take` says so. An
 * override replaces the person the rotation names (overrides do not chain), so where someone is there through an
 * earlier override, the new one names the rotation's person and, made later, wins over the earlier one.
 */
export function coverPlan(s: { pieces: Piece[]; base: Piece[] }, role: 'primary' | 'secondary', take: (p: Piece) => boolean): CoverStretch[] {
  const cuts = [...new Set([...s.pieces, ...s.base].flatMap((p) => [p.start, p.end]))].sort((a, b) => a - b);
  const at = (list: Piece[], t: number) => list.find((p) => p.start <= t && t < p.end);
  const out: CoverStretch[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [start, end] = [cuts[i]!, cuts[i + 1]!];
    const now = at(s.pieces, start);
    const base = at(s.base, start);
    const current = now?.[role];
    const replaced = base?.[role];
    if (!now || !current || !replaced || !take(now)) continue;
    const last = out[out.length - 1];
    if (last && last.replaced === replaced && last.current === current && last.end === start) last.end = end;
    else out.push({ replaced, current, start, end });
  }
  return out;
}

/**
 * The role the person holds through the whole of [from, to) ('primary' or 'secondary', the first piece's), or null
 * when some moment of it finds them off call.
 */
export function roleThroughout(list: Piece[], userId: string, from: number, to: number): 'primary' | 'secondary' | null {
  let at = from;
  let role: 'primary' | 'secondary' | null = null;
  for (const p of list) {
    if (p.end <= at || p.start >= to) continue;
    if (p.start > at) return null;
    const mine = p.primary === userId ? 'primary' : p.secondary === userId ? 'secondary' : null;
    if (!mine) return null;
    role ??= mine;
    at = p.end;
    if (at >= to) return role;
  }
  return null;
}

/** Whether the person is on call (primary or secondary) at any moment of the pieces. */
export const onCallSomewhere = (list: Piece[], userId: string) => list.some((p) => p.primary === userId || p.secondary === userId);

/** Participants of a schedule: everyone its weekday template or its layers name. */
export async function scheduleParticipants(db: DB, tenantId: string, scheduleId: string): Promise<Set<string>> {
  const row = await repo.findSchedule(db, tenantId, scheduleId);
  if (!row) throw scheduleNotFound();
  const s = repo.toSchedule(row);
  const ids = new Set<string>();
  for (const shifts of Object.values(s.rotations)) {
    for (const x of shifts) {
      ids.add(x.primaryOnCall);
      if (x.secondaryOnCall) ids.add(x.secondaryOnCall);
    }
  }
  for (const l of s.layers) l.participants.forEach((id) => ids.add(id));
  return ids;
}

export interface NewCover {
  tenantId: string;
  scheduleId: string;
  replacedUserId: string;
  userId: string;
  startsAt: string;
  endsAt: string;
  note: string | null;
  createdBy: string;
}

/** Writes an override inside the caller's transaction; returns it as the contract shows overrides. */
export async function insertCover(trx: DB, c: NewCover) {
  const row = {
    id: randomUUID(),
    tenant_id: c.tenantId,
    schedule_id: c.scheduleId,
    replaced_user_id: c.replacedUserId,
    user_id: c.userId,
    starts_at: c.startsAt,
    ends_at: c.endsAt,
    note: c.note,
    created_by: c.createdBy,
    // The wall clock, as every override's: the latest made wins, so it must order with those made by hand.
    created_at: now(),
  };
  await repo.insertOverride(trx, row);
  return repo.toOverride(row);
}
