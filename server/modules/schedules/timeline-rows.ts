import { TIMELINE_ROW_NAMES, WEEKDAY_KEYS } from '../../../contract/schedules.ts';
import { layerAt, type LayerSpec } from './layers.ts';
import { coverage, nextShiftStart, shiftAt, type OverrideSpec, type ScheduleSpec } from './oncall.ts';

/**
 * What a schedule's final timeline is made of, one row each, as PagerDuty's schedule view draws them beneath the final
 * schedule (issue 27): every rotation layer on its own (highest first: the one that wins where it has someone), the
 * weekday template when it has shifts, and the overrides. Pure: no database, no clock; epoch milliseconds.
 */
export interface RowSegment {
  start: number;
  end: number;
  primary: string;
  secondary: string | null;
  /** On the overrides row: the person the override stands in for. */
  replaces: string | null;
}

export interface Row {
  kind: 'layer' | 'template' | 'overrides';
  name: string;
  segments: RowSegment[];
}

const HOUR_MS = 3600_000;

/** Appends a stretch, joined to the previous one when it follows on with the same people. */
function append(out: RowSegment[], seg: RowSegment) {
  const last = out[out.length - 1];
  if (last && last.end === seg.start && last.primary === seg.primary && last.secondary === seg.secondary && last.replaces === seg.replaces) last.end = seg.end;
  else if (seg.end > seg.start) out.push(seg);
}

/** A layer's turns from `from` to `to`: who it puts on call, handoff to handoff, inside its windows. */
export function layerSegments(layer: LayerSpec, zone: string, from: number, to: number): RowSegment[] {
  const out: RowSegment[] = [];
  for (let t = from; t < to; ) {
    const l = layerAt(layer, zone, t);
    const end = Math.min(to, l.end > t ? l.end : t + HOUR_MS);
    if (l.userId) append(out, { start: t, end, primary: l.userId, secondary: null, replaces: null });
    t = end;
  }
  return out;
}

/** The weekday template's shifts from `from` to `to` (inside the schedule's dates), with their backups. */
export function templateSegments(s: ScheduleSpec, from: number, to: number): RowSegment[] {
  const cov = coverage(s);
  const out: RowSegment[] = [];
  for (let t = Math.max(from, cov.start); t < Math.min(to, cov.end); ) {
    const current = shiftAt(s, t, cov);
    if (current) {
      const end = Math.min(to, current.end);
      append(out, { start: t, end, primary: current.shift.primaryOnCall, secondary: current.shift.secondaryOnCall, replaces: null });
      t = end > t ? end : t + HOUR_MS;
      continue;
    }
    const next = nextShiftStart(s, t, cov);
    if (next === null) break;
    t = next > t ? next : t + HOUR_MS;
  }
  return out;
}

const hasTemplate = (s: ScheduleSpec) => WEEKDAY_KEYS.some((k) => (s.rotations[k]?.length ?? 0) > 0);

/** The rows from `from` to `to`: layers (highest first), the template when it has shifts, then the overrides. */
export function timelineRows(s: ScheduleSpec, overrides: readonly OverrideSpec[], from: number, to: number): Row[] {
  const cov = coverage(s);
  // Layers count only inside the schedule's dates, as in the final schedule.
  const [a, b] = [Math.max(from, cov.start), Math.min(to, cov.end)];
  const layers = s.layers ?? [];
  const rows: Row[] = layers.map((l) => ({ kind: 'layer' as const, name: l.name, segments: a < b ? layerSegments(l, s.timeZone, a, b) : [] })).reverse();
  if (hasTemplate(s)) rows.push({ kind: 'template', name: TIMELINE_ROW_NAMES.template, segments: templateSegments(s, from, to) });
  const shown = overrides
    .filter((o) => o.endsAt > from && o.startsAt < to)
    .sort((x, y) => x.startsAt - y.startsAt || x.createdAt.localeCompare(y.createdAt))
    .map((o) => ({ start: Math.max(o.startsAt, from), end: Math.min(o.endsAt, to), primary: o.userId, secondary: null, replaces: o.replacedUserId }));
  rows.push({ kind: 'overrides', name: TIMELINE_ROW_NAMES.overrides, segments: shown });
  return rows;
}
