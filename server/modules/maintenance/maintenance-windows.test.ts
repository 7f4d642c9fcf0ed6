import { describe, expect, it } from 'vitest';
import { MaintenanceCalendar, nextOccurrence, occurrenceAt, windowState, type WindowSpec } from './maintenance-windows.ts';

const base: WindowSpec = { id: 'w', name: 'W', kind: 'weekly', startsAt: null, endsAt: null, days: [], from: null, to: null, timeZone: null, until: null, clientIds: [], integrationIds: [], endedAt: null };
const t = (s: string) => Date.parse(s);
const iso = (o: { start: number; end: number } | null) => (o ? [new Date(o.start).toISOString(), new Date(o.end).toISOString()] : null);

describe('maintenance window evaluation', () => {
  // Sundays 01:00–03:00 in Berlin: CET (UTC+1) in winter, CEST (UTC+2) from the last Sunday of March.
  const sunday: WindowSpec = { ...base, days: [0], from: '01:00', to: '03:00', timeZone: 'Europe/Berlin' };

  it('keeps the wall-clock hours of a weekly window across a DST change', () => {
    // 2026-03-22 (winter): 00:00–02:00 UTC. 2026-03-29 (DST starts at 02:00): 01:00 CET → 03:00 CEST = 00:00–01:00 UTC.
    expect(iso(occurrenceAt(sunday, t('2026-03-22T01:30:00Z')))).toEqual(['2026-03-22T00:00:00.000Z', '2026-03-22T02:00:00.000Z']);
    expect(iso(occurrenceAt(sunday, t('2026-03-29T00:30:00Z')))).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z']);
    expect(occurrenceAt(sunday, t('2026-03-29T01:30:00Z'))).toBeNull();
    // 2026-04-05 (summer): 23:00–01:00 UTC the evening before.
    expect(iso(occurrenceAt(sunday, t('2026-04-04T23:30:00Z')))).toEqual(['2026-04-04T23:00:00.000Z', '2026-04-05T01:00:00.000Z']);
    expect(iso(nextOccurrence(sunday, t('2026-03-29T02:00:00Z')))).toEqual(['2026-04-04T23:00:00.000Z', '2026-04-05T01:00:00.000Z']);
    // Autumn (2026-10-25, 03:00 CEST → 02:00 CET): 01:00 CEST–03:00 CET = 23:00–02:00 UTC, three hours.
    expect(iso(occurrenceAt(sunday, t('2026-10-25T01:30:00Z')))).toEqual(['2026-10-24T23:00:00.000Z', '2026-10-25T02:00:00.000Z']);
  });

  it('runs an overnight window into the next day, stops at its last day, and "end now" ends one occurrence only', () => {
    const nightly: WindowSpec = { ...base, days: [5], from: '22:00', to: '02:00', timeZone: 'UTC' };
    // Friday 2026-03-06 22:00 → Saturday 02:00.
    expect(iso(occurrenceAt(nightly, t('2026-03-07T01:00:00Z')))).toEqual(['2026-03-06T22:00:00.000Z', '2026-03-07T02:00:00.000Z']);
    expect(occurrenceAt(nightly, t('2026-03-07T22:30:00Z'))).toBeNull();
    const ended = { ...nightly, endedAt: '2026-03-06T23:00:00.000Z' };
    expect(occurrenceAt(ended, t('2026-03-07T01:00:00Z'))).toBeNull();
    expect(iso(occurrenceAt(ended, t('2026-03-13T23:00:00Z')))).toEqual(['2026-03-13T22:00:00.000Z', '2026-03-14T02:00:00.000Z']);
    const bounded = { ...nightly, until: '2026-03-10T00:00:00.000Z' };
    expect(occurrenceAt(bounded, t('2026-03-13T23:00:00Z'))).toBeNull();
    expect(windowState(bounded, t('2026-03-12T00:00:00Z')).state).toBe('ended');
  });

  it('evaluates one-off windows and their scope; the calendar holds an alert until the latest covering end', () => {
    const one: WindowSpec = { ...base, id: 'a', kind: 'one_off', startsAt: '2026-03-01T10:00:00Z', endsAt: '2026-03-01T12:00:00Z', clientIds: ['c1'] };
    const whole: WindowSpec = { ...base, id: 'b', kind: 'one_off', startsAt: '2026-03-01T11:00:00Z', endsAt: '2026-03-01T11:30:00Z' };
    expect(windowState(one, t('2026-03-01T09:00:00Z')).state).toBe('scheduled');
    expect(windowState(one, t('2026-03-01T10:00:00Z')).state).toBe('active');
    expect(windowState(one, t('2026-03-01T12:00:00Z')).state).toBe('ended');
    expect(windowState({ ...one, endedAt: '2026-03-01T10:30:00Z' }, t('2026-03-01T10:45:00Z')).state).toBe('ended');
    const cal = new MaintenanceCalendar([one, whole]);
    const c1 = { client_id: 'c1', integration_id: 'i1' };
    const c2 = { client_id: 'c2', integration_id: 'i1' };
    expect(cal.holdFor(c1, t('2026-03-01T09:59:59Z'))).toBeNull();
    expect(cal.holdFor(c1, t('2026-03-01T10:00:00Z'))).toEqual({ windowId: 'a', until: t('2026-03-01T12:00:00Z') });
    expect(cal.holdFor(c2, t('2026-03-01T10:30:00Z'))).toBeNull();
    expect(cal.holdFor(c2, t('2026-03-01T11:10:00Z'))).toEqual({ windowId: 'b', until: t('2026-03-01T11:30:00Z') });
    expect(cal.holdFor(c1, t('2026-03-01T11:10:00Z'))).toEqual({ windowId: 'a', until: t('2026-03-01T12:00:00Z') });
    expect(cal.holdFor(c2, t('2026-03-01T11:30:00Z'))).toBeNull();
    expect(cal.holdFor({ client_id: null, integration_id: 'i9' }, t('2026-03-01T11:40:00Z'))).toBeNull();
    const byIntegration = new MaintenanceCalendar([{ ...one, clientIds: [], integrationIds: ['i1'] }]);
    expect(byIntegration.holdFor(c2, t('2026-03-01T10:30:00Z'))?.windowId).toBe('a');
  });
});
