import { PSA_DEFAULT_PRIORITIES, type HaloPsaSettings, type PsaCompany } from '../../../contract/psa.ts';
import { noteBody, type AdapterInput, type PsaAdapter, type TicketRef } from './psa-adapter.ts';
import { PsaError, type PsaRequest } from './psa-http.ts';

/** Access tokens by connection settings (base URL + client id), kept until a minute before they expire. */
const tokens = new Map<string, { token: string; until: number }>();

/**
 * HaloPSA: a bearer token by client credentials at `{baseUrl}/auth/token` (scope `all`); tickets are created and
 * updated by `POST {baseUrl}/api/Tickets` with a JSON array (an `id` makes it an update); notes are actions
 * (`POST /api/Actions`, listed by `GET /api/Actions?ticket_id=`). Our reference is the ticket's `third_party_id`,
 * searched with `GET /api/Tickets?search=`.
 * Ticket changes come to our signed URL through a HaloPSA webhook the MSP sets up (no API to register one).
 */
export function haloPsa({ settings, call }: AdapterInput): PsaAdapter {
  const s = settings as HaloPsaSettings & { clientSecret: string };
  const cacheKey = `${s.baseUrl}|${s.clientId}`;

  async function token(): Promise<string> {
    const hit = tokens.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.token;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret, scope: 'all' });
    const answer = await call<{ access_token?: string; expires_in?: number }>({ method: 'POST', url: `${s.baseUrl}/auth/token`, body: form });
    if (!answer?.access_token) throw new PsaError('POST /auth/token: no access token in the answer', { permanent: true });
    if (tokens.size > 1000) tokens.clear();
    tokens.set(cacheKey, { token: answer.access_token, until: Date.now() + Math.max(0, (answer.expires_in ?? 3600) - 60) * 1000 });
    return answer.access_token;
  }
  const api = async <T>(method: PsaRequest['method'], path: string, body?: unknown) => {
    try {
      return await call<T>({ method, url: `${s.baseUrl}/api${path}`, headers: { authorization: `Bearer ${await token()}` }, body });
    } catch (err) {
      // A token revoked before its time: forget it, the retry asks for a new one.
      if (err instanceof PsaError && err.opts.status === 401) tokens.delete(cacheKey);
      throw err;
    }
  };
  const toRef = (t: { id: number }): TicketRef => ({ id: String(t.id), number: String(t.id), url: `${s.baseUrl}/ticket?id=${t.id}` });

  return {
    async test() {
      tokens.delete(cacheKey);
      await api('GET', '/TicketType?count=1');
    },
    async listCompanies(search) {
      const answer = await api<{ clients?: Array<{ id: number; name: string }> }>('GET', `/Client?count=${search ? 50 : 1000}${search ? `&search=${encodeURIComponent(search)}` : ''}`);
      return (answer?.clients ?? []).map((c): PsaCompany => ({ id: String(c.id), name: c.name, identifier: null }));
    },
    async createTicket(t) {
      const created = await api<{ id: number } | Array<{ id: number }>>('POST', '/Tickets', [
        {
          summary: t.summary,
          details: t.description,
          tickettype_id: s.ticketTypeId,
          client_id: Number(t.companyId),
          status_id: s.newStatusId,
          priority_id: s.priorities?.[t.priority] ?? PSA_DEFAULT_PRIORITIES.halopsa[t.priority],
          third_party_id: t.ref,
        },
      ]);
      const one = Array.isArray(created) ? created[0] : created;
      if (!one || typeof one.id !== 'number') throw new PsaError('POST /api/Tickets: no ticket id in the answer');
      return toRef(one);
    },
    async findTicket(ref) {
      const answer = await api<{ tickets?: Array<{ id: number; third_party_id?: string }> }>('GET', `/Tickets?search=${encodeURIComponent(ref)}&count=5`);
      const hit = (answer?.tickets ?? []).find((t) => t.third_party_id === ref);
      return hit ? toRef(hit) : null;
    },
    async addNote(id, note) {
      await api('POST', '/Actions', [{ ticket_id: Number(id), note: noteBody(note), outcome: 'Alertdesk', hiddenfromuser: true }]);
    },
    async hasNote(id, ref) {
      // The ticket's actions, the system's own left out (a status change is one).
      const answer = await api<{ actions?: Array<{ id: number; note?: string }> }>('GET', `/Actions?ticket_id=${encodeURIComponent(id)}&excludesys=true&count=1000`);
      return (answer?.actions ?? []).some((a) => (a.note ?? '').includes(ref));
    },
    async setStatus(id, to) {
      await api('POST', '/Tickets', [{ id: Number(id), status_id: to === 'closed' ? s.closedStatusId : s.newStatusId }]);
    },
    async isClosed(id) {
      const t = await api<{ status_id?: number }>('GET', `/Tickets/${encodeURIComponent(id)}`);
      return t?.status_id === s.closedStatusId;
    },
    async registerInbound() {},
  };
}
