import { MAINTENANCE_MSG, WEEKDAY_LABELS, type MaintenanceWindow } from '../../../../../contract/maintenance.ts';
import { formatDateTime } from '../../../lib/dates.ts';

/** When a window is on, in words: "Mar 8, 2026, 10:00 PM → Mar 9, 2026, 2:00 AM", or "Sun, Sat 22:00–02:00 (Europe/Berlin)". */
export function describeWhen(w: MaintenanceWindow): string {
  if (!w.recurrence) return `${formatDateTime(w.start)} → ${formatDateTime(w.end)}`;
  const r = w.recurrence;
  const days = r.days.length === 7 ? 'Every day' : r.days.map((d) => WEEKDAY_LABELS[d]).join(', ');
  const until = w.until ? `, until ${formatDateTime(w.until)}` : '';
  return `${days} ${r.from}–${r.to} (${r.timeZone})${r.to <= r.from ? ', into the next day' : ''}${until}`;
}

/** What a window covers, by name: "All clients and integrations", or "Clients: Acme · Integrations: Zabbix". */
export function describeScope(w: MaintenanceWindow, clients: Map<string, string>, integrations: Map<string, string>): string {
  const { clientIds, integrationIds } = w.scope;
  if (clientIds.length === 0 && integrationIds.length === 0) return MAINTENANCE_MSG.wholeTenant;
  const names = (ids: string[], known: Map<string, string>) => ids.map((id) => known.get(id) ?? 'Unknown').join(', ');
  const parts: string[] = [];
  if (clientIds.length) parts.push(`Clients: ${names(clientIds, clients)}`);
  if (integrationIds.length) parts.push(`Integrations: ${names(integrationIds, integrations)}`);
  return parts.join(' · ');
}

/** A stored time as a `datetime-local` input shows it (the viewer's zone), and back. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The zones the browser knows, for the weekly window's zone picker. */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
