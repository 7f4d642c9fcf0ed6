import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDatabase, type TestEnv } from '../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../test/factories.ts';
import { createIntegration, ingest } from '../test/alerts.ts';
import { hasBadCharacters } from './body-guard.ts';

/**
 * Hostile and broken input against every kind of endpoint: ingestion (PagerDuty, Alertmanager, generic) and the API
 * (sign-in, registration, password reset, clients, alert notes and assignment, profile, integrations, invitations,
 * list queries). Every case must answer a 4xx, or 202 where ingestion strips what it cannot store, never a 5xx,
 * and must store nothing it should not (rows counted before and after).
 */

const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const NUL = '\u0000';
const LONE = '\ud800';
const big = (chars: number) => 'x'.repeat(chars);

type Table = 'alerts' | 'alert_notes' | 'clients' | 'users' | 'integrations' | 'tenant_members' | 'tenants';

interface Ctx {
  env: TestEnv;
  tenantId: string;
  otherTenantId: string;
  key: string;
  clientId: string;
  otherClientId: string;
  alertId: string;
  otherAlertId: string;
  foreignUserId: string;
  cookie: string;
}

interface Case {
  name: string;
  send(c: Ctx): Promise<LightMyRequestResponse>;
  /** The status it must answer. */
  status: number;
  /** Rows that must not change (or change by `grows`), counted across all tenants. */
  table?: Table;
  grows?: number;
  then?(c: Ctx, res: LightMyRequestResponse): Promise<void>;
}

// --- request helpers ---------------------------------------------------------------------------------------------

/** A raw request as a monitoring tool would send it (no cookie, no Origin). */
const tool = (c: Ctx, url: string, payload: string, headers: Record<string, string> = {}) =>
  c.env.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });
const bearer = (c: Ctx) => ({ authorization: `Bearer ${c.key}` });
const pd = (c: Ctx, payload: string) => tool(c, '/v2/enqueue', payload);
const pdEvent = (c: Ctx, over: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) =>
  JSON.stringify({ routing_key: c.key, event_action: 'trigger', payload: { summary: 'corpus', source: 'corpus', severity: 'info', ...payload }, ...over });
const am = (c: Ctx, payload: string) => tool(c, '/api/ingest/alertmanager', payload, bearer(c));
const amAlert = (fingerprint: string, over: Record<string, unknown> = {}) => ({ labels: { alertname: 'Corpus', instance: fingerprint }, fingerprint, ...over });
const amGroup = (alerts: unknown[], over: Record<string, unknown> = {}) => JSON.stringify({ version: '4', status: 'firing', alerts, ...over });
const generic = (c: Ctx, payload: string, headers: Record<string, string> = bearer(c)) => tool(c, '/api/ingest/events', payload, headers);

/** A raw request from the signed-in owner's browser. */
const api = (c: Ctx, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: string, headers: Record<string, string> = {}) =>
  c.env.app.inject({
    method,
    url,
    headers: { origin: 'http://localhost:3000', cookie: c.cookie, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(payload !== undefined ? { payload } : {}),
  });
/** A raw request from a browser that is not signed in. */
const anon = (c: Ctx, url: string, payload: string, headers: Record<string, string> = {}) =>
  c.env.app.inject({ method: 'POST', url, headers: { origin: 'http://localhost:3000', 'content-type': 'application/json', ...headers }, payload });
const signIn = (c: Ctx, payload: string) => anon(c, '/api/auth/sign-in', payload);
const register = (c: Ctx, userData: unknown, tenantData: unknown = { name: 'Corpus MSP', plan: 'trial' }) =>
  anon(c, '/api/functions/registerUserWithTenant', JSON.stringify({ userData, tenantData }));
const newUser = (over: Record<string, unknown> = {}) => ({ email: uniqueEmail('corpus'), password: 'secret123', displayName: 'Corpus User', ...over });
const clients = (c: Ctx) => `/api/tenants/${c.tenantId}/clients`;
const clientBody = (over: Record<string, unknown> = {}) => JSON.stringify({ name: `Corpus ${randomBytes(3).toString('hex')}`, status: 'active', ...over });
const alerts = (c: Ctx) => `/api/tenants/${c.tenantId}/alerts`;

/** Checks that the event was stored with the bad characters gone. */
const storedClean = (dedupKey: string) => async (c: Ctx) => {
  const row = await c.env.deps.db.selectFrom('alerts').selectAll().where('tenant_id', '=', c.tenantId).where('dedup_key', '=', dedupKey).executeTakeFirstOrThrow();
  for (const v of [row.title, row.description, row.tags, row.metadata, row.source]) expect(hasBadCharacters(v)).toBe(false);
  expect(`${row.title}${row.metadata}${row.tags}`).toContain('corpus');
};

// --- the corpus ---------------------------------------------------------------------------------------------------

const CASES: Case[] = [
  // PagerDuty Events API v2
  { name: 'PagerDuty: a JSON array as the body', send: (c) => pd(c, '[]'), status: 401, table: 'alerts' },
  { name: 'PagerDuty: a JSON string as the body', send: (c) => pd(c, '"trigger"'), status: 401, table: 'alerts' },
  { name: 'PagerDuty: null as the body', send: (c) => pd(c, 'null'), status: 401, table: 'alerts' },
  { name: 'PagerDuty: malformed JSON', send: (c) => pd(c, `{"routing_key":"${c.key}","event_action":`), status: 400, table: 'alerts' },
  { name: 'PagerDuty: text/plain content type', send: (c) => tool(c, '/v2/enqueue', pdEvent(c), { 'content-type': 'text/plain' }), status: 415, table: 'alerts' },
  { name: 'PagerDuty: form-encoded content type', send: (c) => tool(c, '/v2/enqueue', `routing_key=${c.key}`, { 'content-type': 'application/x-www-form-urlencoded' }), status: 415, table: 'alerts' },
  { name: 'PagerDuty: routing_key as a number', send: (c) => pd(c, pdEvent(c, { routing_key: 12345 })), status: 401, table: 'alerts' },
  { name: 'PagerDuty: routing_key of 5,000 characters', send: (c) => pd(c, pdEvent(c, { routing_key: big(5000) })), status: 401, table: 'alerts' },
  { name: 'PagerDuty: routing_key with a NUL appended', send: (c) => pd(c, pdEvent(c, { routing_key: `${c.key}${NUL}x` })), status: 401, table: 'alerts' },
  { name: 'PagerDuty: unknown event_action', send: (c) => pd(c, pdEvent(c, { event_action: 'explode' })), status: 400, table: 'alerts' },
  { name: 'PagerDuty: payload as an array', send: (c) => pd(c, pdEvent(c, { payload: [] })), status: 400, table: 'alerts' },
  { name: 'PagerDuty: summary as a number', send: (c) => pd(c, pdEvent(c, {}, { summary: 42 })), status: 400, table: 'alerts' },
  {
    name: 'PagerDuty: severity 1e400 (infinite number)',
    send: (c) => pd(c, `{"routing_key":"${c.key}","event_action":"trigger","payload":{"summary":"s","source":"s","severity":1e400}}`),
    status: 400,
    table: 'alerts',
  },
  {
    name: 'PagerDuty: custom_details nested 5,000 deep',
    send: (c) => pd(c, `{"routing_key":"${c.key}","event_action":"trigger","payload":{"summary":"s","source":"s","severity":"info","custom_details":${deep(5000)}}}`),
    status: 400,
    table: 'alerts',
  },
  { name: 'PagerDuty: custom_details above 64 KiB', send: (c) => pd(c, pdEvent(c, {}, { custom_details: { log: big(70_000) } })), status: 400, table: 'alerts' },
  { name: 'PagerDuty: dedup_key of 10,000 characters', send: (c) => pd(c, pdEvent(c, { dedup_key: big(10_000) })), status: 400, table: 'alerts' },
  { name: 'PagerDuty: links as an object', send: (c) => pd(c, pdEvent(c, { links: { href: 'https://x' } })), status: 400, table: 'alerts' },
  { name: 'PagerDuty: body above the size limit', send: (c) => pd(c, pdEvent(c, {}, { summary: big(600 * 1024) })), status: 413, table: 'alerts' },
  {
    name: 'PagerDuty: NUL and lone surrogates in summary and custom_details keys are stripped and stored',
    send: (c) => pd(c, pdEvent(c, { dedup_key: `corpus-pd-nul${NUL}` }, { summary: `corpus${NUL} pd${LONE}`, custom_details: { [`k${NUL}${LONE}`]: `v${NUL}` } })),
    status: 202,
    table: 'alerts',
    grows: 1,
    then: (c) => storedClean('corpus-pd-nul')(c),
  },
  {
    name: 'PagerDuty: huge numbers in custom_details (1e400, -0, 2**64) are stored',
    send: (c) =>
      pd(c, `{"routing_key":"${c.key}","event_action":"trigger","dedup_key":"corpus-pd-numbers","payload":{"summary":"corpus","source":"s","severity":"info","custom_details":{"inf":1e400,"negzero":-0,"big":18446744073709551616,"neg":-1e400}}}`),
    status: 202,
    table: 'alerts',
    grows: 1,
  },

  // Prometheus Alertmanager
  { name: 'Alertmanager: alerts as an object', send: (c) => am(c, amGroup({} as unknown as unknown[])), status: 400, table: 'alerts' },
  { name: 'Alertmanager: an empty alerts list', send: (c) => am(c, amGroup([])), status: 400, table: 'alerts' },
  { name: 'Alertmanager: 1,001 alerts in one group', send: (c) => am(c, amGroup(Array.from({ length: 1001 }, (_, i) => amAlert(`over-${i}`)))), status: 400, table: 'alerts' },
  { name: 'Alertmanager: labels as an array', send: (c) => am(c, amGroup([{ labels: ['alertname', 'x'] }])), status: 400, table: 'alerts' },
  { name: 'Alertmanager: a label value as a number', send: (c) => am(c, amGroup([{ labels: { alertname: 'x', port: 9100 } }])), status: 400, table: 'alerts' },
  { name: 'Alertmanager: labels nested 5,000 deep', send: (c) => am(c, `{"status":"firing","alerts":[{"labels":${deep(5000)}}]}`), status: 400, table: 'alerts' },
  { name: 'Alertmanager: annotations above 64 KiB', send: (c) => am(c, amGroup([amAlert('big-annotation', { annotations: { description: big(70_000) } })])), status: 400, table: 'alerts' },
  { name: 'Alertmanager: unknown group status', send: (c) => am(c, amGroup([amAlert('s')], { status: 'exploded' })), status: 400, table: 'alerts' },
  {
    name: 'Alertmanager: group [ok, label of 20,000 characters, ok] stores none of it',
    send: (c) => am(c, amGroup([amAlert('ok-1'), amAlert('bad', { labels: { alertname: 'x', instance: big(20_000) } }), amAlert('ok-2')])),
    status: 400,
    table: 'alerts',
    then: async (_c, res) => expect(Object.keys(JSON.parse(res.body).error.fields)).toEqual(['alerts.1.labels']),
  },
  { name: 'Alertmanager: truncatedAlerts 1e400', send: (c) => am(c, `{"status":"firing","truncatedAlerts":1e400,"alerts":[{"labels":{"alertname":"x"}}]}`), status: 400, table: 'alerts' },
  { name: 'Alertmanager: truncatedAlerts 2**64', send: (c) => am(c, `{"status":"firing","truncatedAlerts":18446744073709551616,"alerts":[{"labels":{"alertname":"x"}}]}`), status: 400, table: 'alerts' },
  { name: 'Alertmanager: text/plain content type', send: (c) => tool(c, '/api/ingest/alertmanager', amGroup([amAlert('t')]), { ...bearer(c), 'content-type': 'text/plain' }), status: 415, table: 'alerts' },
  { name: 'Alertmanager: a key with %00 in the path', send: (c) => tool(c, `/api/ingest/alertmanager/${c.key}%00`, amGroup([amAlert('k')])), status: 401, table: 'alerts' },
  {
    name: 'Alertmanager: NUL in a label name and a lone surrogate in an annotation are stripped and stored',
    send: (c) => am(c, amGroup([{ labels: { alertname: 'corpus', [`inst${NUL}ance`]: 'web-1' }, annotations: { summary: `corpus ${LONE}am` }, fingerprint: 'corpus-am-nul' }])),
    status: 202,
    table: 'alerts',
    grows: 1,
    then: (c) => storedClean('corpus-am-nul')(c),
  },

  // Generic events
  { name: 'generic: title as a number', send: (c) => generic(c, '{"title":42}'), status: 400, table: 'alerts' },
  { name: 'generic: title 1e400', send: (c) => generic(c, '{"title":1e400}'), status: 400, table: 'alerts' },
  { name: 'generic: tags as a string', send: (c) => generic(c, JSON.stringify({ title: 't', tags: 'a,b' })), status: 400, table: 'alerts' },
  { name: 'generic: 51 tags', send: (c) => generic(c, JSON.stringify({ title: 't', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) })), status: 400, table: 'alerts' },
  { name: 'generic: metadata as an array', send: (c) => generic(c, JSON.stringify({ title: 't', metadata: [1, 2] })), status: 400, table: 'alerts' },
  { name: 'generic: metadata as a string', send: (c) => generic(c, JSON.stringify({ title: 't', metadata: 'x' })), status: 400, table: 'alerts' },
  { name: 'generic: metadata nested 5,000 deep', send: (c) => generic(c, `{"title":"t","metadata":${deep(5000)}}`), status: 400, table: 'alerts' },
  { name: 'generic: metadata nested 33 deep (one past the limit)', send: (c) => generic(c, `{"title":"t","metadata":${deep(32)}}`), status: 400, table: 'alerts' },
  { name: 'generic: metadata above 64 KiB', send: (c) => generic(c, JSON.stringify({ title: 't', metadata: { log: big(70_000) } })), status: 400, table: 'alerts' },
  { name: 'generic: priority -0', send: (c) => generic(c, '{"title":"t","priority":-0}'), status: 400, table: 'alerts' },
  { name: 'generic: description above 65,536 characters', send: (c) => generic(c, JSON.stringify({ title: 't', description: big(70_000) })), status: 400, table: 'alerts' },
  { name: 'generic: dedupKey as a number', send: (c) => generic(c, '{"title":"t","dedupKey":18446744073709551616}'), status: 400, table: 'alerts' },
  { name: 'generic: resolve without a dedupKey', send: (c) => generic(c, '{"action":"resolve"}'), status: 400, table: 'alerts' },
  { name: 'generic: constructor as a metadata key', send: (c) => generic(c, '{"title":"t","metadata":{"constructor":{"x":1}}}'), status: 400, table: 'alerts' },
  { name: 'generic: a JSON array as the body', send: (c) => generic(c, '[{"title":"t"}]'), status: 400, table: 'alerts' },
  { name: 'generic: no key at all', send: (c) => generic(c, '{"title":"t"}', {}), status: 401, table: 'alerts' },
  {
    name: "generic: another tenant's client id is not bound (stored without a client)",
    send: (c) => generic(c, JSON.stringify({ title: 'corpus foreign client', client: c.otherClientId, dedupKey: 'corpus-foreign-client' })),
    status: 202,
    table: 'alerts',
    grows: 1,
    then: async (c) => {
      const row = await c.env.deps.db.selectFrom('alerts').select(['client_id', 'tenant_id']).where('dedup_key', '=', 'corpus-foreign-client').executeTakeFirstOrThrow();
      expect(row).toEqual({ client_id: null, tenant_id: c.tenantId });
    },
  },
  {
    name: 'generic: NUL in metadata keys and lone surrogates in the title are stripped and stored',
    send: (c) => generic(c, JSON.stringify({ title: `corpus ${LONE}generic${NUL}`, metadata: { [`a${NUL}b`]: [`c${LONE}`] }, dedupKey: 'corpus-generic-nul' })),
    status: 202,
    table: 'alerts',
    grows: 1,
    then: (c) => storedClean('corpus-generic-nul')(c),
  },

  // Sign-in
  { name: 'sign-in: email as an array', send: (c) => signIn(c, '{"email":["a@b.co"],"password":"x"}'), status: 400 },
  { name: 'sign-in: email as an object', send: (c) => signIn(c, '{"email":{"$ne":null},"password":"x"}'), status: 400 },
  { name: 'sign-in: password 1e400', send: (c) => signIn(c, '{"email":"a@b.co","password":1e400}'), status: 400 },
  { name: 'sign-in: a JSON array as the body', send: (c) => signIn(c, '[]'), status: 400 },
  { name: 'sign-in: NUL in the email', send: (c) => signIn(c, JSON.stringify({ email: `a${NUL}@b.co`, password: 'x' })), status: 400 },
  { name: 'sign-in: a lone surrogate in the password', send: (c) => signIn(c, JSON.stringify({ email: 'a@b.co', password: `x${LONE}` })), status: 400 },
  { name: 'sign-in: body nested 5,000 deep', send: (c) => signIn(c, `{"email":"a@b.co","password":"x","extra":${deep(5000)}}`), status: 400 },
  { name: 'sign-in: malformed JSON', send: (c) => signIn(c, '{"email":"a@b.co",'), status: 400 },
  { name: 'sign-in: text/plain content type', send: (c) => anon(c, '/api/auth/sign-in', 'a@b.co', { 'content-type': 'text/plain' }), status: 415 },
  { name: 'sign-in: password of 10,000 characters', send: (c) => signIn(c, JSON.stringify({ email: 'a@b.co', password: big(10_000) })), status: 400 },

  // Registration and password reset
  { name: 'registration: userData as an array', send: (c) => register(c, []), status: 400, table: 'users' },
  { name: 'registration: a lone surrogate in the display name', send: (c) => register(c, newUser({ displayName: `Eve ${LONE}` })), status: 400, table: 'users' },
  { name: 'registration: NUL in the organization name', send: (c) => register(c, newUser(), { name: `Org${NUL}`, plan: 'trial' }), status: 400, table: 'tenants' },
  { name: 'registration: a plan that does not exist', send: (c) => register(c, newUser(), { name: 'Org', plan: 'no-such-plan' }), status: 400, table: 'users' },
  { name: 'registration: an email of 300 characters', send: (c) => register(c, newUser({ email: `${big(290)}@example.com` })), status: 400, table: 'users' },
  { name: 'registration: displayName as a number 2**64', send: (c) => anon(c, '/api/functions/registerUserWithTenant', `{"userData":{"email":"${uniqueEmail()}","password":"secret123","displayName":18446744073709551616},"tenantData":{"name":"O","plan":"trial"}}`), status: 400, table: 'users' },
  { name: 'password reset: NUL in the email', send: (c) => anon(c, '/api/auth/password-reset', JSON.stringify({ email: `x${NUL}@example.com` })), status: 400 },
  { name: 'password reset confirm: NUL characters as the token', send: (c) => anon(c, '/api/auth/password-reset/confirm', JSON.stringify({ token: NUL.repeat(20), password: 'newsecret1' })), status: 400 },

  // Clients
  { name: 'clients create: a name of 101 characters', send: (c) => api(c, 'POST', clients(c), clientBody({ name: big(101) })), status: 400, table: 'clients' },
  { name: 'clients create: 101 tags', send: (c) => api(c, 'POST', clients(c), clientBody({ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })), status: 400, table: 'clients' },
  { name: 'clients create: customFields as an array', send: (c) => api(c, 'POST', clients(c), clientBody({ customFields: [['k', 'v']] })), status: 400, table: 'clients' },
  { name: 'clients create: a custom field value as a number', send: (c) => api(c, 'POST', clients(c), clientBody({ customFields: { seats: 1e3 } })), status: 400, table: 'clients' },
  { name: 'clients create: customFields nested 5,000 deep', send: (c) => api(c, 'POST', clients(c), `{"name":"Deep","status":"active","customFields":${deep(5000)}}`), status: 400, table: 'clients' },
  { name: 'clients create: an unknown status', send: (c) => api(c, 'POST', clients(c), clientBody({ status: 'exploded' })), status: 400, table: 'clients' },
  { name: 'clients create: NUL in the description', send: (c) => api(c, 'POST', clients(c), clientBody({ description: `a${NUL}b` })), status: 400, table: 'clients' },
  { name: "clients create: in another tenant's URL", send: (c) => api(c, 'POST', `/api/tenants/${c.otherTenantId}/clients`, clientBody()), status: 404, table: 'clients' },
  { name: 'clients create: a JSON array as the body', send: (c) => api(c, 'POST', clients(c), '[]'), status: 400, table: 'clients' },
  { name: 'clients create: wrong content type', send: (c) => api(c, 'POST', clients(c), 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), status: 415, table: 'clients' },
  { name: 'clients update: a client id that does not exist', send: (c) => api(c, 'PUT', `${clients(c)}/does-not-exist`, clientBody()), status: 404, table: 'clients' },
  { name: "clients update: another tenant's client id", send: (c) => api(c, 'PUT', `${clients(c)}/${c.otherClientId}`, clientBody({ name: 'Hijacked' })), status: 404, table: 'clients' },
  { name: 'clients update: a lone surrogate in a tag', send: (c) => api(c, 'PUT', `${clients(c)}/${c.clientId}`, clientBody({ tags: [`x${LONE}`] })), status: 400, table: 'clients' },
  { name: 'clients list: a NUL in the search', send: (c) => api(c, 'GET', `${clients(c)}?search=%00`), status: 400 },
  { name: 'clients list: page 1e400', send: (c) => api(c, 'GET', `${clients(c)}?page=1e400`), status: 400 },

  // Alerts: notes, assignment, lists
  { name: 'alert note: text of 10,001 characters', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/notes`, JSON.stringify({ text: big(10_001) })), status: 400, table: 'alert_notes' },
  { name: 'alert note: text as an object', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/notes`, '{"text":{"a":1}}'), status: 400, table: 'alert_notes' },
  { name: 'alert note: NUL in the text', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/notes`, JSON.stringify({ text: `note${NUL}` })), status: 400, table: 'alert_notes' },
  { name: 'alert note: a lone surrogate in the text', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/notes`, JSON.stringify({ text: `note${LONE}` })), status: 400, table: 'alert_notes' },
  { name: "alert note: on another tenant's alert", send: (c) => api(c, 'POST', `${alerts(c)}/${c.otherAlertId}/notes`, JSON.stringify({ text: 'hello' })), status: 404, table: 'alert_notes' },
  { name: 'alert note: on an alert id that does not exist', send: (c) => api(c, 'POST', `${alerts(c)}/00000000-0000-7000-8000-000000000000/notes`, JSON.stringify({ text: 'hello' })), status: 404, table: 'alert_notes' },
  { name: 'alert note: on an alert id with %00', send: (c) => api(c, 'POST', `${alerts(c)}/%00/notes`, JSON.stringify({ text: 'hello' })), status: 400, table: 'alert_notes' },
  { name: 'alert assign: a user of another tenant', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/assign`, JSON.stringify({ userId: c.foreignUserId })), status: 400 },
  { name: 'alert assign: userId 1e400', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/assign`, '{"userId":1e400}'), status: 400 },
  { name: 'alert assign: userId as an array', send: (c) => api(c, 'POST', `${alerts(c)}/${c.alertId}/assign`, '{"userId":["a"]}'), status: 400 },
  { name: 'alert history: pageSize 2**64', send: (c) => api(c, 'GET', `${alerts(c)}/history?pageSize=18446744073709551616`), status: 400 },
  { name: 'alert history: page -0', send: (c) => api(c, 'GET', `${alerts(c)}/history?page=-0`), status: 400 },
  { name: 'alert history: a NUL in the search', send: (c) => api(c, 'GET', `${alerts(c)}/history?q=a%00`), status: 400 },
  { name: 'alert list: a tenant id with %00', send: (c) => api(c, 'GET', '/api/tenants/%00/alerts'), status: 400 },

  // Profile
  { name: 'profile: displayName as an array', send: (c) => api(c, 'PATCH', '/api/profile', '{"displayName":["a"]}'), status: 400 },
  { name: 'profile: NUL in the displayName', send: (c) => api(c, 'PATCH', '/api/profile', JSON.stringify({ displayName: `Olivia${NUL}` })), status: 400 },
  { name: 'profile: displayName of 121 characters', send: (c) => api(c, 'PATCH', '/api/profile', JSON.stringify({ displayName: big(121) })), status: 400 },
  {
    name: 'notification preferences: sms as an array',
    send: (c) => api(c, 'PUT', `/api/tenants/${c.tenantId}/notification-preferences`, '{"email":{"enabled":true,"alertNotifications":true,"weeklyDigest":true,"systemUpdates":false},"sms":[],"push":{"enabled":true},"phoneNumber":null,"alertSubscriptions":[]}'),
    status: 400,
  },
  {
    name: 'push token: expirationTime 1e400',
    send: (c) => api(c, 'POST', '/api/userTokens', '{"token":{"endpoint":"https://push.example.com/x","expirationTime":1e400,"keys":{"p256dh":"a","auth":"b"}}}'),
    status: 400,
  },

  // Integrations
  { name: 'integrations create: a name of 121 characters', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/integrations`, JSON.stringify({ name: big(121) })), status: 400, table: 'integrations' },
  { name: 'integrations create: name as a number', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/integrations`, '{"name":-0}'), status: 400, table: 'integrations' },
  { name: "integrations create: another tenant's client", send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/integrations`, JSON.stringify({ name: 'x', clientId: c.otherClientId })), status: 400, table: 'integrations' },
  { name: 'integrations create: NUL in the name', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/integrations`, JSON.stringify({ name: `x${NUL}` })), status: 400, table: 'integrations' },

  // Tenant administration: invitations
  { name: 'invitation: NUL in the email', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/members`, JSON.stringify({ email: `new${NUL}@example.com`, role: 'user' })), status: 400, table: 'tenant_members' },
  { name: 'invitation: role owner', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/members`, JSON.stringify({ email: uniqueEmail(), role: 'owner' })), status: 400, table: 'tenant_members' },
  { name: 'invitation: email as an array', send: (c) => api(c, 'POST', `/api/tenants/${c.tenantId}/members`, JSON.stringify({ email: [uniqueEmail()], role: 'user' })), status: 400, table: 'tenant_members' },
  { name: "invitation: into another tenant", send: (c) => api(c, 'POST', `/api/tenants/${c.otherTenantId}/members`, JSON.stringify({ email: uniqueEmail(), role: 'user' })), status: 404, table: 'tenant_members' },
  { name: 'invitation link: a token of NUL characters', send: (c) => c.env.app.inject({ method: 'GET', url: `/api/invitations/${'%00'.repeat(12)}` }), status: 400 },
];

const count = async (c: Ctx, table: Table) => Number((await c.env.deps.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describeEachDatabase('bad-input corpus', (t) => {
  let ctx: Ctx;
  beforeAll(async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
    const { key } = await createIntegration(owner.agent, owner.tenantId);
    const otherKey = (await createIntegration(other.agent, other.tenantId)).key;
    const client = await owner.agent.post(`/api/tenants/${owner.tenantId}/clients`, { name: 'Corpus Client', status: 'active' });
    const otherClient = await other.agent.post(`/api/tenants/${other.tenantId}/clients`, { name: 'Other Client', status: 'active' });
    const mine = await ingest(env.app, '/api/ingest/events', { title: 'corpus alert', dedupKey: 'corpus-base' }, { authorization: `Bearer ${key}` });
    const theirs = await ingest(env.app, '/api/ingest/events', { title: 'other alert' }, { authorization: `Bearer ${otherKey}` });
    ctx = {
      env,
      tenantId: owner.tenantId,
      otherTenantId: other.tenantId,
      key,
      clientId: client.data.id,
      otherClientId: otherClient.data.id,
      alertId: mine.data.alertId,
      otherAlertId: theirs.data.alertId,
      foreignUserId: other.userId,
      cookie: owner.agent.cookie!,
    };
  });

  it('has at least 60 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(`${c.name} → ${c.status}`, async () => {
      const before = c.table ? await count(ctx, c.table) : 0;
      const res = await c.send(ctx);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(c.status);
      if (c.table) expect(await count(ctx, c.table)).toBe(before + (c.grows ?? 0));
      await c.then?.(ctx, res);
    });
  }

  it('still lists, pages history and shows every alert afterwards', async () => {
    const headers = { origin: 'http://localhost:3000', cookie: ctx.cookie };
    const list = await ctx.env.app.inject({ method: 'GET', url: `/api/tenants/${ctx.tenantId}/alerts`, headers });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Array<{ id: string }>;
    expect(items.length).toBeGreaterThanOrEqual(6);
    for (const a of items) expect((await ctx.env.app.inject({ method: 'GET', url: `/api/tenants/${ctx.tenantId}/alerts/${a.id}`, headers })).statusCode).toBe(200);
    expect((await ctx.env.app.inject({ method: 'GET', url: `/api/tenants/${ctx.tenantId}/alerts/history`, headers })).statusCode).toBe(200);
  });
});
