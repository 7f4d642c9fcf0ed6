import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a stand-in does with the next ticket creation: fail with 500, or act and then cut the connection or never
 * answer (a lost answer, a timeout).
 */
export type Mishap = 'fail' | 'drop' | 'hang';

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

async function listen(handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** The mishaps of a stand-in, per kind of call, each applied to the next such call in order. */
function mishapQueues() {
  return { notes: [] as Mishap[], statuses: [] as Mishap[] };
}

/**
 * A call under a mishap: 'fail' answers 500 without acting; 'drop' and 'hang' act, then cut the connection or never
 * answer (the PSA did it, the caller cannot know); none acts and answers.
 */
function withMishap(res: http.ServerResponse, mishap: Mishap | undefined, failure: unknown, act: () => [number, unknown]) {
  if (mishap === 'fail') return json(res, 500, failure);
  const [status, body] = act();
  if (mishap === 'drop') return res.socket?.destroy();
  if (mishap === 'hang') return;
  json(res, status, body);
}

/**
 * ConnectWise PSA's REST API 3.0 as its documentation describes it, for the tests: Basic auth
 * `companyId+publicKey:privateKey` and the clientId header on every call (401 otherwise), tickets, notes, JSON Patch of
 * the status, search by `conditions`, a ticket's notes listed, callbacks. `mishaps` are applied to the next POST
 * /service/tickets in order, `noteMishaps` to the next notes, `statusMishaps` to the next status changes (PATCH).
 */
export async function connectWiseStandIn(creds: { companyId: string; publicKey: string; privateKey: string; clientId: string }) {
  const seen: Seen[] = [];
  const tickets = new Map<number, { id: number; summary: string; externalXRef?: string; status: { name: string }; company: { identifier: string }; priority: { name: string }; board: { name: string }; notes: string[] }>();
  const callbacks: Array<Record<string, unknown>> = [];
  const mishaps: Mishap[] = [];
  const later = mishapQueues();
  const statusChanges: Array<{ id: number; status: string }> = [];
  let nextId = 1000;
  const auth = `Basic ${Buffer.from(`${creds.companyId}+${creds.publicKey}:${creds.privateKey}`).toString('base64')}`;
  const server = await listen((req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw ? JSON.parse(raw) : null;
    const prefix = '/v4_6_release/apis/3.0';
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    // Echoes the clientId it was given, as some sites' error pages do: it must not reach an answer of ours.
    if (req.headers.authorization !== auth || req.headers.clientid !== creds.clientId) return json(res, 401, { code: 'Unauthorized', message: `Authentication failed for clientId ${String(req.headers.clientid)}` });
    if (!url.pathname.startsWith(prefix)) return json(res, 404, { code: 'NotFound' });
    const path = url.pathname.slice(prefix.length);
    const conditions = url.searchParams.get('conditions') ?? '';
    if (req.method === 'GET' && path === '/system/info') return json(res, 200, { version: 'v2025.1', isCloud: false });
    if (req.method === 'GET' && path === '/company/companies')
      return json(res, 200, [
        { id: 1, identifier: 'AcmeCorp', name: 'Acme Corporation' },
        { id: 2, identifier: 'Globex', name: 'Globex Inc.' },
        { id: 3, identifier: 'Catchall', name: 'Unassigned alerts' },
      ]);
    if (req.method === 'POST' && path === '/service/tickets') {
      const mishap = mishaps.shift();
      if (mishap === 'fail') return json(res, 500, { code: 'InternalError', message: 'down for maintenance' });
      if (body?.board?.name === 'Nope') return json(res, 400, { code: 'InvalidObject', message: 'Board not found', errors: [{ field: 'board' }] });
      if (!body?.summary || body.summary.length > 100 || body.recordType !== 'ServiceTicket' || !body.board?.name || !body.company?.identifier) return json(res, 400, { code: 'InvalidObject' });
      const t = { ...body, id: nextId++, notes: [] };
      tickets.set(t.id, t);
      if (mishap === 'drop') return res.socket?.destroy();
      if (mishap === 'hang') return;
      return json(res, 201, t);
    }
    if (req.method === 'GET' && path === '/service/tickets') {
      const ref = /^externalXRef="(.*)"$/.exec(conditions)?.[1];
      return json(res, 200, [...tickets.values()].filter((t) => ref !== undefined && t.externalXRef === ref).map((t) => ({ id: t.id })));
    }
    const m = /^\/service\/tickets\/(\d+)(\/notes)?$/.exec(path);
    const ticket = m ? tickets.get(Number(m[1])) : undefined;
    if (m && !ticket) return json(res, 404, { code: 'NotFound' });
    if (ticket && m?.[2] && req.method === 'POST') {
      if (typeof body?.text !== 'string' || !body.text) return json(res, 400, { code: 'InvalidObject', errors: [{ field: 'text' }] });
      return withMishap(res, later.notes.shift(), { code: 'InternalError' }, () => {
        ticket.notes.push(body.text);
        return [201, { id: ticket.notes.length, ticketId: ticket.id, text: body.text }];
      });
    }
    if (ticket && m?.[2] && req.method === 'GET') {
      // The ticket's notes, in the order asked for (`orderBy=id desc`), one page of at most 1000.
      const pageSize = Number(url.searchParams.get('pageSize') ?? 25);
      if (!(pageSize >= 1 && pageSize <= 1000)) return json(res, 400, { code: 'InvalidObject', message: 'pageSize must be 1 to 1000' });
      const notes = ticket.notes.map((text, i) => ({ id: i + 1, ticketId: ticket.id, text }));
      if (url.searchParams.get('orderBy') === 'id desc') notes.reverse();
      return json(res, 200, notes.slice(0, pageSize));
    }
    if (ticket && req.method === 'GET') return json(res, 200, { ...ticket, closedFlag: ticket.status.name === 'Closed' });
    if (ticket && req.method === 'PATCH') {
      return withMishap(res, later.statuses.shift(), { code: 'InternalError' }, () => {
        for (const op of body as Array<{ op: string; path: string; value: string }>) if (op.op === 'replace' && op.path === 'status/name') ticket.status = { name: op.value };
        statusChanges.push({ id: ticket.id, status: ticket.status.name });
        return [200, ticket];
      });
    }
    if (path === '/system/callbacks' && req.method === 'GET') return json(res, 200, callbacks);
    if (path === '/system/callbacks' && req.method === 'POST') {
      callbacks.push({ ...body, id: callbacks.length + 1 });
      return json(res, 201, callbacks[callbacks.length - 1]);
    }
    json(res, 404, { code: 'NotFound' });
  });
  return { ...server, siteUrl: server.url, seen, tickets, callbacks, mishaps, noteMishaps: later.notes, statusMishaps: later.statuses, statusChanges };
}

/**
 * HaloPSA's API as documented: a token by client credentials at /auth/token, tickets created and updated by POST
 * /api/Tickets with a JSON array, notes as POST /api/Actions and listed by GET /api/Actions?ticket_id=, clients at
 * /api/Client (401 without the bearer token).
 */
export async function haloStandIn(creds: { clientId: string; clientSecret: string }) {
  const seen: Seen[] = [];
  const tickets = new Map<number, Record<string, any> & { id: number; actions: string[] }>();
  const mishaps: Mishap[] = [];
  const later = mishapQueues();
  const statusChanges: Array<{ id: number; status: number }> = [];
  let nextId = 500;
  const token = 'halo-token-1';
  const server = await listen((req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const isForm = req.headers['content-type'] === 'application/x-www-form-urlencoded';
    const body = raw ? (isForm ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw)) : null;
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    if (url.pathname === '/auth/token' && req.method === 'POST') {
      if (!isForm || body.grant_type !== 'client_credentials' || body.client_id !== creds.clientId || body.client_secret !== creds.clientSecret) return json(res, 401, { error: 'invalid_client' });
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (req.headers.authorization !== `Bearer ${token}`) return json(res, 401, { error: 'unauthorized' });
    if (url.pathname === '/api/TicketType') return json(res, 200, [{ id: 1, name: 'Incident' }]);
    if (url.pathname === '/api/Client') return json(res, 200, { record_count: 1, clients: [{ id: 12, name: 'Acme Corporation' }] });
    if (url.pathname === '/api/Tickets' && req.method === 'POST') {
      if (!Array.isArray(body) || body.length !== 1) return json(res, 400, 'expected an array');
      const item = body[0];
      if (item.id) {
        const t = tickets.get(item.id);
        if (!t) return json(res, 404, 'no ticket');
        const mishap = item.status_id !== undefined ? later.statuses.shift() : undefined;
        return withMishap(res, mishap, 'error', () => {
          Object.assign(t, item);
          if (item.status_id !== undefined) statusChanges.push({ id: t.id, status: item.status_id });
          return [201, t];
        });
      }
      const mishap = mishaps.shift();
      if (mishap === 'fail') return json(res, 500, 'error');
      const t = { ...item, id: nextId++, actions: [] };
      tickets.set(t.id, t);
      if (mishap === 'drop') return res.socket?.destroy();
      if (mishap === 'hang') return;
      return json(res, 201, t);
    }
    if (url.pathname === '/api/Tickets' && req.method === 'GET') {
      const search = url.searchParams.get('search') ?? '';
      return json(res, 200, { record_count: 0, tickets: [...tickets.values()].filter((t) => String(t.third_party_id ?? '').includes(search) || String(t.details ?? '').includes(search)) });
    }
    const m = /^\/api\/Tickets\/(\d+)$/.exec(url.pathname);
    if (m && req.method === 'GET') return tickets.has(Number(m[1])) ? json(res, 200, tickets.get(Number(m[1]))) : json(res, 404, 'no ticket');
    if (url.pathname === '/api/Actions' && req.method === 'POST') {
      if (!Array.isArray(body) || body.length !== 1) return json(res, 400, 'expected an array');
      const t = tickets.get(body[0].ticket_id);
      if (!t) return json(res, 404, 'no ticket');
      return withMishap(res, later.notes.shift(), 'error', () => {
        t.actions.push(body[0].note);
        return [201, { id: t.actions.length, ticket_id: t.id, note: body[0].note }];
      });
    }
    if (url.pathname === '/api/Actions' && req.method === 'GET') {
      // A ticket's actions (ticket_id is required; count caps the list).
      const t = tickets.get(Number(url.searchParams.get('ticket_id')));
      if (!t) return json(res, 400, 'ticket_id is required');
      const actions = t.actions.map((note, i) => ({ id: i + 1, ticket_id: t.id, note, outcome: 'Alertdesk' }));
      return json(res, 200, { record_count: actions.length, actions: actions.slice(0, Number(url.searchParams.get('count') ?? 50)) });
    }
    json(res, 404, 'not found');
  });
  return { ...server, baseUrl: server.url, seen, tickets, mishaps, noteMishaps: later.notes, statusMishaps: later.statuses, statusChanges };
}

/**
 * Autotask's REST API v1.0 as documented: the zone look-up, the ApiIntegrationCode/UserName/Secret headers on every
 * zone call (401 otherwise), tickets created with POST and updated with PATCH (`{ id, … }`), queries as POST
 * `/{Entity}/query` with a filter (eq, in, gt, contains), ticket notes (created under the ticket, queried as
 * TicketNotes), the ticket fields' picklists.
 */
export async function autotaskStandIn(creds: { username: string; secret: string; integrationCode: string }) {
  const seen: Seen[] = [];
  const tickets = new Map<number, Record<string, any> & { id: number; notes: string[] }>();
  const mishaps: Mishap[] = [];
  const later = mishapQueues();
  const statusChanges: Array<{ id: number; status: number }> = [];
  let nextId = 7000;
  const zonePath = '/zone1/ATServicesRest/v1.0';
  const matches = (t: Record<string, any>, f: { op: string; field: string; value: any }) => {
    const v = t[f.field];
    if (f.op === 'eq') return v === f.value;
    if (f.op === 'in') return Array.isArray(f.value) && f.value.includes(v);
    if (f.op === 'gt') return String(v) > String(f.value);
    if (f.op === 'contains') return String(v ?? '').toLowerCase().includes(String(f.value).toLowerCase());
    if (f.op === 'gte') return Number(v) >= Number(f.value);
    return false;
  };
  const server = await listen((req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw ? JSON.parse(raw) : null;
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    if (url.pathname === '/atservicesrest/v1.0/ZoneInformation') {
      if (url.searchParams.get('user') !== creds.username) return json(res, 404, { errors: ['unknown user'] });
      return json(res, 200, { zoneName: 'Test Zone 1', url: `${server.url}/zone1/ATServicesRest/`, webUrl: `${server.url}/web/`, ci: 42 });
    }
    if (req.headers.apiintegrationcode !== creds.integrationCode || req.headers.username !== creds.username || req.headers.secret !== creds.secret) return json(res, 401, { errors: ['Unauthorized'] });
    if (!url.pathname.startsWith(zonePath)) return json(res, 404, { errors: ['not found'] });
    const path = url.pathname.slice(zonePath.length);
    if (path === '/Tickets/entityInformation') return json(res, 200, { info: { name: 'Ticket', canCreate: true, canQuery: true, canUpdate: true } });
    if (path === '/Tickets/entityInformation/fields')
      return json(res, 200, {
        fields: [
          { name: 'priority', isPickList: true, picklistValues: [{ value: '1', label: 'High', isActive: true }, { value: '2', label: 'Medium', isActive: true }, { value: '3', label: 'Low', isActive: true }, { value: '4', label: 'Critical', isActive: true }] },
          { name: 'status', isPickList: true, picklistValues: [{ value: '1', label: 'New', isActive: true }, { value: '5', label: 'Complete', isActive: true }] },
        ],
      });
    if (path === '/Companies/query' && req.method === 'POST') {
      const companies = [{ id: 77, companyName: 'Acme Corporation', isActive: true }];
      return json(res, 200, { items: companies.filter((c) => body.filter.every((f: any) => matches(c, f))), pageDetails: { count: 1 } });
    }
    if (path === '/Tickets' && req.method === 'POST') {
      for (const k of ['companyID', 'title', 'status', 'priority', 'queueID', 'dueDateTime']) if (body?.[k] === undefined) return json(res, 500, { errors: [`${k} is required`] });
      const mishap = mishaps.shift();
      if (mishap === 'fail') return json(res, 500, { errors: ['unavailable'] });
      const id = nextId++;
      tickets.set(id, { ...body, id, ticketNumber: `T20261126.${String(id).padStart(4, '0')}`, lastActivityDate: new Date().toISOString(), notes: [] });
      if (mishap === 'drop') return res.socket?.destroy();
      if (mishap === 'hang') return;
      return json(res, 200, { itemId: id });
    }
    if (path === '/Tickets' && req.method === 'PATCH') {
      const t = tickets.get(body?.id);
      if (!t) return json(res, 404, { errors: ['no ticket'] });
      const mishap = body.status !== undefined ? later.statuses.shift() : undefined;
      return withMishap(res, mishap, { errors: ['unavailable'] }, () => {
        Object.assign(t, body, { lastActivityDate: new Date().toISOString() });
        if (body.status !== undefined) statusChanges.push({ id: t.id, status: body.status });
        return [200, { itemId: t.id }];
      });
    }
    if (path === '/Tickets/query' && req.method === 'POST') return json(res, 200, { items: [...tickets.values()].filter((t) => body.filter.every((f: any) => matches(t, f))), pageDetails: {} });
    const m = /^\/Tickets\/(\d+)$/.exec(path);
    if (m && req.method === 'GET') return tickets.has(Number(m[1])) ? json(res, 200, { item: tickets.get(Number(m[1])) }) : json(res, 404, { errors: ['no ticket'] });
    // Ticket notes are created as the ticket's child; the TicketNotes entity answers queries (its OpenAPI has no POST).
    const n = /^\/Tickets\/(\d+)\/Notes$/.exec(path);
    if (n && req.method === 'POST') {
      const t = tickets.get(Number(n[1]));
      if (!t) return json(res, 404, { errors: ['no ticket'] });
      for (const k of ['title', 'description', 'noteType', 'publish']) if (body?.[k] === undefined || body[k] === '') return json(res, 500, { errors: [`${k} is required`] });
      return withMishap(res, later.notes.shift(), { errors: ['unavailable'] }, () => {
        t.notes.push(body.description);
        return [200, { itemId: t.notes.length }];
      });
    }
    if (path === '/TicketNotes/query' && req.method === 'POST') {
      const notes = [...tickets.values()].flatMap((t) => t.notes.map((description, i) => ({ id: t.id * 1000 + i, ticketID: t.id, title: 'Alertdesk', description })));
      return json(res, 200, { items: notes.filter((x) => body.filter.every((f: any) => matches(x, f))), pageDetails: {} });
    }
    json(res, 404, { errors: ['not found'] });
  });
  return { ...server, seen, tickets, mishaps, noteMishaps: later.notes, statusMishaps: later.statuses, statusChanges, lookupUrl: `${server.url}/atservicesrest` };
}
