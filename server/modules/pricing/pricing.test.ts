import { expect, it } from 'vitest';
import { PRICING_SETTINGS_DEFAULTS } from '../../../contract/plans.ts';
import { type CreatePricingPlanBody } from '../../../contract/pricing.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner, superAdmin } from '../../test/factories.ts';

const plan = (over: Partial<CreatePricingPlanBody> = {}): CreatePricingPlanBody => ({
  name: 'Enterprise',
  description: 'For the largest MSPs',
  price: '$499/month',
  features: [{ id: 'basic_alerts', name: 'Basic alerts', description: 'Receive alerts', included: true }],
  maxUsers: 100,
  maxClients: 500,
  isDefault: false,
  isPublic: true,
  sortOrder: 10,
  ...over,
});

describeEachDatabase('pricing plans', (t) => {
  const ids = (res: { data: { items: { id: string }[] } }) => res.data.items.map((p) => p.id);

  it('lists the public plans by sort order for everybody and every plan for super admins', async () => {
    const { app, deps } = t();
    const anonymous = await new Agent(app).get('/api/pricingPlans');
    expect(anonymous.statusCode).toBe(200);
    expect(ids(anonymous)).toEqual(['trial', 'starter', 'growth', 'scale']);
    expect(anonymous.data.items[0]).toMatchObject({ isDefault: true, isPublic: true, price: 'Free for 14 days', maxUsers: 5, maxClients: 10 });

    const admin = await superAdmin(deps, app);
    const created = await admin.agent.post('/api/pricingPlans', plan({ name: 'Partner deal', isPublic: false, sortOrder: 2 }));
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ id: 'partner-deal', isPublic: false, isDefault: false });

    const owner = await registerOwner(app);
    expect(ids(await owner.agent.get('/api/pricingPlans'))).not.toContain('partner-deal');
    expect(ids(await new Agent(app).get('/api/pricingPlans'))).not.toContain('partner-deal');
    // Same sort order: by name, so the list is stable.
    expect(ids(await admin.agent.get('/api/pricingPlans'))).toEqual(['trial', 'starter', 'growth', 'partner-deal', 'scale']);

    // Hidden from the registration wizard too: nobody can sign up for it.
    const refused = await new Agent(app).post('/api/functions/registerUserWithTenant', {
      userData: { email: 'private-plan@example.com', password: 'secret123', displayName: 'Pat' },
      tenantData: { name: 'Pat MSP', plan: 'partner-deal' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.error.fields).toEqual({ 'tenantData.plan': 'Please select a plan' });
  });

  it('lets only super admins create plans, with validated fields', async () => {
    const { app, deps } = t();
    expect((await new Agent(app).post('/api/pricingPlans', plan())).statusCode).toBe(401);
    const owner = await registerOwner(app);
    const denied = await owner.agent.post('/api/pricingPlans', plan());
    expect(denied.statusCode).toBe(403);
    expect(denied.data.error.message).toBe('Only super admins can modify pricing plans');
    // Refused before validation: a non-admin learns nothing from field errors.
    expect((await owner.agent.post('/api/pricingPlans', { name: '' })).statusCode).toBe(403);

    const { agent } = await superAdmin(deps, app);
    const cases: [Partial<CreatePricingPlanBody>, string, string][] = [
      [{ name: '  ' }, 'name', 'Plan name is required'],
      [{ price: '' }, 'price', 'Price is required'],
      [{ maxUsers: 0 }, 'maxUsers', 'Max users must be a positive whole number'],
      [{ maxClients: 2.5 }, 'maxClients', 'Max clients must be a positive whole number'],
      [{ sortOrder: -1 }, 'sortOrder', 'Sort order must be a whole number of 0 or more'],
      [{ id: 'Bad Id!' }, 'id', 'Plan ID may contain only lowercase letters, digits, "-" and "_"'],
      [{ features: [{ id: 'x', name: '', description: '', included: true }] }, 'features.0.name', 'Feature name is required'],
    ];
    for (const [over, field, message] of cases) {
      const res = await agent.post('/api/pricingPlans', plan(over));
      expect(res.statusCode, field).toBe(400);
      expect(res.data.error.message).toBe(message);
      expect(res.data.error.fields[field]).toBe(message);
    }
    const dupFeatures = await agent.post('/api/pricingPlans', plan({ features: [{ id: 'a', name: 'A', description: '', included: true }, { id: 'a', name: 'B', description: '', included: false }] }));
    expect(dupFeatures.data.error.fields.features).toBe('Each feature must have a different ID');

    const first = await agent.post('/api/pricingPlans', plan({ name: 'Enterprise Plus' }));
    expect(first.data.id).toBe('enterprise-plus');
    const second = await agent.post('/api/pricingPlans', plan({ name: 'Enterprise Plus' }));
    expect(second.data.id).toBe('enterprise-plus-2');
    const taken = await agent.post('/api/pricingPlans', plan({ id: 'starter' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.data.error.fields).toEqual({ id: 'A plan with this ID already exists' });
    expect(first.data.features).toEqual([{ id: 'basic_alerts', name: 'Basic alerts', description: 'Receive alerts', included: true }]);
  });

  it('keeps exactly one default plan: saving one as default clears the others', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const defaults = async () => (await agent.get('/api/pricingPlans')).data.items.filter((p: { isDefault: boolean }) => p.isDefault).map((p: { id: string }) => p.id);

    const created = await agent.post('/api/pricingPlans', plan({ name: 'Premium', isDefault: true }));
    expect(created.statusCode).toBe(201);
    expect(await defaults()).toEqual(['premium']);

    const growth = (await agent.get('/api/pricingPlans')).data.items.find((p: { id: string }) => p.id === 'growth');
    const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = growth;
    const moved = await agent.put('/api/pricingPlans/growth', { ...fields, isDefault: true, maxUsers: 20 });
    expect(moved.statusCode).toBe(200);
    expect(moved.data).toMatchObject({ id: 'growth', isDefault: true, maxUsers: 20 });
    expect(await defaults()).toEqual(['growth']);

    // The default stays the default until another plan takes the flag; and it must stay public.
    const unset = await agent.put('/api/pricingPlans/growth', { ...fields, isDefault: false });
    expect(unset.statusCode).toBe(400);
    expect(unset.data.error.fields).toEqual({ isDefault: 'Make another plan the default instead' });
    const hidden = await agent.put('/api/pricingPlans/growth', { ...fields, isDefault: true, isPublic: false });
    expect(hidden.data.error.fields).toEqual({ isPublic: 'The default plan must be public' });
    expect(await defaults()).toEqual(['growth']);

    // Everybody sees the move: the wizard and the home page read the same list.
    const publicDefault = (await new Agent(app).get('/api/pricingPlans')).data.items.find((p: { isDefault: boolean }) => p.isDefault);
    expect(publicDefault.id).toBe('growth');

    expect((await agent.put('/api/pricingPlans/nope', fields)).statusCode).toBe(404);
    const owner = await registerOwner(app);
    const denied = await owner.agent.put('/api/pricingPlans/growth', fields);
    expect(denied.statusCode).toBe(403);
    expect(denied.data.error.message).toBe('Only super admins can modify pricing plans');
    expect((await new Agent(app).put('/api/pricingPlans/growth', fields)).statusCode).toBe(401);

    // Back to the seeded default so the next tests start from the spec's state.
    const trial = (await agent.get('/api/pricingPlans')).data.items.find((p: { id: string }) => p.id === 'trial');
    const { id: _i, createdAt: _cc, updatedAt: _uu, ...trialFields } = trial;
    expect((await agent.put('/api/pricingPlans/trial', { ...trialFields, isDefault: true })).statusCode).toBe(200);
    expect(await defaults()).toEqual(['trial']);
  });

  it('refuses to delete the default plan and deletes the others', async () => {
    const { app, deps } = t();
    const { agent } = await superAdmin(deps, app);
    const refused = await agent.delete('/api/pricingPlans/trial');
    expect(refused.statusCode).toBe(409);
    expect(refused.data.error.message).toBe('Cannot delete the default pricing plan');

    const doomed = (await agent.post('/api/pricingPlans', plan({ name: 'Doomed' }))).data;
    const owner = await registerOwner(app);
    const denied = await owner.agent.delete(`/api/pricingPlans/${doomed.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.data.error.message).toBe('Only super admins can delete pricing plans');
    expect((await new Agent(app).delete(`/api/pricingPlans/${doomed.id}`)).statusCode).toBe(401);

    expect((await agent.delete(`/api/pricingPlans/${doomed.id}`)).statusCode).toBe(200);
    expect(ids(await agent.get('/api/pricingPlans'))).not.toContain(doomed.id);
    expect((await agent.delete(`/api/pricingPlans/${doomed.id}`)).statusCode).toBe(404);
  });
});

describeEachDatabase('pricing settings', (t) => {
  const settings = { currency: 'eur', billingCycle: 'yearly', showYearlyDiscount: false, yearlyDiscountPercentage: 20, taxRate: 21, taxInclusive: false };

  it('answers the defaults of spec section 9 until a super admin saves them', async () => {
    const { app, deps } = t();
    const res = await new Agent(app).get('/api/settings/pricing');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ ...PRICING_SETTINGS_DEFAULTS, updatedAt: null });
    expect(res.data).toMatchObject({ currency: 'USD', billingCycle: 'monthly', showYearlyDiscount: true, yearlyDiscountPercentage: 15, taxInclusive: true });

    expect((await new Agent(app).put('/api/settings/pricing', settings)).statusCode).toBe(401);
    const owner = await registerOwner(app);
    const denied = await owner.agent.put('/api/settings/pricing', settings);
    expect(denied.statusCode).toBe(403);
    expect(denied.data.error.message).toBe('Only super admins can update pricing settings');

    const { agent } = await superAdmin(deps, app);
    const bad = await agent.put('/api/settings/pricing', { ...settings, currency: 'EURO' });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error.fields).toEqual({ currency: 'Currency must be a three-letter code such as USD' });
    const badPct = await agent.put('/api/settings/pricing', { ...settings, yearlyDiscountPercentage: 101 });
    expect(badPct.data.error.fields).toEqual({ yearlyDiscountPercentage: 'Enter a percentage between 0 and 100' });

    const saved = await agent.put('/api/settings/pricing', settings);
    expect(saved.statusCode).toBe(200);
    expect(saved.data).toMatchObject({ ...settings, currency: 'EUR' });
    expect(saved.data.updatedAt).toEqual(expect.any(String));
    expect((await new Agent(app).get('/api/settings/pricing')).data).toEqual(saved.data);
    const row = await deps.db.selectFrom('settings').selectAll().where('key', '=', 'pricing').executeTakeFirstOrThrow();
    expect(JSON.parse(row.value)).toMatchObject({ currency: 'EUR', taxRate: 21 });
  });
});
