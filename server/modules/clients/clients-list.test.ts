import { describe, expect, it } from 'vitest';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { clientsUrl, createClient, setMaxClients } from '../../test/clients.ts';

describeEachDatabase('clients API: the list', (t) => {
  describe('list: filter, search, sort, pages', () => {
    // 25 clients over three statuses; names whose case-insensitive order differs from their byte order.
    const names = [
      'alpha Systems', 'Bravo Bank', 'charlie Care', 'Delta Dental', 'echo Energy', 'Foxtrot Freight', 'golf Games',
      'Hotel Holdings', 'india Imports', 'Juliet Jewels', 'kilo Kitchens', 'Lima Logistics', 'mike Media', 'November Networks',
      'oscar Optics', 'Papa Pharma', 'quebec Quarry', 'Romeo Retail', 'sierra Security', 'Tango Travel', 'uniform Utilities',
      'Victor Vision', 'whiskey Works', 'Xray Labs', 'yankee Yachts',
    ];
    const statusOf = (i: number) => (['active', 'inactive', 'pending'] as const)[i % 3];
    let ctx: { agent: Agent; tenantId: string } | null = null;
    const seed = async () => {
      if (ctx) return ctx;
      const env = t();
      const owner = await registerOwner(env.app);
      await setMaxClients(env, owner.tenantId, 100);
      // Created in shuffled order so created-time order is not name order.
      const order = names.map((_, i) => (i * 7) % names.length);
      for (const i of order) {
        await createClient(owner.agent, owner.tenantId, {
          name: names[i],
          status: statusOf(i),
          contactName: i === 3 ? 'Dr. Wanda Wisdom' : `Contact ${i}`,
          contactEmail: i === 5 ? 'Ops+Freight@Example.COM' : `c${i}@example.com`,
        });
      }
      // Another tenant's look-alike that must never show up.
      const other = await registerOwner(env.app);
      await createClient(other.agent, other.tenantId, { name: 'alpha Systems (other tenant)', contactName: 'Wanda' });
      ctx = { agent: owner.agent, tenantId: owner.tenantId };
      return ctx;
    };
    const list = async (query: string) => {
      const { agent, tenantId } = await seed();
      const res = await agent.get(`${clientsUrl(tenantId)}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.data as { items: Array<{ name: string; status: string; createdAt: string; id: string }>; total: number; page: number; pageSize: number };
    };
    const byName = [...names].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1));

    it('pages 10 at a time by name (case-insensitive) with the total', async () => {
      const p1 = await list('');
      expect(p1).toMatchObject({ total: 25, page: 1, pageSize: 10 });
      expect(p1.items.map((c) => c.name)).toEqual(byName.slice(0, 10));
      const p3 = await list('?page=3');
      expect(p3.items.map((c) => c.name)).toEqual(byName.slice(20, 25));
      const p4 = await list('?page=4');
      expect(p4).toMatchObject({ items: [], total: 25, page: 4 });
      const all = await list('?pageSize=100');
      expect(all.items.map((c) => c.name)).toEqual(byName);
      const single = await list('?pageSize=1&page=25');
      expect(single.items.map((c) => c.name)).toEqual([byName[24]]);
    });

    it('sorts by name, status and created time in both directions', async () => {
      const desc = await list('?sort=name&order=desc&pageSize=100');
      expect(desc.items.map((c) => c.name)).toEqual([...byName].reverse());

      const st = await list('?sort=status&pageSize=100');
      const expected = [...names.keys()]
        .sort((x, y) => statusOf(x).localeCompare(statusOf(y)) || (names[x].toLowerCase() < names[y].toLowerCase() ? -1 : 1))
        .map((i) => names[i]);
      expect(st.items.map((c) => c.name)).toEqual(expected);
      const stDesc = await list('?sort=status&order=desc&pageSize=100');
      expect(stDesc.items.map((c) => c.name)).toEqual([...expected].reverse());

      const created = await list('?sort=createdAt&pageSize=100');
      const keys = created.items.map((c) => `${c.createdAt}|${c.id}`);
      expect(keys).toEqual([...keys].sort());
      const createdDesc = await list('?sort=createdAt&order=desc&pageSize=100');
      expect(createdDesc.items.map((c) => c.id)).toEqual(created.items.map((c) => c.id).reverse());
      // Pages of a sorted list neither overlap nor skip.
      const pages = [await list('?sort=createdAt&page=1'), await list('?sort=createdAt&page=2'), await list('?sort=createdAt&page=3')];
      expect(pages.flatMap((p) => p.items.map((c) => c.id))).toEqual(created.items.map((c) => c.id));
    });

    it('filters by status on the server, with the filtered total', async () => {
      for (const status of ['active', 'inactive', 'pending'] as const) {
        const res = await list(`?status=${status}&pageSize=100`);
        const want = byName.filter((n) => statusOf(names.indexOf(n)) === status);
        expect(res.total).toBe(want.length);
        expect(res.items.map((c) => c.name)).toEqual(want);
      }
      expect((await list('?status=all')).total).toBe(25);
      const p2 = await list('?status=active&page=2&pageSize=5');
      expect(p2.items.map((c) => c.name)).toEqual(byName.filter((n) => statusOf(names.indexOf(n)) === 'active').slice(5, 9));
    });

    it('searches name, contact name and contact email, case-insensitively, as a substring', async () => {
      expect((await list('?search=BANK')).items.map((c) => c.name)).toEqual(['Bravo Bank']);
      expect((await list('?search=wanda%20wis')).items.map((c) => c.name)).toEqual(['Delta Dental']);
      expect((await list('?search=ops%2Bfreight%40example.com')).items.map((c) => c.name)).toEqual(['Foxtrot Freight']);
      expect((await list(`?search=${encodeURIComponent('  lima  ')}`)).items.map((c) => c.name)).toEqual(['Lima Logistics']);
      // Every contact email is at example.com, one of them in capitals.
      expect((await list('?search=EXAMPLE.com')).total).toBe(25);
      const combined = await list('?search=ar&status=inactive');
      for (const c of combined.items) expect(c.status).toBe('inactive');
      expect(combined.items.map((c) => c.name)).toEqual(byName.filter((n) => n.toLowerCase().includes('ar') && statusOf(names.indexOf(n)) === 'inactive'));
      expect(await list('?search=nothing-like-this')).toMatchObject({ items: [], total: 0 });
    });

    it('takes % and _ in a search literally', async () => {
      expect((await list(`?search=${encodeURIComponent('%')}`)).total).toBe(0);
      expect((await list(`?search=${encodeURIComponent('_')}`)).total).toBe(0);
      expect((await list(`?search=${encodeURIComponent('a%a')}`)).total).toBe(0);
      expect((await list(`?search=${encodeURIComponent('\\')}`)).total).toBe(0);
    });

    it('refuses page and page size outside their bounds', async () => {
      const { agent, tenantId } = await seed();
      for (const [q, field, message] of [
        ['?page=0', 'page', 'Page must be a whole number of 1 or more'],
        ['?page=-1', 'page', 'Page must be a whole number of 1 or more'],
        ['?page=abc', 'page', 'Page must be a whole number of 1 or more'],
        ['?pageSize=0', 'pageSize', 'Page size must be a whole number from 1 to 100'],
        ['?pageSize=101', 'pageSize', 'Page size must be a whole number from 1 to 100'],
        ['?sort=contactEmail', 'sort', null],
        ['?status=archived', 'status', null],
        [`?search=${'x'.repeat(101)}`, 'search', 'Search must be at most 100 characters'],
      ] as const) {
        const res = await agent.get(`${clientsUrl(tenantId)}${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(Object.keys(res.data.error.fields), q).toEqual([field]);
        if (message) expect(res.data.error.message).toBe(message);
      }
      expect((await list('?pageSize=100')).pageSize).toBe(100);
    });
  });
});
