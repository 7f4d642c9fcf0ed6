import type { AlertPriority } from '../../../contract/alerts.ts';
import { PSA_DEFAULT_PRIORITIES, type AutotaskSettings, type PsaCompany } from '../../../contract/psa.ts';
import { noteBody, type AdapterInput, type PsaAdapter, type TicketRef } from './psa-adapter.ts';
import { PsaError, type PsaRequest } from './psa-http.ts';

/** Each API user's zone (its REST base and web URL), as the zone look-up answered it (by look-up URL and user). */
const zones = new Map<string, { url: string; webUrl: string | null }>();

/** The priority picklist labels our priorities take by default (Autotask's ids differ between instances). */
const PRIORITY_LABELS: Record<AlertPriority, string> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Low' };

type Filter = { op: string; field: string; value?: unknown };

/**
 * Autotask REST API v1.0: the user's zone from `{lookup}/v1.0/ZoneInformation?user=`, the headers `ApiIntegrationCode`,
 * `UserName` and `Secret` on every call, queries as `POST /v1.0/{Entity}/query` with a filter. Notes are the ticket's
 * children (`POST /v1.0/Tickets/{id}/Notes`), found again by `POST /v1.0/TicketNotes/query`. Priorities come from the
 * ticket fields' picklist (`/v1.0/Tickets/entityInformation/fields`) by label unless set. Our reference is a line of
 * the description (searched with `contains`). Tickets closed in Autotask are found by polling (`closedAmong`).
 */
export function autotask({ settings, call, zoneLookupUrl }: AdapterInput): PsaAdapter {
  const s = settings as AutotaskSettings & { secret: string; integrationCode: string };
  const headers = { ApiIntegrationCode: s.integrationCode, UserName: s.username, Secret: s.secret };
  const zoneKey = `${zoneLookupUrl}|${s.username}`;

  async function zone() {
    const hit = zones.get(zoneKey);
    if (hit) return hit;
    const info = await call<{ url?: string; webUrl?: string }>({ method: 'GET', url: `${(zoneLookupUrl ?? '').replace(/\/+$/, '')}/v1.0/ZoneInformation?user=${encodeURIComponent(s.username)}` });
    if (!info?.url) throw new PsaError('ZoneInformation: no zone for this user', { permanent: true });
    const found = { url: info.url.replace(/\/+$/, ''), webUrl: info.webUrl ? info.webUrl.replace(/\/+$/, '') : null };
    if (zones.size > 1000) zones.clear();
    zones.set(zoneKey, found);
    return found;
  }
  const api = async <T>(method: PsaRequest['method'], path: string, body?: unknown) => call<T>({ method, url: `${(await zone()).url}/v1.0${path}`, headers, body });
  const query = async <T>(entity: string, filter: Filter[], extra: Record<string, unknown> = {}) => (await api<{ items?: T[] }>('POST', `/${entity}/query`, { filter, ...extra }))?.items ?? [];
  const toRef = async (t: { id: number; ticketNumber?: string }): Promise<TicketRef> => {
    const web = (await zone()).webUrl;
    return { id: String(t.id), number: t.ticketNumber ?? String(t.id), url: web ? `${web}/Mvc/ServiceDesk/TicketDetail.mvc?ticketId=${t.id}` : null };
  };

  async function priorityOf(p: AlertPriority): Promise<number> {
    const set = s.priorities?.[p];
    if (set) return set;
    const info = await api<{ fields?: Array<{ name: string; picklistValues?: Array<{ value: string; label: string; isActive?: boolean }> }> }>('GET', '/Tickets/entityInformation/fields');
    const values = info?.fields?.find((f) => f.name === 'priority')?.picklistValues ?? [];
    const hit = values.find((v) => v.isActive !== false && v.label.toLowerCase() === PRIORITY_LABELS[p].toLowerCase());
    return hit ? Number(hit.value) : PSA_DEFAULT_PRIORITIES.autotask[p];
  }

  return {
    async test() {
      zones.delete(zoneKey);
      await api('GET', '/Tickets/entityInformation');
    },
    async listCompanies(search) {
      const filter = search ? [{ op: 'contains', field: 'companyName', value: search }] : [{ op: 'gte', field: 'id', value: 0 }];
      const rows = await query<{ id: number; companyName: string }>('Companies', [...filter, { op: 'eq', field: 'isActive', value: true }], { MaxRecords: search ? 50 : 500 });
      return rows.map((c): PsaCompany => ({ id: String(c.id), name: c.companyName, identifier: null }));
    },
    async createTicket(t) {
      const created = await api<{ itemId?: number }>('POST', '/Tickets', {
        companyID: Number(t.companyId),
        title: t.summary,
        description: t.description,
        status: s.newStatus,
        priority: await priorityOf(t.priority),
        queueID: s.queueId,
        // Autotask requires a due date: a day from now, for the technician's queue to order by.
        dueDateTime: new Date(Date.now() + 24 * 3600_000).toISOString(),
      });
      if (typeof created?.itemId !== 'number') throw new PsaError('POST /v1.0/Tickets: no itemId in the answer');
      const read = await api<{ item?: { id: number; ticketNumber?: string } }>('GET', `/Tickets/${created.itemId}`);
      return toRef(read?.item ?? { id: created.itemId });
    },
    async findTicket(ref) {
      const rows = await query<{ id: number; ticketNumber?: string }>('Tickets', [{ op: 'contains', field: 'description', value: ref }]);
      return rows.length ? toRef(rows[0]) : null;
    },
    async addNote(id, note) {
      // Ticket notes are created as the ticket's child (the TicketNotes entity itself only answers queries).
      await api('POST', `/Tickets/${encodeURIComponent(id)}/Notes`, { ticketID: Number(id), title: 'Alertdesk', description: noteBody(note), noteType: 1, publish: 1 });
    },
    async hasNote(id, ref) {
      const rows = await query<{ id: number }>('TicketNotes', [
        { op: 'eq', field: 'ticketID', value: Number(id) },
        { op: 'contains', field: 'description', value: ref },
      ]);
      return rows.length > 0;
    },
    async setStatus(id, to) {
      await api('PATCH', '/Tickets', { id: Number(id), status: to === 'closed' ? s.completeStatus : s.newStatus });
    },
    async isClosed(id) {
      const read = await api<{ item?: { status?: number } }>('GET', `/Tickets/${encodeURIComponent(id)}`);
      return read?.item?.status === s.completeStatus;
    },
    async registerInbound() {},
    async closedAmong(ids, since) {
      if (ids.length === 0) return [];
      const filter: Filter[] = [
        { op: 'in', field: 'id', value: ids.map(Number) },
        { op: 'eq', field: 'status', value: s.completeStatus },
      ];
      if (since) filter.push({ op: 'gt', field: 'lastActivityDate', value: since });
      return (await query<{ id: number }>('Tickets', filter)).map((t) => String(t.id));
    },
  };
}
