import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/test-app.ts';
import { psaTenant, settle } from '../psa/psa-test-harness.ts';
import { connectWiseStandIn } from '../psa/psa-test-standins.ts';

const creds = { companyId: 'msp', publicKey: 'pub-key-1', privateKey: 'priv-key-1', clientId: 'client-id-1' };
let cw: Awaited<ReturnType<typeof connectWiseStandIn>>;
beforeAll(async () => {
  cw = await connectWiseStandIn(creds);
});
afterAll(() => cw.close());

// Issue 30: the dashboard's "has ticket" filter: the active list narrowed to alerts with a PSA ticket (`hasTicket=true`)
// or to those without one (`false`), counted alike; a ticket being opened (no number yet) is not one.
describeEachDatabase(
  'active alerts: the hasTicket filter',
  (t) => {
    it('lists only the alerts with a ticket, or only those without, within the tenant', async () => {
      const env = t();
      const { owner, t: base, clientId, raise } = await psaTenant(env);
      const conn = await owner.agent.post(`${base}/psaConnections`, { type: 'connectwise', name: 'CW', settings: { siteUrl: cw.siteUrl, ...creds, board: 'Alerts', newStatus: 'New', closedStatus: 'Closed' } });
      expect(conn.statusCode).toBe(201);
      const map = await owner.agent.put(`${base}/psaConnections/${conn.data.id}/companyMap`, { items: [{ clientId, companyId: 'AcmeCorp', companyName: 'Acme Corporation' }] });
      expect(map.statusCode).toBe(200);

      // Critical opens a ticket (the default rules: critical and high); medium does not.
      const ticketed = await raise('disk-full', 'critical');
      const plain = await raise('cpu-warm', 'medium');
      await settle(env, owner.tenantId, 1);
      const list = async (query: string) => {
        const res = await owner.agent.get(`${base}/alerts${query}`);
        expect(res.statusCode, query).toBe(200);
        expect(res.data.total, query).toBe(res.data.items.length);
        return res.data.items as Array<{ id: string; ticket: { number: string; url: string | null } | null }>;
      };
      await expect.poll(async () => (await list('?hasTicket=true')).map((a) => a.id)).toEqual([ticketed]);
      const withTicket = await list('?hasTicket=true');
      expect(withTicket[0].ticket?.number).toMatch(/^\d+$/);
      expect((await list('?hasTicket=false')).map((a) => a.id)).toEqual([plain]);
      expect((await list('')).map((a) => a.id).sort()).toEqual([ticketed, plain].sort());
      // With the other filters: an AND.
      expect(await list('?hasTicket=true&priority=medium')).toEqual([]);
      expect((await list('?hasTicket=false&priority=medium')).map((a) => a.id)).toEqual([plain]);

      // Another tenant's alerts, ticketed or not, are never in this tenant's list, and its own list has none of ours.
      const other = await psaTenant(env);
      const otherAlert = await other.raise('disk-full', 'critical');
      const otherList = await other.owner.agent.get(`${other.t}/alerts?hasTicket=false`);
      expect(otherList.data.items.map((a: { id: string }) => a.id)).toEqual([otherAlert]);
      expect((await other.owner.agent.get(`${other.t}/alerts?hasTicket=true`)).data.items).toEqual([]);
      expect((await list('?hasTicket=true')).map((a) => a.id)).toEqual([ticketed]);
    });

    it('refuses a value other than true or false with 400 naming the field', async () => {
      const { owner, t: base } = await psaTenant(t());
      const res = await owner.agent.get(`${base}/alerts?hasTicket=yes`);
      expect(res.statusCode).toBe(400);
      expect(res.data.error.fields.hasTicket).toBe("Must be 'true' or 'false'");
    });
  },
  { outbound: { allowPrivate: false, allowCidrs: ['127.0.0.1/32'] } },
);
