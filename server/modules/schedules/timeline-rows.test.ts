import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { TIMELINE_ROW_NAMES, WEEKDAY_KEYS, type Rotations, type TimelineRow } from '../../../contract/schedules.ts';
import { describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner, registerTeam } from '../../test/factories.ts';
import { everyDay, scheduleUrl, schedulesUrl } from '../../test/schedules.ts';
import type { LayerSpec } from './layers.ts';
import type { OverrideSpec, ScheduleSpec } from './oncall.ts';
import { timelineRows, type Row } from './timeline-rows.ts';

// Issue 27: "the 14-day timeline shows each layer and the final row, as PagerDuty's schedule view does".
const t = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;
const noTemplate = Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, []])) as unknown as Rotations;
const layer = (name: string, over: Partial<LayerSpec>): LayerSpec => ({ name, participants: ['ann'], start: t('2026-06-01T00:00:00Z'), unit: 'days', count: 1, restrictions: [], ...over });
const spec = (timeZone: string, layers: LayerSpec[], extra: Partial<ScheduleSpec> = {}): ScheduleSpec => ({ timeZone, startDate: '2026-01-01', endDate: '2026-12-31', rotations: noTemplate, layers, ...extra });
const override = (replacedUserId: string, userId: string, from: string, until: string): OverrideSpec => ({ replacedUserId, userId, startsAt: t(from), endsAt: t(until), createdAt: '2026-01-01T00:00:00Z' });

/** A row as text: "start…end who[/backup][ for replaced]" per stretch, in UTC. */
const text = (rows: Row[]) =>
  rows.map((r) => [r.kind, r.name, r.segments.map((s) => `${iso(s.start)}…${iso(s.end)} ${s.primary}${s.secondary ? `/${s.secondary}` : ''}${s.replaces ? ` for ${s.replaces}` : ''}`)]);
/** A row's stretches as local "ccc HH:mm–HH:mm (hours)" in `zone`. */
const local = (row: Row, zone: string) =>
  row.segments.map((s) => {
    const [a, b] = [DateTime.fromMillis(s.start, { zone }), DateTime.fromMillis(s.end, { zone })];
    return `${a.toFormat('ccc HH:mm')}–${b.toFormat('HH:mm')} ${(s.end - s.start) / 3600_000}h ${s.primary}`;
  });

describe('timeline rows: each layer, the template and the overrides (pure)', () => {
  it.each([
    {
      case: 'a weekly layer of three in Berlin: the turns inside the 14 days, nobody before the first handoff',
      s: spec('Europe/Berlin', [layer('24/7', { participants: ['ann', 'bob', 'cat'], start: t('2026-03-02T08:00:00Z'), unit: 'weeks' })]),
      from: '2026-03-01T23:00:00Z',
      want: [
        ['layer', '24/7', ['2026-03-02T08:00:00.000Z…2026-03-09T08:00:00.000Z ann', '2026-03-09T08:00:00.000Z…2026-03-15T23:00:00.000Z bob']],
        ['overrides', 'Overrides', []],
      ],
    },
    {
      case: 'a person listed twice: two turns in a row are one stretch',
      s: spec('UTC', [layer('Daily', { participants: ['ann', 'ann', 'bob'] })]),
      from: '2026-06-01T00:00:00Z',
      want: [
        [
          'layer',
          'Daily',
          [
            '2026-06-01T00:00:00.000Z…2026-06-03T00:00:00.000Z ann',
            '2026-06-03T00:00:00.000Z…2026-06-04T00:00:00.000Z bob',
            '2026-06-04T00:00:00.000Z…2026-06-06T00:00:00.000Z ann',
            '2026-06-06T00:00:00.000Z…2026-06-07T00:00:00.000Z bob',
            '2026-06-07T00:00:00.000Z…2026-06-09T00:00:00.000Z ann',
            '2026-06-09T00:00:00.000Z…2026-06-10T00:00:00.000Z bob',
            '2026-06-10T00:00:00.000Z…2026-06-12T00:00:00.000Z ann',
            '2026-06-12T00:00:00.000Z…2026-06-13T00:00:00.000Z bob',
            '2026-06-13T00:00:00.000Z…2026-06-15T00:00:00.000Z ann',
          ],
        ],
        ['overrides', 'Overrides', []],
      ],
    },
    {
      case: 'layers highest first, a layer starting in the future, the template with its backup, all cut at the end date; overrides clipped to the 14 days',
      s: spec('UTC', [layer('Daily', { participants: ['p', 'q'] }), layer('Later', { participants: ['z'], start: t('2026-06-05T00:00:00Z'), unit: 'weeks' })], {
        endDate: '2026-06-10',
        rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: 't', secondaryOnCall: 'b' }) as unknown as Rotations,
      }),
      overrides: [
        override('p', 's', '2026-06-14T12:00:00Z', '2026-06-16T00:00:00Z'),
        override('z', 'o', '2026-05-30T00:00:00Z', '2026-06-02T00:00:00Z'),
        override('q', 'r', '2026-06-20T00:00:00Z', '2026-06-21T00:00:00Z'),
      ],
      from: '2026-06-01T00:00:00Z',
      want: [
        ['layer', 'Later', ['2026-06-05T00:00:00.000Z…2026-06-11T00:00:00.000Z z']],
        ['layer', 'Daily', Array.from({ length: 10 }, (_, i) => `${iso(t('2026-06-01T00:00:00Z') + i * DAY)}…${iso(t('2026-06-02T00:00:00Z') + i * DAY)} ${i % 2 ? 'q' : 'p'}`)],
        ['template', TIMELINE_ROW_NAMES.template, ['2026-06-01T00:00:00.000Z…2026-06-11T00:00:00.000Z t/b']],
        ['overrides', 'Overrides', ['2026-06-01T00:00:00.000Z…2026-06-02T00:00:00.000Z o for z', '2026-06-14T12:00:00.000Z…2026-06-15T00:00:00.000Z s for p']],
      ],
    },
  ])('$case', ({ s, overrides, from, want }) => {
    expect(text(timelineRows(s, overrides ?? [], t(from), t(from) + 14 * DAY))).toEqual(want);
  });

  it('keeps office hours 09–17 Berlin time on weekdays across the change to summer time (29 March 2026)', () => {
    const office = layer('Office', { participants: ['ann', 'bob'], start: t('2026-03-02T08:00:00Z'), unit: 'weeks', restrictions: [{ days: [1, 2, 3, 4, 5], from: 9 * 60, to: 17 * 60 }] });
    const from = t('2026-03-25T23:00:00Z'); // Thursday 26 March, 00:00 CET
    const to = DateTime.fromMillis(from, { zone: 'Europe/Berlin' }).plus({ days: 14 }).toMillis();
    const [row] = timelineRows(spec('Europe/Berlin', [office]), [], from, to);
    expect(local(row, 'Europe/Berlin')).toEqual([
      'Thu 09:00–17:00 8h bob',
      'Fri 09:00–17:00 8h bob',
      ...['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].map((d) => `${d} 09:00–17:00 8h ann`),
      ...['Mon', 'Tue', 'Wed'].map((d) => `${d} 09:00–17:00 8h bob`),
    ]);
  });

  it('ends a night window at 06:00 on the nights the clocks change (Berlin, 29 March and 25 October 2026)', () => {
    const nights = layer('Weekend nights', { participants: ['ann'], start: t('2026-03-01T00:00:00Z'), unit: 'weeks', restrictions: [{ days: [6], from: 22 * 60, to: 6 * 60 }] });
    for (const [from, hours] of [
      ['2026-03-27T23:00:00Z', 7],
      ['2026-10-23T22:00:00Z', 9],
    ] as const) {
      const [row] = timelineRows(spec('Europe/Berlin', [nights]), [], t(from), t(from) + 3 * DAY);
      expect(local(row, 'Europe/Berlin')).toEqual([`Sat 22:00–06:00 ${hours}h ann`]);
    }
  });

  it('hands a daily pager over at 07:00 New York time on both sides of the change (8 March 2026: a 23-hour turn)', () => {
    const daily = layer('Daily', { participants: ['x', 'y'], start: t('2026-03-06T12:00:00Z') });
    const from = t('2026-03-06T05:00:00Z'); // Friday 6 March, 00:00 EST: the layer starts later that day
    const [row] = timelineRows(spec('America/New_York', [daily]), [], from, DateTime.fromMillis(from, { zone: 'America/New_York' }).plus({ days: 4 }).toMillis());
    expect(local(row, 'America/New_York')).toEqual(['Fri 07:00–07:00 24h x', 'Sat 07:00–07:00 23h y', 'Sun 07:00–07:00 24h x', 'Mon 07:00–00:00 17h y']);
  });
});

describeEachDatabase('the timeline’s rows through the API', (env) => {
  it('answers each layer, the weekday template and the overrides beside the final schedule, to every member; another tenant gets 404', async () => {
    const { owner, admin, user, tenantId } = await registerTeam(env());
    const body = {
      name: 'Layered',
      startTime: '2026-01-01',
      endTime: null,
      timeZone: 'Europe/Berlin',
      rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: owner.userId, secondaryOnCall: admin.userId }),
      layers: [
        { name: 'Weekly', participants: [admin.userId, user.userId], start: '2026-03-02T09:00:00+01:00', shiftLength: { unit: 'weeks', count: 1 } },
        { name: 'Office hours', participants: [user.userId], start: '2026-03-02T09:00:00+01:00', shiftLength: { unit: 'days', count: 1 }, restrictions: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }] },
      ],
    };
    const created = await owner.agent.post(schedulesUrl(tenantId), body);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.data.id as string;
    const ov = await owner.agent.post(scheduleUrl(tenantId, id, '/overrides'), { replacedUserId: admin.userId, userId: owner.userId, startsAt: '2026-03-03T18:00:00Z', endsAt: '2026-03-04T06:00:00Z' });
    expect(ov.statusCode, ov.body).toBe(201);

    const res = await user.agent.get(`${scheduleUrl(tenantId, id, '/timeline')}?from=${encodeURIComponent('2026-03-02T00:00:00+01:00')}`);
    expect(res.statusCode).toBe(200);
    const rows = res.data.rows as TimelineRow[];
    expect(rows.map((r) => [r.kind, r.name])).toEqual([
      ['layer', 'Office hours'],
      ['layer', 'Weekly'],
      ['template', 'Weekly shifts'],
      ['overrides', 'Overrides'],
    ]);
    // Office hours: the ten weekdays of the fortnight, 09:00–17:00 CET; the weekly layer: admin, then the user.
    expect(rows[0].segments).toHaveLength(10);
    expect(rows[0].segments[0]).toEqual({ start: '2026-03-02T08:00:00.000Z', end: '2026-03-02T16:00:00.000Z', primary: user.userId, secondary: null, replaces: null });
    expect(rows[1].segments.map((s) => [s.start, s.end, s.primary])).toEqual([
      ['2026-03-02T08:00:00.000Z', '2026-03-09T08:00:00.000Z', admin.userId],
      ['2026-03-09T08:00:00.000Z', '2026-03-15T23:00:00.000Z', user.userId],
    ]);
    expect(rows[2].segments).toEqual([{ start: '2026-03-01T23:00:00.000Z', end: '2026-03-15T23:00:00.000Z', primary: owner.userId, secondary: admin.userId, replaces: null }]);
    expect(rows[3].segments).toEqual([{ start: '2026-03-03T18:00:00.000Z', end: '2026-03-04T06:00:00.000Z', primary: owner.userId, secondary: null, replaces: admin.userId }]);
    // The final row: the template before the first handoff, office hours on top, the override in the weekly layer's place.
    const final = (res.data.segments as Array<{ start: string; end: string; primary: string; primaryOverride: boolean }>).filter((s) => s.start < '2026-03-04T08:00:00.000Z');
    expect(final.map((s) => [s.start, s.end, s.primary, s.primaryOverride])).toEqual([
      ['2026-03-01T23:00:00.000Z', '2026-03-02T08:00:00.000Z', owner.userId, false],
      ['2026-03-02T08:00:00.000Z', '2026-03-02T16:00:00.000Z', user.userId, false],
      ['2026-03-02T16:00:00.000Z', '2026-03-03T08:00:00.000Z', admin.userId, false],
      ['2026-03-03T08:00:00.000Z', '2026-03-03T16:00:00.000Z', user.userId, false],
      ['2026-03-03T16:00:00.000Z', '2026-03-03T18:00:00.000Z', admin.userId, false],
      ['2026-03-03T18:00:00.000Z', '2026-03-04T06:00:00.000Z', owner.userId, true],
      ['2026-03-04T06:00:00.000Z', '2026-03-04T08:00:00.000Z', admin.userId, false],
    ]);

    // A schedule of the template alone: its row and the overrides row, no layers.
    const plain = await owner.agent.post(schedulesUrl(tenantId), { ...body, name: 'Plain', layers: [] });
    const plainRows = (await owner.agent.get(scheduleUrl(tenantId, plain.data.id, '/timeline'))).data.rows as TimelineRow[];
    expect(plainRows.map((r) => r.kind)).toEqual(['template', 'overrides']);

    // Another tenant's schedule is not found; a bad `from` is refused naming the field.
    const stranger = await registerOwner(env().app, { name: 'Other Owner' });
    expect((await stranger.agent.get(scheduleUrl(stranger.tenantId, id, '/timeline'))).statusCode).toBe(404);
    const bad = await user.agent.get(`${scheduleUrl(tenantId, id, '/timeline')}?from=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.data.error.fields)).toEqual(['from']);
  });
});
