import { describe, expect, it } from 'vitest';
import { clientPlanLimitMessage, isWebsite, normalizeTags } from '../../../contract/clients.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner } from '../../test/factories.ts';
import { clientsUrl, createClient, setMaxClients } from '../../test/clients.ts';

describe('client rules (pure)', () => {
  it('accepts URL-like websites with optional http(s):// and www.', () => {
    for (const ok of ['example.com', 'www.example.com', 'http://example.com', 'https://www.example.co.uk/path?q=1#top', 'acme-it.io:8443']) expect(isWebsite(ok), ok).toBe(true);
    for (const bad of ['example', 'ftp://example.com', 'https://', 'exa mple.com', 'https://example.com/a b', 'javascript:alert(1)']) expect(isWebsite(bad), bad).toBe(false);
  });
  it('trims tags, drops blanks and keeps the first spelling of duplicates', () => {
    expect(normalizeTags([' vip ', 'VIP', '', '  ', 'backup', 'vip'])).toEqual(['vip', 'backup']);
  });
  it('names the plan limit', () => {
    expect(clientPlanLimitMessage(10)).toBe('Your plan allows at most 10 clients.');
    expect(clientPlanLimitMessage(1)).toBe('Your plan allows at most 1 client.');
  });
});

describeEachDatabase('clients API', (t) => {
  it('answers 401 without a session on every endpoint, before looking at the body', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const client = await createClient(owner.agent, owner.tenantId, { name: 'Guarded' });
    const anon = new Agent(app);
    for (const [method, path, body] of [
      ['GET', clientsUrl(owner.tenantId)],
      ['POST', clientsUrl(owner.tenantId), {}],
      ['GET', clientsUrl(owner.tenantId, client.id)],
      ['PUT', clientsUrl(owner.tenantId, client.id), { name: 'x', status: 'active' }],
      ['DELETE', clientsUrl(owner.tenantId, client.id)],
    ] as const) {
      const res = await anon.request(method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.data).toEqual({ error: { code: 'unauthorized', message: 'You must be signed in' } });
    }
  });

  it('creates a client with every field, sets the server-owned ones itself and reads it back', async () => {
    const { app } = t();
    const owner = await registerOwner(app, { name: 'Olga Owner' });
    const body = {
      name: '  Globex Corporation ',
      description: 'Managed network and backups',
      contactName: 'Hank Scorpio',
      contactEmail: 'hank@globex.example',
      contactPhone: '+1 555 0100',
      address: '1 Cypress Creek',
      city: 'Cypress Creek',
      state: 'OR',
      zipCode: '97000',
      country: 'USA',
      website: 'https://www.globex.example',
      industry: 'Manufacturing',
      size: 'enterprise',
      status: 'pending',
      tags: [' vip ', 'VIP', 'backup', ''],
      customFields: { ' contract ': ' C-42 ', '': 'dropped', sla: '4h' },
    };
    const res = await owner.agent.post(clientsUrl(owner.tenantId), body);
    expect(res.statusCode).toBe(201);
    const c = res.data;
    expect(c).toMatchObject({
      tenantId: owner.tenantId,
      name: 'Globex Corporation',
      contactEmail: 'hank@globex.example',
      website: 'https://www.globex.example',
      size: 'enterprise',
      status: 'pending',
      tags: ['vip', 'backup'],
      customFields: { contract: 'C-42', sla: '4h' },
      createdBy: owner.userId,
      createdByName: 'Olga Owner',
    });
    expect(c.createdAt).toBe(c.updatedAt);
    expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
    const got = await owner.agent.get(clientsUrl(owner.tenantId, c.id));
    expect(got.statusCode).toBe(200);
    expect(got.data).toEqual(c);
  });

  it('stores only the name and status when nothing else is given, and empty optional fields as null', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const c = await createClient(owner.agent, owner.tenantId, { name: 'Bare', contactEmail: '', website: '', size: '', description: '   ' });
    expect(c).toMatchObject({ description: null, contactEmail: null, website: null, size: null, tags: [], customFields: {} });
  });

  it('stores the longest allowed values in wide characters, and refuses longer ones', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    // The name, contact name and email are copied into the list indexes; they must fit a PostgreSQL index entry.
    const wide = { name: '界'.repeat(100), contactName: 'Ж'.repeat(100), contactEmail: `${'界'.repeat(120)}@${'界'.repeat(120)}.com`, status: 'active' };
    const c = await createClient(owner.agent, owner.tenantId, wide);
    expect(c).toMatchObject({ name: wide.name, contactName: wide.contactName, contactEmail: wide.contactEmail });
    const found = await owner.agent.get(`${clientsUrl(owner.tenantId)}?search=${encodeURIComponent('жжж')}`);
    expect(found.data.items.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const tooLong = await owner.agent.post(clientsUrl(owner.tenantId), { ...wide, name: 'x'.repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.data.error.fields.name).toBe('Must be at most 100 characters');
  });

  it('ignores server-owned and unknown fields from the body on create and update', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const other = await registerOwner(env.app, { tenantName: 'Other MSP' });
    const forged = {
      id: 'forged-id',
      tenantId: other.tenantId,
      tenant_id: other.tenantId,
      createdBy: other.userId,
      created_by: other.userId,
      createdByName: 'Mallory',
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
      name_lower: 'zzz',
      search_text: 'zzz',
      isAdmin: true,
    };
    const res = await owner.agent.post(clientsUrl(owner.tenantId), { name: 'Honest', status: 'active', ...forged });
    expect(res.statusCode).toBe(201);
    expect(res.data.id).not.toBe('forged-id');
    expect(res.data).toMatchObject({ tenantId: owner.tenantId, createdBy: owner.userId, createdByName: 'Olivia Owner' });
    expect(res.data.createdAt > '2020').toBe(true);
    expect(res.data).not.toHaveProperty('isAdmin');
    const row = await env.deps.db.selectFrom('clients').selectAll().where('id', '=', res.data.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: owner.tenantId, created_by: owner.userId, name_lower: 'honest' });
    expect(row.search_text).not.toContain('zzz');
    expect(await env.deps.db.selectFrom('clients').select('id').where('tenant_id', '=', other.tenantId).execute()).toEqual([]);

    const upd = await owner.agent.put(clientsUrl(owner.tenantId, res.data.id), { name: 'Honest Ltd', status: 'inactive', ...forged });
    expect(upd.statusCode).toBe(200);
    expect(upd.data).toMatchObject({ id: res.data.id, tenantId: owner.tenantId, createdBy: owner.userId, createdAt: res.data.createdAt, name: 'Honest Ltd' });
    expect(upd.data.updatedAt >= res.data.updatedAt).toBe(true);
    expect(upd.data.updatedAt).not.toBe(forged.updatedAt);
  });

  describe('validation (spec section 5), on create and update', () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['missing name', { status: 'active' }, 'name', 'Client name is required'],
      ['blank name', { name: '   ', status: 'active' }, 'name', 'Client name is required'],
      ['name of the wrong type', { name: 42, status: 'active' }, 'name', 'Client name is required'],
      ['missing status', { name: 'A' }, 'status', 'Status is required'],
      ['empty status', { name: 'A', status: '' }, 'status', 'Status is required'],
      ['unknown status', { name: 'A', status: 'archived' }, 'status', 'Status is required'],
      ['contact email without @', { name: 'A', status: 'active', contactEmail: 'hank.globex.example' }, 'contactEmail', 'Invalid email address'],
      ['contact email without domain', { name: 'A', status: 'active', contactEmail: 'hank@globex' }, 'contactEmail', 'Invalid email address'],
      ['website that is not URL-like', { name: 'A', status: 'active', website: 'not a website' }, 'website', 'Invalid website URL'],
      ['website with another scheme', { name: 'A', status: 'active', website: 'ftp://globex.example' }, 'website', 'Invalid website URL'],
      ['size outside the list', { name: 'A', status: 'active', size: 'huge' }, 'size', 'Size must be small, medium, large or enterprise'],
      ['tags that are not a list', { name: 'A', status: 'active', tags: 'vip' }, 'tags', 'Tags must be a list of words'],
      ['custom field with a number value', { name: 'A', status: 'active', customFields: { seats: 5 } }, 'customFields.seats', 'Custom fields must be names with text values'],
      ['custom fields as a list', { name: 'A', status: 'active', customFields: ['a'] }, 'customFields', 'Custom fields must be names with text values'],
      ['a tag longer than 50 characters', { name: 'A', status: 'active', tags: ['x'.repeat(51)] }, 'tags.0', 'Tags must be at most 50 characters'],
      ['more than 50 tags', { name: 'A', status: 'active', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags', 'A client can have at most 50 tags'],
      [
        'more than 50 custom fields',
        { name: 'A', status: 'active', customFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        'customFields',
        'A client can have at most 50 custom fields',
      ],
      ['a custom field value over 1000 characters', { name: 'A', status: 'active', customFields: { k: 'v'.repeat(1001) } }, 'customFields.k', 'Custom field values must be at most 1000 characters'],
      ['a text field that is not text', { name: 'A', status: 'active', city: 42 }, 'city', 'Must be text'],
    ];
    for (const [what, body, field, message] of cases) {
      it(`refuses ${what} with '${message}'`, async () => {
        const { app } = t();
        const owner = await registerOwner(app);
        const existing = await createClient(owner.agent, owner.tenantId, { name: 'Existing' });
        for (const res of [await owner.agent.post(clientsUrl(owner.tenantId), body), await owner.agent.put(clientsUrl(owner.tenantId, existing.id), body)]) {
          expect(res.statusCode).toBe(400);
          expect(res.data.error).toMatchObject({ code: 'validation_failed', message });
          expect(res.data.error.fields[field]).toBe(message);
        }
        // Nothing was stored or changed.
        const list = await owner.agent.get(clientsUrl(owner.tenantId));
        expect(list.data.items.map((c: { name: string }) => c.name)).toEqual(['Existing']);
      });
    }

    it('reports every failing field, the first one (in the spec’s order) as the message', async () => {
      const { app } = t();
      const owner = await registerOwner(app);
      const res = await owner.agent.post(clientsUrl(owner.tenantId), { contactEmail: 'bad', website: 'bad', size: 'huge' });
      expect(res.statusCode).toBe(400);
      expect(res.data.error.message).toBe('Client name is required');
      expect(res.data.error.fields).toEqual({
        name: 'Client name is required',
        status: 'Status is required',
        contactEmail: 'Invalid email address',
        website: 'Invalid website URL',
        size: 'Size must be small, medium, large or enterprise',
      });
    });

    it('accepts every size, and websites with and without scheme and www', async () => {
      const { app } = t();
      const owner = await registerOwner(app);
      const sizes = ['small', 'medium', 'large', 'enterprise'];
      const sites = ['globex.example', 'www.globex.example', 'http://globex.example/contact', 'https://www.globex.example'];
      for (let i = 0; i < 4; i++) {
        const c = await createClient(owner.agent, owner.tenantId, { name: `Sized ${i}`, size: sizes[i], website: sites[i] });
        expect(c).toMatchObject({ size: sizes[i], website: sites[i] });
      }
    });
  });

  it('lets every member of the tenant create, edit and delete clients (spec section 6)', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const user = await addMember(env.deps, env.app, owner.tenantId, 'user');
    const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
    const byOwner = await createClient(owner.agent, owner.tenantId, { name: 'Made by owner' });
    const byUser = await createClient(user.agent, owner.tenantId, { name: 'Made by user' });
    expect(byUser.createdBy).toBe(user.userId);
    const edited = await user.agent.put(clientsUrl(owner.tenantId, byOwner.id), { name: 'Edited by user', status: 'inactive' });
    expect(edited.statusCode).toBe(200);
    expect(edited.data).toMatchObject({ name: 'Edited by user', status: 'inactive', createdBy: owner.userId });
    expect((await admin.agent.delete(clientsUrl(owner.tenantId, byUser.id))).data).toEqual({ ok: true });
    expect((await user.agent.delete(clientsUrl(owner.tenantId, byOwner.id))).statusCode).toBe(200);
    expect((await owner.agent.get(clientsUrl(owner.tenantId))).data.total).toBe(0);
  });

  it('answers 404 for another tenant, and for another tenant’s client exactly like a missing one', async () => {
    const env = t();
    const a = await registerOwner(env.app, { tenantName: 'Tenant A' });
    const b = await registerOwner(env.app, { tenantName: 'Tenant B' });
    const bClient = await createClient(b.agent, b.tenantId, { name: 'B secret', contactEmail: 'secret@b.example' });
    await createClient(a.agent, a.tenantId, { name: 'A visible' });

    // Through a's own tenant: b's client id is simply not there.
    const missing = await a.agent.get(clientsUrl(a.tenantId, 'no-such-client'));
    expect(missing.statusCode).toBe(404);
    expect(missing.data).toEqual({ error: { code: 'not_found', message: 'Client not found' } });
    for (const res of [
      await a.agent.get(clientsUrl(a.tenantId, bClient.id)),
      await a.agent.put(clientsUrl(a.tenantId, bClient.id), { name: 'Hijacked', status: 'inactive' }),
      await a.agent.delete(clientsUrl(a.tenantId, bClient.id)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(missing.data);
    }
    // Through b's tenant path: a is not a member, so the tenant answers like a tenant that does not exist.
    const noTenant = await a.agent.get(clientsUrl('no-such-tenant'));
    expect(noTenant.statusCode).toBe(404);
    for (const res of [
      await a.agent.get(clientsUrl(b.tenantId)),
      await a.agent.post(clientsUrl(b.tenantId), { name: 'Planted', status: 'active' }),
      await a.agent.get(clientsUrl(b.tenantId, bClient.id)),
      await a.agent.put(clientsUrl(b.tenantId, bClient.id), { name: 'Hijacked', status: 'inactive' }),
      await a.agent.delete(clientsUrl(b.tenantId, bClient.id)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data).toEqual(noTenant.data);
    }
    // b's client is untouched, and b's list holds only b's client.
    const still = await b.agent.get(clientsUrl(b.tenantId, bClient.id));
    expect(still.data).toEqual(bClient);
    const bList = await b.agent.get(clientsUrl(b.tenantId));
    expect(bList.data.items.map((c: { name: string }) => c.name)).toEqual(['B secret']);
    const aSearch = await a.agent.get(`${clientsUrl(a.tenantId)}?search=secret`);
    expect(aSearch.data).toMatchObject({ items: [], total: 0 });
  });

  it('answers 404 with the spec text when the client was deleted meanwhile', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const c = await createClient(owner.agent, owner.tenantId, { name: 'Short-lived' });
    expect((await owner.agent.delete(clientsUrl(owner.tenantId, c.id))).statusCode).toBe(200);
    for (const res of [
      await owner.agent.get(clientsUrl(owner.tenantId, c.id)),
      await owner.agent.put(clientsUrl(owner.tenantId, c.id), { name: 'Back', status: 'active' }),
      await owner.agent.delete(clientsUrl(owner.tenantId, c.id)),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data.error.message).toBe('Client not found');
    }
  });

  describe('plan limit', () => {
    it('refuses the client beyond the plan’s maxClients with a message naming the limit', async () => {
      const env = t();
      const owner = await registerOwner(env.app, { plan: 'trial' });
      const tenant = await env.deps.db.selectFrom('tenants').select('max_clients').where('id', '=', owner.tenantId).executeTakeFirstOrThrow();
      expect(tenant.max_clients).toBe(10);
      const made = [];
      for (let i = 0; i < 10; i++) made.push(await createClient(owner.agent, owner.tenantId, { name: `Client ${i}` }));
      const over = await owner.agent.post(clientsUrl(owner.tenantId), { name: 'One too many', status: 'active' });
      expect(over.statusCode).toBe(403);
      expect(over.data).toEqual({ error: { code: 'plan_limit', message: 'Your plan allows at most 10 clients.' } });
      // Edits are still allowed at the limit; a freed place can be taken again.
      expect((await owner.agent.put(clientsUrl(owner.tenantId, made[0].id), { name: 'Renamed', status: 'active' })).statusCode).toBe(200);
      await owner.agent.delete(clientsUrl(owner.tenantId, made[1].id));
      expect((await owner.agent.post(clientsUrl(owner.tenantId), { name: 'Takes the place', status: 'active' })).statusCode).toBe(201);
      expect((await owner.agent.get(clientsUrl(owner.tenantId))).data.total).toBe(10);
    });

    it('follows the tenant’s own limit, and concurrent creates never overshoot it', async () => {
      const env = t();
      const owner = await registerOwner(env.app);
      await setMaxClients(env, owner.tenantId, 3);
      await createClient(owner.agent, owner.tenantId, { name: 'First' });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => owner.agent.post(clientsUrl(owner.tenantId), { name: `Racer ${i}`, status: 'active' })));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
      const refused = results.filter((r) => r.statusCode === 403);
      expect(refused).toHaveLength(4);
      expect(refused[0].data.error.message).toBe('Your plan allows at most 3 clients.');
      expect((await owner.agent.get(clientsUrl(owner.tenantId))).data.total).toBe(3);
    });

    it('counts each tenant separately', async () => {
      const env = t();
      const a = await registerOwner(env.app);
      const b = await registerOwner(env.app);
      await setMaxClients(env, a.tenantId, 1);
      await createClient(b.agent, b.tenantId, { name: 'B one' });
      await createClient(b.agent, b.tenantId, { name: 'B two' });
      expect((await a.agent.post(clientsUrl(a.tenantId), { name: 'A one', status: 'active' })).statusCode).toBe(201);
      const over = await a.agent.post(clientsUrl(a.tenantId), { name: 'A two', status: 'active' });
      expect(over.data.error.message).toBe('Your plan allows at most 1 client.');
    });
  });
});
