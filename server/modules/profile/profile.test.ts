import { expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../../contract/profile.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, insertClient, registerOwner } from '../../test/factories.ts';
import { expectTimeSince } from '../../test/expect.ts';

const subscription = (endpoint: string) => ({
  token: { endpoint, expirationTime: null, keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } },
});

describeEachDatabase('profile and settings', (t) => {
  it('changes the display name everywhere it is shown, and never the email', async () => {
    const { app } = t();
    const owner = await registerOwner(app, { name: 'Old Name' });
    expect((await new Agent(app).patch('/api/profile', { displayName: 'X' })).statusCode).toBe(401);
    const empty = await owner.agent.patch('/api/profile', { displayName: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.error).toMatchObject({ message: 'Display name cannot be empty', fields: { displayName: 'Display name cannot be empty' } });
    const missing = await owner.agent.patch('/api/profile', {});
    expect(missing.data.error.message).toBe('Display name cannot be empty');
    const long = await owner.agent.patch('/api/profile', { displayName: 'n'.repeat(121) });
    expect(long.data.error).toMatchObject({ message: 'Display name must be at most 120 characters', fields: { displayName: 'Display name must be at most 120 characters' } });
    const email = await owner.agent.patch('/api/profile', { displayName: 'New Name', email: 'other@example.com' });
    expect(email.statusCode).toBe(400);
    expect(email.data.error).toMatchObject({ message: 'Email cannot be changed', fields: { email: 'Email cannot be changed' } });

    const ok = await owner.agent.patch('/api/profile', { displayName: '  New Name ', email: owner.email.toUpperCase() });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.user).toMatchObject({ displayName: 'New Name', email: owner.email });
    expect((await owner.agent.get('/api/me')).data.user.displayName).toBe('New Name');
    const members = await owner.agent.get(`/api/tenants/${owner.tenantId}/members`);
    expect(members.data.items[0].displayName).toBe('New Name');
    const row = await t().deps.db.selectFrom('tenant_members').select('display_name').where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(row.display_name).toBe('New Name');
  });

  it('changes the password with the current one and ends the other sessions only', async () => {
    const { app } = t();
    const owner = await registerOwner(app, { password: 'first-pass' });
    const laptop = new Agent(app);
    expect((await laptop.post('/api/auth/sign-in', { email: owner.email, password: 'first-pass' })).statusCode).toBe(200);
    const phone = new Agent(app);
    await phone.post('/api/auth/sign-in', { email: owner.email, password: 'first-pass' });

    expect((await new Agent(app).post('/api/profile/password', { currentPassword: 'x', newPassword: 'y', confirmPassword: 'y' })).statusCode).toBe(401);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ currentPassword: '', newPassword: 'second-pass', confirmPassword: 'second-pass' }, 'currentPassword', 'Current password is required'],
      [{ currentPassword: 'first-pass', newPassword: '', confirmPassword: '' }, 'newPassword', 'Password is required'],
      [{ currentPassword: 'first-pass', newPassword: '12345', confirmPassword: '12345' }, 'newPassword', 'Password must be at least 6 characters'],
      [{ currentPassword: 'first-pass', newPassword: 'second-pass', confirmPassword: 'second-pasz' }, 'confirmPassword', 'Passwords do not match'],
      [{ currentPassword: 'wrong-pass', newPassword: 'second-pass', confirmPassword: 'second-pass' }, 'currentPassword', 'Current password is incorrect'],
    ];
    for (const [body, field, message] of cases) {
      const res = await laptop.post('/api/profile/password', body);
      expect(res.statusCode, message).toBe(400);
      expect(res.data.error.message).toBe(message);
      expect(res.data.error.fields[field]).toBe(message);
    }
    const ok = await laptop.post('/api/profile/password', { currentPassword: 'first-pass', newPassword: 'second-pass', confirmPassword: 'second-pass' });
    expect(ok.statusCode).toBe(200);
    expect((await laptop.get('/api/me')).statusCode).toBe(200);
    expect((await phone.get('/api/me')).statusCode).toBe(401);
    expect((await owner.agent.get('/api/me')).statusCode).toBe(401);
    const fresh = new Agent(app);
    expect((await fresh.post('/api/auth/sign-in', { email: owner.email, password: 'first-pass' })).statusCode).toBe(401);
    expect((await fresh.post('/api/auth/sign-in', { email: owner.email, password: 'second-pass' })).statusCode).toBe(200);
  });

  it('slows down guessing the current password', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    for (let i = 0; i < 5; i++) {
      expect((await owner.agent.post('/api/profile/password', { currentPassword: `guess-${i}`, newPassword: 'second-pass', confirmPassword: 'second-pass' })).statusCode).toBe(400);
    }
    const blocked = await owner.agent.post('/api/profile/password', { currentPassword: owner.password, newPassword: 'second-pass', confirmPassword: 'second-pass' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.data.error.message).toBe('Too many attempts. Please try again later.');
  });

  it('refuses a password change for an account without a password (Google sign-in)', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app);
    await deps.db.updateTable('users').set({ password_hash: null }).where('id', '=', owner.userId).execute();
    const res = await owner.agent.post('/api/profile/password', { currentPassword: 'anything', newPassword: 'second-pass', confirmPassword: 'second-pass' });
    expect(res.statusCode).toBe(400);
    expect(res.data.error.message).toBe('Your account signs in with Google and has no password yet. Use the password reset email to set one.');
  });

  it('gives the defaults of spec section 9 to a user who never saved, then keeps what they save', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app);
    const url = `/api/tenants/${owner.tenantId}/notification-preferences`;
    const first = await owner.agent.get(url);
    expect(first.statusCode).toBe(200);
    expect(first.data).toEqual({ ...DEFAULT_NOTIFICATION_PREFERENCES, updatedAt: null });
    expect(first.data).toMatchObject({
      email: { enabled: true, alertNotifications: true, weeklyDigest: true, systemUpdates: false },
      sms: { enabled: false, alertTypes: ['critical', 'high'] },
      push: { enabled: true },
    });

    const web = await insertClient(deps.db, owner.tenantId, 'Globex');
    const body = {
      email: { enabled: true, alertNotifications: false, weeklyDigest: false, systemUpdates: true },
      sms: { enabled: true, alertTypes: ['critical', 'critical', 'medium'] },
      push: { enabled: false },
      phoneNumber: '+1 (415) 555-0123',
      alertSubscriptions: [
        { type: 'client', id: web },
        { type: 'priority', value: 'high' },
        { type: 'tag', value: ' Database ' },
        { type: 'tag', value: 'database' },
      ],
    };
    const before = Date.now();
    const saved = await owner.agent.put(url, body);
    expect(saved.statusCode).toBe(200);
    expect(saved.data).toMatchObject({
      email: body.email,
      sms: { enabled: true, alertTypes: ['critical', 'medium'] },
      push: { enabled: false },
      phoneNumber: '+14155550123',
      alertSubscriptions: [
        { type: 'client', id: web, name: 'Globex' },
        { type: 'priority', value: 'high' },
        { type: 'tag', value: 'database' },
      ],
    });
    expectTimeSince(saved.data.updatedAt, before);
    const again = await owner.agent.get(url);
    expect(again.data).toEqual(saved.data);

    // A deleted client drops out of the subscriptions.
    await deps.db.deleteFrom('clients').where('id', '=', web).execute();
    expect((await owner.agent.get(url)).data.alertSubscriptions).toEqual([
      { type: 'priority', value: 'high' },
      { type: 'tag', value: 'database' },
    ]);
  });

  it('keeps channel settings per user and subscriptions per tenant', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app, { tenantName: 'First' });
    const member = await addMember(deps, app, owner.tenantId, 'user');
    const mine = `/api/tenants/${member.tenantId}/notification-preferences`;
    const theirs = `/api/tenants/${owner.tenantId}/notification-preferences`;
    const defaults = (await member.agent.get(mine)).data;
    await member.agent.put(mine, { ...defaults, push: { enabled: false }, alertSubscriptions: [{ type: 'priority', value: 'info' }] });
    const inOther = (await member.agent.get(theirs)).data;
    expect(inOther.push.enabled).toBe(false);
    expect(inOther.alertSubscriptions).toEqual([]);
    // The owner's own preferences are untouched.
    expect((await owner.agent.get(theirs)).data.push.enabled).toBe(true);
  });

  it('validates preferences: E.164 phone, phone for SMS, clients of this tenant only, known priorities', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app);
    const other = await registerOwner(app, { tenantName: 'Other' });
    const foreignClient = await insertClient(deps.db, other.tenantId, 'Not yours');
    const url = `/api/tenants/${owner.tenantId}/notification-preferences`;
    const base = { ...DEFAULT_NOTIFICATION_PREFERENCES };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...base, phoneNumber: '4155550123' }, 'phoneNumber', 'Enter the phone number in international format, e.g. +14155550123'],
      [{ ...base, phoneNumber: '+0123' }, 'phoneNumber', 'Enter the phone number in international format, e.g. +14155550123'],
      [{ ...base, phoneNumber: '+1234567890123456' }, 'phoneNumber', 'Enter the phone number in international format, e.g. +14155550123'],
      [{ ...base, sms: { enabled: true, alertTypes: ['critical'] }, phoneNumber: '' }, 'phoneNumber', 'A phone number is required for SMS notifications'],
      [{ ...base, alertSubscriptions: [{ type: 'tag', value: '  ' }] }, 'alertSubscriptions.0.value', 'Tag cannot be empty'],
      [{ ...base, alertSubscriptions: [{ type: 'tag', value: 't'.repeat(51) }] }, 'alertSubscriptions.0.value', 'Tags are at most 50 characters'],
      [{ ...base, alertSubscriptions: [{ type: 'priority', value: 'urgent' }] }, 'alertSubscriptions.0.value', ''],
      [{ ...base, sms: { enabled: false, alertTypes: ['urgent'] } }, 'sms.alertTypes.0', ''],
      [{ ...base, alertSubscriptions: [{ type: 'priority', value: 'low' }, { type: 'client', id: foreignClient }] }, 'alertSubscriptions.1.id', 'Client not found'],
    ];
    for (const [body, field, message] of cases) {
      const res = await owner.agent.put(url, body);
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.data.error.fields ?? {}), JSON.stringify(res.data)).toContain(field);
      if (message) expect(res.data.error.message).toBe(message);
    }
    expect((await owner.agent.get(url)).data.updatedAt).toBeNull();
    const noPhone = await owner.agent.put(url, { ...base, phoneNumber: '' });
    expect(noPhone.statusCode).toBe(200);
    expect(noPhone.data.phoneNumber).toBeNull();
  });

  it('answers 401 without a session and 404 for another tenant on preferences', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const other = await registerOwner(app);
    const url = `/api/tenants/${owner.tenantId}/notification-preferences`;
    expect((await new Agent(app).get(url)).statusCode).toBe(401);
    expect((await new Agent(app).put(url, DEFAULT_NOTIFICATION_PREFERENCES)).statusCode).toBe(401);
    const cross = await other.agent.get(url);
    expect(cross.statusCode).toBe(404);
    expect(cross.data.error.message).toBe('Not found');
    expect((await other.agent.put(url, DEFAULT_NOTIFICATION_PREFERENCES)).statusCode).toBe(404);
  });

  it('stores browser push subscriptions under the user (userTokens)', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    const other = await registerOwner(app);
    expect((await new Agent(app).post('/api/userTokens', subscription('https://push.example.com/a'))).statusCode).toBe(401);
    const empty = await owner.agent.get('/api/userTokens');
    expect(empty.data).toEqual({ userId: owner.userId, tokens: [], createdAt: null, updatedAt: null });
    const bad = await owner.agent.post('/api/userTokens', subscription('javascript:alert(1)'));
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error.message).toBe('Invalid push subscription');
    expect((await owner.agent.post('/api/userTokens', { token: { endpoint: 'https://push.example.com/x' } })).statusCode).toBe(400);
    // The server POSTs to this URL on every page: nothing but a public address.
    for (const endpoint of ['https://127.0.0.1/push', 'https://localhost:8443/push', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.5/push', 'https://[::1]/push']) {
      const refused = await owner.agent.post('/api/userTokens', subscription(endpoint));
      expect(refused.statusCode, endpoint).toBe(400);
      expect(refused.data.error.fields).toEqual({ 'token.endpoint': 'The push service of this subscription is not at a public address' });
    }

    const saved = await owner.agent.post('/api/userTokens', subscription('https://push.example.com/a'));
    expect(saved.statusCode).toBe(200);
    expect(saved.data.tokens).toEqual([expect.objectContaining({ endpoint: 'https://push.example.com/a' })]);
    expect(JSON.stringify(saved.data)).not.toContain('p256dh');
    await owner.agent.post('/api/userTokens', subscription('https://push.example.com/a'));
    await owner.agent.post('/api/userTokens', subscription('https://push.example.com/b'));
    expect((await owner.agent.get('/api/userTokens')).data.tokens.map((x: { endpoint: string }) => x.endpoint)).toEqual(['https://push.example.com/a', 'https://push.example.com/b']);
    // The same browser signed in as someone else moves to them.
    await other.agent.post('/api/userTokens', subscription('https://push.example.com/b'));
    expect((await owner.agent.get('/api/userTokens')).data.tokens.map((x: { endpoint: string }) => x.endpoint)).toEqual(['https://push.example.com/a']);
    const removed = await owner.agent.delete(`/api/userTokens?endpoint=${encodeURIComponent('https://push.example.com/a')}`);
    expect(removed.data.tokens).toEqual([]);
    expect((await other.agent.get('/api/userTokens')).data.tokens).toHaveLength(1);
  });

  it('keeps at most 20 push subscriptions per user, dropping the oldest', async () => {
    const { app } = t();
    const owner = await registerOwner(app);
    await owner.agent.post('/api/userTokens', subscription('https://push.example.com/n0'));
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 1; i <= 20; i++) await owner.agent.post('/api/userTokens', subscription(`https://push.example.com/n${i}`));
    const tokens = (await owner.agent.get('/api/userTokens')).data.tokens.map((x: { endpoint: string }) => x.endpoint);
    expect(tokens).toHaveLength(20);
    expect(tokens).not.toContain('https://push.example.com/n0');
  });
});
