import { WEEKDAY_KEYS } from '../../contract/schedules.ts';
import type { Agent } from './test-app.ts';

/** The URL of a tenant's on-call schedules (list and create). */
export const schedulesUrl = (tenantId: string) => `/api/tenants/${tenantId}/onCallSchedules`;

/** The URL of one schedule, or of `rest` under it (`/onCall`, `/timeline`, `/overrides`…). */
export const scheduleUrl = (tenantId: string, id: string, rest = '') => `${schedulesUrl(tenantId)}/${id}${rest}`;

export type ShiftBody = { startHour: number; endHour: number; primaryOnCall: string; secondaryOnCall?: string | null };

/** Rotations with the same shifts on each of the seven weekdays. */
export const everyDay = (...shifts: ShiftBody[]) => Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, shifts]));

/** A valid schedule body for 2026 in New York with `primary` on call all day every day; `extra` replaces fields. */
export const scheduleBody = (primary: string, extra: Record<string, unknown> = {}) => ({
  name: 'Follow the sun',
  description: 'Nights and days',
  startTime: '2026-01-01',
  endTime: '2026-12-31',
  timeZone: 'America/New_York',
  rotations: everyDay({ startHour: 0, endHour: 24, primaryOnCall: primary, secondaryOnCall: null }),
  ...extra,
});

/** Creates a schedule through the API and returns it (throws unless 201). */
export async function createSchedule(agent: Agent, tenantId: string, body: Record<string, unknown>) {
  const res = await agent.post(schedulesUrl(tenantId), body);
  if (res.statusCode !== 201) throw new Error(`createSchedule failed: ${res.statusCode} ${res.body}`);
  return res.data;
}
