import { describe, expect, it } from 'vitest';
import { SCHEDULE_MSG, ScheduleInput, WEEKDAY_KEYS, withNewShift, withoutShift, formatHour, weeklyGaps, type Rotations, type Shift } from '../../../contract/schedules.ts';
import { coverage, gapLabel, nextHandover, onCallAt, pieces, timeline, type OverrideSpec, type ScheduleSpec } from './oncall.ts';

const t = (s: string) => Date.parse(s);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const shift = (startHour: number, endHour: number, primaryOnCall: string, secondaryOnCall: string | null = null): Shift => ({ startHour, endHour, primaryOnCall, secondaryOnCall });
const everyDay = (...shifts: Shift[]) => Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, shifts])) as Rotations;
const spec = (timeZone: string, rotations: Rotations, startDate = '2026-01-01', endDate = '2026-12-31'): ScheduleSpec => ({ timeZone, startDate, endDate, rotations });
const who = (s: ScheduleSpec, at: string, overrides: OverrideSpec[] = []) => {
  const r = onCallAt(s, overrides, t(at));
  return { primary: r.primary, secondary: r.secondary, endsAt: iso(r.endsAt) };
};

describe('who is on call (pure, Luxon)', () => {
  // A night shift 1 AM – 9 AM and day shifts around it, the same every day.
  const nights = (zone: string) => spec(zone, everyDay(shift(0, 1, 'eve'), shift(1, 9, 'night', 'backup'), shift(9, 24, 'day')));

  it('is right on both sides of the 2026 spring-forward night in New York: the 1–9 shift lasts 7 hours', () => {
    const s = nights('America/New_York');
    // 2026-03-08: 2:00 EST becomes 3:00 EDT. 1:00 EST = 06:00Z, 9:00 EDT = 13:00Z.
    expect(who(s, '2026-03-08T05:59:59Z')).toEqual({ primary: 'eve', secondary: null, endsAt: '2026-03-08T06:00:00.000Z' });
    expect(who(s, '2026-03-08T06:00:00Z')).toEqual({ primary: 'night', secondary: 'backup', endsAt: '2026-03-08T13:00:00.000Z' });
    expect(who(s, '2026-03-08T06:59:59Z').primary).toBe('night'); // 1:59 EST
    expect(who(s, '2026-03-08T07:00:00Z').primary).toBe('night'); // 3:00 EDT, just after the jump
    expect(who(s, '2026-03-08T12:59:59Z').primary).toBe('night');
    expect(who(s, '2026-03-08T13:00:00Z')).toEqual({ primary: 'day', secondary: null, endsAt: '2026-03-09T04:00:00.000Z' });
    // The night before and after: 8 hours as usual (EST, then EDT).
    expect(who(s, '2026-03-07T06:00:00Z').endsAt).toBe('2026-03-07T14:00:00.000Z');
    expect(who(s, '2026-03-09T05:00:00Z').endsAt).toBe('2026-03-09T13:00:00.000Z');
  });

  it('is right on both sides of the 2026 fall-back night in New York: the 1–9 shift lasts 9 hours', () => {
    const s = nights('America/New_York');
    // 2026-11-01: 2:00 EDT becomes 1:00 EST. 1:00 EDT = 05:00Z, 9:00 EST = 14:00Z.
    expect(who(s, '2026-11-01T04:59:00Z').primary).toBe('eve');
    expect(who(s, '2026-11-01T05:00:00Z')).toEqual({ primary: 'night', secondary: 'backup', endsAt: '2026-11-01T14:00:00.000Z' });
    expect(who(s, '2026-11-01T06:30:00Z').primary).toBe('night'); // 1:30 EST, the hour that happens twice
    expect(who(s, '2026-11-01T13:59:59Z').primary).toBe('night');
    expect(who(s, '2026-11-01T14:00:00Z').primary).toBe('day');
    const p = pieces(s, [], t('2026-11-01T04:00:00Z'), t('2026-11-01T20:00:00Z'));
    const night = p.find((x) => x.primary === 'night')!;
    expect((night.end - night.start) / 3_600_000).toBe(9);
  });

  it('is right on both sides of the 2026 changes in Berlin (7 hours in March, 9 in October)', () => {
    const s = nights('Europe/Berlin');
    // 2026-03-29: 2:00 CET becomes 3:00 CEST. 1:00 CET = 00:00Z, 9:00 CEST = 07:00Z.
    expect(who(s, '2026-03-28T23:59:00Z').primary).toBe('eve');
    expect(who(s, '2026-03-29T00:00:00Z')).toEqual({ primary: 'night', secondary: 'backup', endsAt: '2026-03-29T07:00:00.000Z' });
    expect(who(s, '2026-03-29T01:30:00Z').primary).toBe('night');
    expect(who(s, '2026-03-29T07:00:00Z').primary).toBe('day');
    // 2026-10-25: 3:00 CEST becomes 2:00 CET. 1:00 CEST = 23:00Z the day before, 9:00 CET = 08:00Z.
    expect(who(s, '2026-10-24T22:59:00Z').primary).toBe('eve');
    expect(who(s, '2026-10-24T23:00:00Z')).toEqual({ primary: 'night', secondary: 'backup', endsAt: '2026-10-25T08:00:00.000Z' });
    expect(who(s, '2026-10-25T00:30:00Z').primary).toBe('night'); // 2:30 CEST
    expect(who(s, '2026-10-25T01:30:00Z').primary).toBe('night'); // 2:30 CET, the second time
    expect(who(s, '2026-10-25T07:59:59Z').primary).toBe('night');
    expect(who(s, '2026-10-25T08:00:00Z').primary).toBe('day');
  });

  it('follows the weekday of the schedule’s zone across midnight', () => {
    // Friday 2026-05-01 has an evening shift until midnight; Saturday starts at 8 AM, so Saturday 0–8 is a gap.
    const rotations = everyDay(shift(0, 24, 'weekday'));
    rotations['5'] = [shift(8, 24, 'friday')];
    rotations['6'] = [shift(8, 20, 'saturday')];
    const s = spec('America/Los_Angeles', rotations);
    // Fri 23:59 PDT = Sat 06:59Z: still Friday in Los Angeles although it is Saturday in UTC.
    expect(who(s, '2026-05-02T06:59:00Z')).toEqual({ primary: 'friday', secondary: null, endsAt: '2026-05-02T07:00:00.000Z' });
    expect(who(s, '2026-05-02T07:00:00Z').primary).toBeNull(); // Sat 12 AM: nobody
    expect(who(s, '2026-05-02T15:00:00Z').primary).toBe('saturday'); // Sat 8 AM
    expect(who(s, '2026-05-03T03:00:00Z').primary).toBeNull(); // Sat 8 PM – Sun 12 AM: nobody
    expect(who(s, '2026-05-03T07:00:00Z').primary).toBe('weekday'); // Sun 12 AM
    const tl = timeline(s, [], t('2026-05-02T07:00:00Z'), t('2026-05-03T07:00:00Z'));
    expect(tl.gaps.map((g) => g.label)).toEqual(['No one on call Sat 12 AM – 8 AM', 'No one on call Sat 8 PM – Sun 12 AM']);
  });

  it('has nobody on call before 00:00 of the start date and after 24:00 of the end date, in the schedule’s zone', () => {
    const s = spec('Europe/Berlin', everyDay(shift(0, 24, 'ann')), '2026-06-10', '2026-06-12');
    expect(coverage(s)).toEqual({ start: t('2026-06-09T22:00:00Z'), end: t('2026-06-12T22:00:00Z') });
    expect(who(s, '2026-06-09T21:59:59Z').primary).toBeNull();
    expect(who(s, '2026-06-09T22:00:00Z').primary).toBe('ann');
    expect(who(s, '2026-06-12T21:00:00Z')).toEqual({ primary: 'ann', secondary: null, endsAt: '2026-06-12T22:00:00.000Z' });
    expect(who(s, '2026-06-12T22:00:00Z').primary).toBeNull();
    // Outside the dates is not a coverage gap, only not active.
    expect(timeline(s, [], t('2026-06-08T00:00:00Z'), t('2026-06-15T00:00:00Z')).gaps).toEqual([]);
  });

  it('lets an override replace one person for its time range, the latest override winning, and cuts the shift there', () => {
    const s = spec('UTC', everyDay(shift(0, 12, 'ann', 'bob'), shift(12, 24, 'cid')));
    const ov: OverrideSpec[] = [
      { replacedUserId: 'ann', userId: 'dan', startsAt: t('2026-07-01T03:00:00Z'), endsAt: t('2026-07-01T06:00:00Z'), createdAt: '2026-06-01T00:00:00Z' },
      { replacedUserId: 'ann', userId: 'eve', startsAt: t('2026-07-01T05:00:00Z'), endsAt: t('2026-07-01T07:00:00Z'), createdAt: '2026-06-02T00:00:00Z' },
      { replacedUserId: 'bob', userId: 'fay', startsAt: t('2026-07-01T00:00:00Z'), endsAt: t('2026-07-02T00:00:00Z'), createdAt: '2026-06-03T00:00:00Z' },
    ];
    expect(who(s, '2026-07-01T02:00:00Z', ov)).toEqual({ primary: 'ann', secondary: 'fay', endsAt: '2026-07-01T03:00:00.000Z' });
    expect(who(s, '2026-07-01T04:00:00Z', ov)).toEqual({ primary: 'dan', secondary: 'fay', endsAt: '2026-07-01T05:00:00.000Z' });
    expect(who(s, '2026-07-01T05:30:00Z', ov)).toEqual({ primary: 'eve', secondary: 'fay', endsAt: '2026-07-01T06:00:00.000Z' });
    expect(who(s, '2026-07-01T08:00:00Z', ov)).toEqual({ primary: 'ann', secondary: 'fay', endsAt: '2026-07-01T12:00:00.000Z' });
    // An override of someone not on call at that time changes nothing.
    expect(who(s, '2026-07-01T13:00:00Z', ov).primary).toBe('cid');
    const p = pieces(s, ov, t('2026-07-01T00:00:00Z'), t('2026-07-01T12:00:00Z'));
    expect(p.map((x) => [iso(x.start)!.slice(11, 16), x.primary, x.primaryOverride])).toEqual([
      ['00:00', 'ann', false],
      ['03:00', 'dan', true],
      ['05:00', 'eve', true],
      ['07:00', 'ann', false],
    ]);
  });

  it('names the next handover, skipping joined stretches with the same people', () => {
    const s = spec('UTC', everyDay(shift(0, 8, 'ann'), shift(8, 16, 'ann'), shift(16, 24, 'bob')));
    expect(nextHandover(s, [], t('2026-07-01T01:00:00Z'), 8 * 86_400_000)).toEqual({ at: t('2026-07-01T16:00:00Z'), primary: 'bob', secondary: null });
    // Where the schedule ends, the next "handover" is to nobody.
    const ending = spec('UTC', everyDay(shift(0, 24, 'ann')), '2026-07-01', '2026-07-02');
    expect(nextHandover(ending, [], t('2026-07-01T01:00:00Z'), 8 * 86_400_000)).toEqual({ at: t('2026-07-03T00:00:00Z'), primary: null, secondary: null });
  });

  it('labels gaps in 12-hour format in the schedule’s zone', () => {
    expect(gapLabel('America/New_York', t('2026-01-03T05:00:00Z'), t('2026-01-03T13:00:00Z'))).toBe('No one on call Sat 12 AM – 8 AM');
    expect(gapLabel('UTC', t('2026-01-02T22:30:00Z'), t('2026-01-03T08:00:00Z'))).toBe('No one on call Fri 10:30 PM – Sat 8 AM');
    expect([0, 1, 11, 12, 13, 23, 24].map(formatHour)).toEqual(['12 AM', '1 AM', '11 AM', '12 PM', '1 PM', '11 PM', '12 AM']);
  });

  it('lists the weekly rotation’s uncovered hours, joined across midnight and around the week', () => {
    const r = everyDay(shift(0, 24, 'a'));
    expect(weeklyGaps(r)).toEqual([]);
    r['6'] = [shift(8, 24, 'a')];
    expect(weeklyGaps(r)).toEqual(['No one on call Sat 12 AM – 8 AM']);
    r['6'] = [shift(8, 20, 'a')];
    r['0'] = [shift(6, 24, 'a')];
    expect(weeklyGaps(r)).toEqual(['No one on call Sat 12 AM – 8 AM', 'No one on call Sat 8 PM – Sun 6 AM']);
  });
});

describe('schedule input (contract)', () => {
  const valid = { name: 'Nights', startTime: '2026-01-01', endTime: '2026-02-01', timeZone: 'Europe/Berlin', rotations: everyDay(shift(0, 24, 'u1')) };
  const messages = (body: unknown) => {
    const r = ScheduleInput.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('checks the spec’s rules in the spec’s order, then ours', () => {
    expect(messages({ name: ' ', startTime: '2026-13-01', endTime: 'soon', rotations: {} })[0]).toBe('name: Schedule name is required');
    expect(messages({ ...valid, startTime: '01/02/2026' })).toEqual(['startTime: Invalid date format']);
    expect(messages({ ...valid, endTime: '2026-02-30' })).toEqual(['endTime: Invalid date format']);
    expect(messages({ ...valid, endTime: '2026-01-01' })).toEqual(['endTime: End date must be after start date']);
    const { ['3']: _, ...noWednesday } = valid.rotations;
    expect(messages({ ...valid, rotations: noWednesday })).toEqual(['rotations.3: No shifts defined for Wednesday']);
    expect(messages({ ...valid, rotations: { ...valid.rotations, 1: [] } })).toEqual(['rotations.1: No shifts defined for Monday']);
    expect(messages({ ...valid, rotations: { ...valid.rotations, 6: [shift(0, 8, 'a'), { startHour: 8, endHour: 24, primaryOnCall: '' }] } })).toEqual([
      'rotations.6.1.primaryOnCall: Primary on-call is required for all shifts on Saturday',
    ]);
    expect(messages({ ...valid, rotations: { ...valid.rotations, 2: [shift(8, 8, 'a')] } })).toEqual(['rotations.2.0.endHour: Each shift on Tuesday must end after it starts']);
    expect(messages({ ...valid, rotations: { ...valid.rotations, 2: [shift(0, 10, 'a'), shift(8, 24, 'b')] } })).toEqual(['rotations.2.1.startHour: Shifts overlap on Tuesday']);
    expect(messages({ ...valid, rotations: { ...valid.rotations, 2: [shift(0, 25, 'a')] } })).toEqual(['rotations.2.0.endHour: Shift hours must be whole numbers from 0 to 24']);
    expect(messages({ ...valid, timeZone: 'Mars/Olympus' })).toEqual(['timeZone: Choose a valid time zone']);
  });

  it('adds a shift at the previous one’s end lasting 8 hours, capped at 24, and never removes a day’s last shift', () => {
    const h = (startHour: number, endHour: number) => ({ startHour, endHour });
    const make = (x: { startHour: number; endHour: number }) => x;
    expect(withNewShift([h(0, 8)], make)).toEqual([h(0, 8), h(8, 16)]);
    expect(withNewShift([h(0, 8), h(8, 20)], make)).toEqual([h(0, 8), h(8, 20), h(20, 24)]);
    // Already covered to midnight: the previous shift makes room instead of a 24–24 shift.
    expect(withNewShift([h(0, 24)], make)).toEqual([h(0, 16), h(16, 24)]);
    expect(withNewShift([h(0, 16), h(16, 24)], make)).toEqual([h(0, 16), h(16, 17), h(17, 24)]);
    expect(withNewShift([h(23, 24)], make)).toEqual([h(23, 24)]);
    expect(withoutShift([h(0, 8), h(8, 24)], 0, make)).toEqual([h(8, 24)]);
    expect(withoutShift([h(8, 16)], 0, make)).toEqual([h(0, 24)]);
  });

  it('words the failures of section 8 for schedules as the spec does for policies', () => {
    expect([SCHEDULE_MSG.createFailed, SCHEDULE_MSG.updateFailed, SCHEDULE_MSG.deleteFailed]).toEqual([
      'Failed to create schedule. Please try again.',
      'Failed to update schedule. Please try again.',
      'Failed to delete schedule. Please try again.',
    ]);
  });

  it('sorts each day’s shifts and keeps an empty secondary as null', () => {
    const r = ScheduleInput.parse({ ...valid, rotations: { ...valid.rotations, 0: [{ startHour: 8, endHour: 24, primaryOnCall: 'b', secondaryOnCall: '' }, shift(0, 8, 'a')] } });
    expect(r.rotations['0']).toEqual([shift(0, 8, 'a'), shift(8, 24, 'b')]);
  });
});
