import { PSA_DEFAULT_PRIORITIES, type ConnectWiseSettings, type PsaCompany } from '../../../contract/psa.ts';
import { noteBody, type AdapterInput, type PsaAdapter, type TicketRef } from './psa-adapter.ts';
import { PsaError, type PsaRequest } from './psa-http.ts';

/**
 * ConnectWise PSA (Manage) REST API 3.0: `{siteUrl}/{codebase}apis/3.0`, Basic auth `{companyId}+{publicKey}:{privateKey}`
 * and the `clientId` header on every call. Our reference goes in the ticket's `externalXRef`, found again with
 * `conditions=externalXRef="…"`. ConnectWise's cloud sites (`*.myconnectwise.net`) move the codebase with each
 * release: it is read from `/login/companyinfo/{companyId}` there; other sites use `v4_6_release/`.
 */
export function connectWise({ settings, call }: AdapterInput): PsaAdapter {
  const s = settings as ConnectWiseSettings & { privateKey: string; clientId: string };
  const auth = `Basic ${Buffer.from(`${s.companyId}+${s.publicKey}:${s.privateKey}`).toString('base64')}`;
  const headers = { authorization: auth, clientId: s.clientId };
  let codebase: string | null = null;

  async function base() {
    if (codebase === null) {
      codebase = 'v4_6_release/';
      if (new URL(s.siteUrl).hostname.endsWith('.myconnectwise.net')) {
        const info = await call<{ Codebase?: string }>({ method: 'GET', url: `${s.siteUrl}/login/companyinfo/${encodeURIComponent(s.companyId)}` });
        if (info?.Codebase) codebase = info.Codebase.endsWith('/') ? info.Codebase : `${info.Codebase}/`;
      }
    }
    return `${s.siteUrl}/${codebase}apis/3.0`;
  }
  const api = async <T>(method: PsaRequest['method'], path: string, body?: unknown) => call<T>({ method, url: `${await base()}${path}`, headers, body });
  const ticketUrl = (id: string) => `${s.siteUrl}/${codebase ?? 'v4_6_release/'}services/system_io/Service/fv_sr100_request.rails?service_recid=${encodeURIComponent(id)}&companyName=${encodeURIComponent(s.companyId)}`;
  const toRef = (t: { id: number }): TicketRef => ({ id: String(t.id), number: String(t.id), url: ticketUrl(String(t.id)) });
  const quote = (v: string) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const notesOf = (id: string) => `/service/tickets/${encodeURIComponent(id)}/notes`;

  return {
    async test() {
      await api('GET', '/system/info');
    },
    async listCompanies(search) {
      const conditions = search ? `name like ${quote(`%${search}%`)} and deletedFlag=false` : 'deletedFlag=false';
      const rows = await api<Array<{ id: number; identifier: string; name: string }>>('GET', `/company/companies?conditions=${encodeURIComponent(conditions)}&orderBy=name&pageSize=${search ? 50 : 1000}&fields=id,identifier,name`);
      return (rows ?? []).map((c): PsaCompany => ({ id: c.identifier, name: c.name, identifier: c.identifier }));
    },
    async createTicket(t) {
      const created = await api<{ id: number }>('POST', '/service/tickets', {
        summary: t.summary,
        recordType: 'ServiceTicket',
        board: { name: s.board },
        status: { name: s.newStatus },
        company: { identifier: t.companyId },
        priority: { name: s.priorities?.[t.priority] ?? PSA_DEFAULT_PRIORITIES.connectwise[t.priority] },
        initialDescription: t.description,
        externalXRef: t.ref,
      });
      if (!created || typeof created.id !== 'number') throw new PsaError('POST /service/tickets: no ticket id in the answer');
      return toRef(created);
    },
    async findTicket(ref) {
      const rows = await api<Array<{ id: number }>>('GET', `/service/tickets?conditions=${encodeURIComponent(`externalXRef=${quote(ref)}`)}&pageSize=1&fields=id`);
      return rows?.length ? toRef(rows[0]) : null;
    },
    async addNote(id, note) {
      await api('POST', notesOf(id), { text: noteBody(note), detailDescriptionFlag: true, internalAnalysisFlag: false });
    },
    async hasNote(id, ref) {
      // The newest notes first: a note of ours whose answer was lost is among the latest (1000 is the API's largest page).
      const rows = await api<Array<{ id: number; text?: string }>>('GET', `${notesOf(id)}?orderBy=${encodeURIComponent('id desc')}&pageSize=1000&fields=id,text`);
      return (rows ?? []).some((n) => (n.text ?? '').includes(ref));
    },
    async setStatus(id, to) {
      await api('PATCH', `/service/tickets/${encodeURIComponent(id)}`, [{ op: 'replace', path: 'status/name', value: to === 'closed' ? s.closedStatus : s.newStatus }]);
    },
    async isClosed(id) {
      const t = await api<{ status?: { name?: string }; closedFlag?: boolean }>('GET', `/service/tickets/${encodeURIComponent(id)}`);
      return t?.closedFlag === true || t?.status?.name === s.closedStatus;
    },
    async registerInbound(url) {
      const existing = await api<Array<{ id: number; url: string }>>('GET', `/system/callbacks?conditions=${encodeURIComponent(`url=${quote(url)}`)}`);
      if (existing?.length) return;
      await api('POST', '/system/callbacks', { url, objectId: 0, type: 'ticket', level: 'owner', description: 'Alertdesk: ticket changes', inactiveFlag: false });
    },
  };
}
