import { describe, expect, it } from 'vitest';
import { WEEKDAY_KEYS, type Rotations, type Shift } from '../../../contract/schedules.ts';
import { layerAt, nextHandoffs, type LayerSpec } from './layers.ts';
import { nextHandover, onCallAt, pieces, type ScheduleSpec } from './oncall.ts';

const t = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();
const noTemplate = Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, []])) as unknown as Rotations;
const layer = (over: Partial<LayerSpec> = {}): LayerSpec => ({ name: 'L', participants: ['ann', 'bob', 'cat', 'dan'], start: t('2026-03-02T08:00:00Z'), unit: 'weeks', count: 1, restrictions: [], ...over });
const spec = (timeZone: string, layers: LayerSpec[], rotations: Rotations = noTemplate): ScheduleSpec => ({ timeZone, startDate: '2026-01-01', endDate: '2026-12-31', rotations, layers });
const at = (l: LayerSpec, zone: string, when: string) => {
  const r = layerAt(l, zone, t(when));
  return { userId: r.userId, end: Number.isFinite(r.end) ? iso(r.end) : null };
};

describe('rotation layers (pure, Luxon)', () => {
  it('hands a weekly pager from one person to the next at the same local time across both 2026 daylight-saving changes of Berlin', () => {
    // First handoff Monday 2 March 2026 09:00 CET (08:00Z). Clocks go forward on 29 March and back on 25 October.
    const l = layer();
    expect(at(l, 'Europe/Berlin', '2026-03-02T07:59:59Z')).toEqual({ userId: null, end: '2026-03-02T08:00:00.000Z' });
    expect(at(l, 'Europe/Berlin', '2026-03-02T08:00:00Z')).toEqual({ userId: 'ann', end: '2026-03-09T08:00:00.000Z' });
    expect(at(l, 'Europe/Berlin', '2026-03-23T08:00:00Z')).toEqual({ userId: 'dan', end: '2026-03-30T07:00:00.000Z' }); // 09:00 CEST
    expect(at(l, 'Europe/Berlin', '2026-03-30T06:59:59Z').userId).toBe('dan');
    expect(at(l, 'Europe/Berlin', '2026-03-30T07:00:00Z')).toEqual({ userId: 'ann', end: '2026-04-06T07:00:00.000Z' });
    // 26 October (after fall-back) is again 09:00 CET = 08:00Z; 34 weeks after the start: 34 % 4 = 2 → cat.
    expect(at(l, 'Europe/Berlin', '2026-10-26T07:59:59Z').userId).toBe('bob');
    expect(at(l, 'Europe/Berlin', '2026-10-26T08:00:00Z')).toEqual({ userId: 'cat', end: '2026-11-02T08:00:00.000Z' });
  });

  it('keeps a daily 07:00 handoff in New York across its 2026 changes, and counts hours as real hours', () => {
    const daily = layer({ participants: ['x', 'y'], start: t('2026-03-06T12:00:00Z'), unit: 'days', count: 1 }); // 07:00 EST
    expect(at(daily, 'America/New_York', '2026-03-08T10:59:00Z').userId).toBe('y'); // 7 March 07:00 EST → 8 March 07:00 EDT
    expect(at(daily, 'America/New_York', '2026-03-08T11:00:00Z')).toEqual({ userId: 'x', end: '2026-03-09T11:00:00.000Z' });
    expect(at(daily, 'America/New_York', '2026-11-01T12:00:00Z').end).toBe('2026-11-02T12:00:00.000Z'); // back to EST
    const twelveHours = layer({ participants: ['x', 'y'], start: t('2026-03-07T12:00:00Z'), unit: 'hours', count: 12 });
    expect(at(twelveHours, 'America/New_York', '2026-03-08T12:00:00Z')).toEqual({ userId: 'x', end: '2026-03-09T00:00:00.000Z' });
  });

  it('lists a person twice as two turns, and starts nobody before a layer’s first handoff', () => {
    const l = layer({ participants: ['ann', 'bob', 'ann'], unit: 'days', start: t('2026-06-01T00:00:00Z') });
    expect(['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04'].map((d) => at(l, 'UTC', `${d}T12:00:00Z`).userId)).toEqual(['ann', 'bob', 'ann', 'ann']);
    expect(at(l, 'UTC', '2026-05-31T12:00:00Z')).toEqual({ userId: null, end: '2026-06-01T00:00:00.000Z' });
    expect(nextHandoffs(l, 'UTC', t('2026-06-01T12:00:00Z'), 3).map((h) => [iso(h.at), h.userId])).toEqual([
      ['2026-06-02T00:00:00.000Z', 'bob'],
      ['2026-06-03T00:00:00.000Z', 'ann'],
      ['2026-06-04T00:00:00.000Z', 'ann'],
    ]);
  });

  it('keeps a restricted layer to its windows: weekdays 09–17, and a night window across midnight', () => {
    const office = layer({ restrictions: [{ days: [1, 2, 3, 4, 5], from: 9 * 60, to: 17 * 60 }] });
    // Wednesday 4 March 2026, Berlin (CET): 09:00 = 08:00Z.
    expect(at(office, 'Europe/Berlin', '2026-03-04T07:30:00Z')).toEqual({ userId: null, end: '2026-03-04T08:00:00.000Z' });
    expect(at(office, 'Europe/Berlin', '2026-03-04T08:00:00Z')).toEqual({ userId: 'ann', end: '2026-03-04T16:00:00.000Z' });
    // Friday evening: nobody until Monday 09:00, which is also the handoff to bob.
    expect(at(office, 'Europe/Berlin', '2026-03-06T18:00:00Z')).toEqual({ userId: null, end: '2026-03-09T08:00:00.000Z' });
    expect(at(office, 'Europe/Berlin', '2026-03-09T08:00:00Z').userId).toBe('bob');
    const nights = layer({ restrictions: [{ days: [5], from: 22 * 60, to: 6 * 60 }] });
    expect(at(nights, 'Europe/Berlin', '2026-03-07T02:00:00Z')).toEqual({ userId: 'ann', end: '2026-03-07T05:00:00.000Z' }); // Sat 03:00
  });

  it('puts the higher layer first where it has someone, the lower one and the template beneath, overrides over all', () => {
    const base = layer({ name: '24/7', participants: ['ann', 'bob'] });
    const office = layer({ name: 'Office', participants: ['oli'], restrictions: [{ days: [1, 2, 3, 4, 5], from: 9 * 60, to: 17 * 60 }] });
    const backup: Shift = { startHour: 0, endHour: 24, primaryOnCall: 'tpl', secondaryOnCall: 'sec' };
    const s = spec('Europe/Berlin', [base, office], Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, [backup]])) as unknown as Rotations);
    const who = (when: string, overrides = [] as Parameters<typeof onCallAt>[1]) => {
      const r = onCallAt(s, overrides, t(when));
      return [r.primary, r.secondary, r.endsAt === null ? null : iso(r.endsAt)];
    };
    expect(who('2026-03-04T10:00:00Z')).toEqual(['oli', 'sec', '2026-03-04T16:00:00.000Z']);
    expect(who('2026-03-04T20:00:00Z')).toEqual(['ann', 'sec', '2026-03-05T08:00:00.000Z']);
    // Before the layers begin, the template.
    expect(who('2026-03-01T10:00:00Z')).toEqual(['tpl', 'sec', '2026-03-02T08:00:00.000Z']);
    const cover = { replacedUserId: 'oli', userId: 'zoe', startsAt: t('2026-03-04T12:00:00Z'), endsAt: t('2026-03-04T13:00:00Z'), createdAt: '2026-03-01T00:00:00Z' };
    expect(who('2026-03-04T12:30:00Z', [cover])).toEqual(['zoe', 'sec', '2026-03-04T13:00:00.000Z']);
    expect(who('2026-03-04T11:00:00Z', [cover])[2]).toBe('2026-03-04T12:00:00.000Z');

    // The timeline's stretches follow the same rule, and the next handover is the office hours' end.
    const day = pieces(s, [cover], t('2026-03-04T07:00:00Z'), t('2026-03-04T18:00:00Z')).map((p) => [iso(p.start), p.primary]);
    expect(day).toEqual([
      ['2026-03-04T07:00:00.000Z', 'ann'],
      ['2026-03-04T08:00:00.000Z', 'oli'],
      ['2026-03-04T12:00:00.000Z', 'zoe'],
      ['2026-03-04T13:00:00.000Z', 'oli'],
      ['2026-03-04T16:00:00.000Z', 'ann'],
    ]);
    expect(nextHandover(s, [], t('2026-03-04T10:00:00Z'), 86400_000)).toEqual({ at: t('2026-03-04T16:00:00Z'), primary: 'ann', secondary: 'sec' });
  });

  it('reports nobody, and the next start, for a layered schedule without a template between restricted windows', () => {
    const office = layer({ participants: ['oli'], restrictions: [{ days: [1, 2, 3, 4, 5], from: 9 * 60, to: 17 * 60 }] });
    const s = spec('Europe/Berlin', [office]);
    expect(onCallAt(s, [], t('2026-03-07T12:00:00Z')).primary).toBeNull();
    expect(nextHandover(s, [], t('2026-03-07T12:00:00Z'), 3 * 86400_000)).toEqual({ at: t('2026-03-09T08:00:00Z'), primary: 'oli', secondary: null });
  });
});
