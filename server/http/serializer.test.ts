import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Alert, AlertList } from '../../contract/alerts.ts';
import { ErrorBody } from '../../contract/common.ts';
import { registerErrorHandling } from './errors.ts';
import { contractSerializerCompiler } from './serializer.ts';

const alert: Alert = {
  id: 'a1',
  tenantId: 't1',
  clientId: null,
  clientName: null,
  integrationId: 'i1',
  integrationName: 'Zabbix "prod"',
  dedupKey: null,
  title: 'Disk full on db-01 \u0000 \u2028 \ud800 😀',
  description: '',
  priority: 'critical',
  status: 'new',
  source: 'db-01',
  createdAt: '2026-11-25T00:00:00.000Z',
  updatedAt: '2026-11-25T00:00:00.000Z',
  acknowledgedBy: null,
  acknowledgedAt: null,
  resolvedBy: null,
  resolvedAt: null,
  closedBy: null,
  closedAt: null,
  assignedTo: null,
  assigneeName: null,
  tags: ['disk', '</script>'],
  metadata: { nested: { deeper: [1, 'two', null, { three: true }] }, '': 'empty key', 'a"b': 1.5 },
  occurrences: 3,
  lastSeenAt: '2026-11-25T00:01:00.000Z',
  overdueAt: null,
  pagedNobody: null,
  actions: ['acknowledge', 'resolve'],
};

/** Answers through the contract serializer on a bare server: what leaves is the contract, nothing more. */
describe('contract serializer', () => {
  let app: FastifyInstance;
  let answer: unknown;

  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setSerializerCompiler(contractSerializerCompiler);
    registerErrorHandling(app);
    app.get('/list', { schema: { response: { 200: AlertList, 500: ErrorBody } } }, async () => answer);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('writes the contract’s fields exactly as JSON.stringify would, nulls, odd characters and free-form metadata included', async () => {
    answer = { items: [alert, { ...alert, id: 'a2', metadata: {} }], total: 2, page: 1, pageSize: 100 };
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(answer)));
  });

  it('never writes a property the contract does not declare', async () => {
    answer = { items: [{ ...alert, passwordHash: 'secret', search_text: 'x' }], total: 1, page: 1, pageSize: 100, internal: true };
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('secret');
    expect(Object.keys(res.json())).toEqual(['items', 'total', 'page', 'pageSize']);
    expect(Object.keys(res.json().items[0])).toEqual(Object.keys(alert));
  });

  it('answers 500 without any of the data when a required field is missing', async () => {
    const { title: _title, ...partial } = alert;
    answer = { items: [partial], total: 1, page: 1, pageSize: 100 };
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal');
    expect(res.body).not.toContain('db-01');
  });
});
