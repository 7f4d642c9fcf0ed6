import { describe, expect, it } from 'vitest';
import { Agent, describeEachDatabase, type TestEnv } from '../../test/test-app.ts';
import { addMember, registerOwner, uniqueEmail } from '../../test/factories.ts';
import { memberAbilities, memberChangeRefusal } from './members.policy.ts';

/** The invitation token out of the last mail to `email` (the MemoryMailer keeps what the server sent). */
function linkToken(env: TestEnv, email: string) {
  const mail = env.mailer.last(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const m = mail.text.match(/\/invitations\/([A-Za-z0-9_%-]+)/);
  if (!m) throw new Error(`no invitation link in: ${mail.text}`);
  return decodeURIComponent(m[1]);
}

async function invite(owner: { agent: Agent; tenantId: string }, email: string, role: 'user' | 'admin' = 'user') {
  const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email, role });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  return res.data.member as { id: string; email: string; status: string };
}

describe('member policy (pure)', () => {
  const tenant = { owner_id: 'owner' };
  it('refuses owners and oneself, lets managers change everyone else', () => {
    const admin = { userId: 'a', role: 'admin' as const };
    expect(memberChangeRefusal(admin, tenant, { user_id: 'owner', role: 'admin', status: 'active' }, 'edit')).toBe('Owners cannot be edited or removed');
    expect(memberChangeRefusal(admin, tenant, { user_id: 'x', role: 'owner', status: 'active' }, 'remove')).toBe('Owners cannot be edited or removed');
    expect(memberChangeRefusal(admin, tenant, { user_id: 'a', role: 'admin', status: 'active' }, 'edit')).toBe('You cannot change your own role');
    expect(memberChangeRefusal(admin, tenant, { user_id: 'a', role: 'admin', status: 'active' }, 'remove')).toBe('You cannot remove yourself from this organization');
    expect(memberChangeRefusal(admin, tenant, { user_id: 'b', role: 'admin', status: 'active' }, 'remove')).toBeNull();
    expect(memberChangeRefusal({ userId: 'u', role: 'user' }, tenant, { user_id: 'b', role: 'user', status: 'active' }, 'edit')).toBe('You do not have permission to do this');
  });
  it('offers resend and revoke for invitations, edit and remove for other members', () => {
    const owner = { userId: 'owner', role: 'owner' as const };
    expect(memberAbilities(owner, tenant, { user_id: null, role: 'user', status: 'invited' })).toEqual({ edit: true, remove: false, resend: true, revoke: true });
    expect(memberAbilities(owner, tenant, { user_id: 'b', role: 'user', status: 'active' })).toEqual({ edit: true, remove: true, resend: false, revoke: false });
    expect(memberAbilities(owner, tenant, { user_id: 'owner', role: 'owner', status: 'active' })).toEqual({ edit: false, remove: false, resend: false, revoke: false });
  });
});

describeEachDatabase('tenant members and invitations', (t) => {
  it('answers 401 without a session, 404 for another tenant, 403 for a plain user, 400 for bad input', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app);
    const other = await registerOwner(app, { tenantName: 'Other MSP' });
    const user = await addMember(deps, app, owner.tenantId, 'user');
    const target = await addMember(deps, app, owner.tenantId, 'user');
    const targetId = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.find((m: { userId: string }) => m.userId === target.userId).id;
    const base = `/api/tenants/${owner.tenantId}`;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `${base}/members`],
      ['GET', `${base}/details`],
      ['POST', `${base}/members`, { email: uniqueEmail(), role: 'user' }],
      ['PATCH', `${base}/members/${targetId}`, { role: 'admin' }],
      ['PUT', `${base}/members/${targetId}`, { role: 'admin' }],
      ['DELETE', `${base}/members/${targetId}`],
      ['POST', `${base}/members/${targetId}/resend`, {}],
    ];
    const anonymous = new Agent(app);
    for (const [method, url, body] of calls) {
      expect((await anonymous.request(method as 'GET', url, body)).statusCode, `${method} ${url}`).toBe(401);
      const cross = await other.agent.request(method as 'GET', url, body);
      expect(cross.statusCode, `${method} ${url}`).toBe(404);
      expect(cross.data.error.message).toBe('Not found');
      const plain = await user.agent.request(method as 'GET', url, body);
      expect(plain.statusCode, `${method} ${url}`).toBe(403);
    }
    const noEmail = await owner.agent.post(`${base}/members`, { email: '', role: 'user' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.data.error).toMatchObject({ message: 'Email is required', fields: { email: 'Email is required' } });
    const badEmail = await owner.agent.post(`${base}/members`, { email: 'not-an-email' });
    expect(badEmail.data.error.fields).toEqual({ email: 'Invalid email address' });
    const owners = await owner.agent.post(`${base}/members`, { email: uniqueEmail(), role: 'owner' });
    expect(owners.statusCode).toBe(400);
    expect(owners.data.error.fields).toEqual({ role: 'Role must be User or Admin' });
    const badRole = await owner.agent.patch(`${base}/members/${targetId}`, { role: 'superAdmin' });
    expect(badRole.data.error.fields).toEqual({ role: 'Role must be User or Admin' });
    // A member of another tenant answers exactly like a missing one.
    const foreign = (await other.agent.get(`/api/tenants/${other.tenantId}/members`)).data.items[0].id;
    const missing = await owner.agent.patch(`${base}/members/${foreign}`, { role: 'admin' });
    expect(missing.statusCode).toBe(404);
    expect(missing.data.error.message).toBe('User not found in tenant');
    expect((await owner.agent.delete(`${base}/members/nope`)).data.error.message).toBe('User not found in tenant');
  });

  it('lists members and pending invitations with the actions the caller may take, and the tenant details', async () => {
    const { app, deps } = t();
    const owner = await registerOwner(app, { name: 'Olivia Owner', tenantName: 'Listing MSP', plan: 'growth' });
    const admin = await addMember(deps, app, owner.tenantId, 'admin');
    const pendingEmail = uniqueEmail('pending');
    await invite(owner, pendingEmail.toUpperCase(), 'admin');
    const list = await admin.agent.get(`/api/tenants/${owner.tenantId}/members`);
    expect(list.statusCode).toBe(200);
    expect(list.data).toMatchObject({ total: 3, page: 1, pageSize: 100 });
    const [o, a, p] = list.data.items;
    expect(o).toMatchObject({ email: owner.email, displayName: 'Olivia Owner', role: 'owner', status: 'active', isSelf: false, abilities: { edit: false, remove: false } });
    expect(a).toMatchObject({ userId: admin.userId, role: 'admin', isSelf: true, abilities: { edit: false, remove: false }, invitationExpiresAt: null });
    expect(p).toMatchObject({ email: pendingEmail, userId: null, role: 'admin', status: 'invited', joinedAt: null, abilities: { edit: true, remove: false, resend: true, revoke: true } });
    const days = (new Date(p.invitationExpiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const details = await owner.agent.get(`/api/tenants/${owner.tenantId}/details`);
    expect(details.data).toMatchObject({ name: 'Listing MSP', plan: 'growth', planName: 'Growth', maxUsers: 15, maxClients: 25, seatsUsed: 3 });
    const paged = await owner.agent.get(`/api/tenants/${owner.tenantId}/members?pageSize=2&page=2`);
    expect(paged.data.items.map((m: { email: string }) => m.email)).toEqual([pendingEmail]);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/members?pageSize=101`)).statusCode).toBe(400);
  });

  it('invites a new person who joins from the link with a name and password, once', async () => {
    const env = t();
    const owner = await registerOwner(env.app, { name: 'Olivia Owner', tenantName: 'Invite MSP' });
    const email = uniqueEmail('newbie');
    // The role defaults to User.
    const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ emailSent: true, member: { email, role: 'user', status: 'invited' } });
    const mail = env.mailer.last(email);
    expect(mail.subject).toBe("You're invited to join Invite MSP on Alertdesk");
    expect(mail.text).toContain('Olivia Owner invited you to join Invite MSP on Alertdesk as User.');
    expect(mail.text).toContain('http://localhost:3000/invitations/');
    const token = linkToken(env, email);
    const stored = await env.deps.db.selectFrom('member_invitations').selectAll().execute();
    expect(stored.some((r) => r.token_hash === token)).toBe(false);

    const visitor = new Agent(env.app);
    const preview = await visitor.get(`/api/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.data).toMatchObject({ tenantName: 'Invite MSP', email, role: 'user', invitedByName: 'Olivia Owner', accountExists: false });

    const noName = await visitor.post(`/api/invitations/${token}/register`, { displayName: ' ', password: 'secret123' });
    expect(noName.data.error).toMatchObject({ message: 'Name is required', fields: { displayName: 'Name is required' } });
    const short = await visitor.post(`/api/invitations/${token}/register`, { displayName: 'Nina New', password: '123' });
    expect(short.data.error.fields).toEqual({ password: 'Password must be at least 6 characters' });

    const joined = await visitor.post(`/api/invitations/${token}/register`, { displayName: 'Nina New', password: 'secret123' });
    expect(joined.statusCode).toBe(200);
    expect(joined.data).toMatchObject({ tenantId: owner.tenantId, tenantName: 'Invite MSP' });
    const me = await visitor.get('/api/me');
    expect(me.data.user).toMatchObject({ email, displayName: 'Nina New' });
    expect(me.data.tenants).toEqual([expect.objectContaining({ id: owner.tenantId, role: 'user' })]);
    expect(me.data.pendingInvitations).toEqual([]);
    // She signs in with the password she chose.
    expect((await new Agent(env.app).post('/api/auth/sign-in', { email, password: 'secret123' })).statusCode).toBe(200);

    // The link works once.
    for (const [method, url, body] of [
      ['GET', `/api/invitations/${token}`],
      ['POST', `/api/invitations/${token}/register`, { displayName: 'Again', password: 'secret123' }],
      ['POST', `/api/invitations/${token}/accept`, {}],
      ['POST', `/api/invitations/${token}/decline`, {}],
    ] as const) {
      const again = await visitor.request(method, url, body);
      expect(again.statusCode, url).toBe(404);
      expect(again.data.error.message).toBe('This invitation link is invalid or has expired');
    }
    const row = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.find((m: { email: string }) => m.email === email);
    expect(row).toMatchObject({ status: 'active', displayName: 'Nina New', invitationExpiresAt: null });
    // Account, sign-in and membership are one moment.
    expect(row.joinedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(row.joinedAt).toBe(joined.data.me.user.lastSignInAt);
  });

  it('lets an existing account accept from the link, only the invited address, and shows it after sign-in', async () => {
    const env = t();
    const owner = await registerOwner(env.app, { tenantName: 'Existing MSP' });
    const invitee = await registerOwner(env.app, { name: 'Ian Invitee', tenantName: 'Ian MSP' });
    const stranger = await registerOwner(env.app, { tenantName: 'Stranger MSP' });
    const member = await invite(owner, invitee.email.toUpperCase(), 'admin');
    const token = linkToken(env, invitee.email);
    expect((await new Agent(env.app).get(`/api/invitations/${token}`)).data.accountExists).toBe(true);
    const register = await new Agent(env.app).post(`/api/invitations/${token}/register`, { displayName: 'Imposter', password: 'secret123' });
    expect(register.statusCode).toBe(409);
    expect(register.data.error.message).toBe('An account with this email already exists. Sign in to accept the invitation.');

    expect((await new Agent(env.app).post(`/api/invitations/${token}/accept`, {})).statusCode).toBe(401);
    const wrong = await stranger.agent.post(`/api/invitations/${token}/accept`, {});
    expect(wrong.statusCode).toBe(403);
    expect(wrong.data.error.message).toBe('This invitation was sent to a different email address. Sign in with that address to accept it.');
    expect((await stranger.agent.get('/api/me')).data.pendingInvitations).toEqual([]);

    // Signed in with a proven address, the invitee sees it in /api/me without the link.
    await env.deps.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', invitee.userId).execute();
    const me = await invitee.agent.get('/api/me');
    expect(me.data.pendingInvitations).toEqual([
      expect.objectContaining({ id: member.id, tenantId: owner.tenantId, tenantName: 'Existing MSP', role: 'admin', invitedByName: 'Olivia Owner' }),
    ]);
    const accepted = await invitee.agent.post(`/api/invitations/${token}/accept`, {});
    expect(accepted.statusCode).toBe(200);
    expect(accepted.data).toEqual({ tenantId: owner.tenantId, tenantName: 'Existing MSP' });
    const after = (await invitee.agent.get('/api/me')).data;
    expect(after.pendingInvitations).toEqual([]);
    expect(after.tenants.find((x: { id: string }) => x.id === owner.tenantId)).toMatchObject({ role: 'admin', abilities: { manageMembers: true } });
    expect((await invitee.agent.get(`/api/tenants/${owner.tenantId}/members`)).statusCode).toBe(200);
    expect((await invitee.agent.post(`/api/invitations/${token}/accept`, {})).statusCode).toBe(404);
  });

  it('accepts or declines from the after-sign-in list, for the invited address only', async () => {
    const env = t();
    const owner = await registerOwner(env.app, { tenantName: 'Banner MSP' });
    const a = await registerOwner(env.app, { tenantName: 'A MSP' });
    const b = await registerOwner(env.app, { tenantName: 'B MSP' });
    const forA = await invite(owner, a.email);
    const forB = await invite(owner, b.email);
    expect((await new Agent(env.app).post(`/api/me/invitations/${forA.id}/accept`, {})).statusCode).toBe(401);
    const notHers = await b.agent.post(`/api/me/invitations/${forA.id}/accept`, {});
    expect(notHers.statusCode).toBe(404);
    expect(notHers.data.error.message).toBe('This invitation link is invalid or has expired');
    const linkForA = linkToken(env, a.email);
    // Nobody proved reading these mailboxes yet (sign-up does not verify addresses): only the emailed link works.
    const unverified = await a.agent.post(`/api/me/invitations/${forA.id}/accept`, {});
    expect(unverified.statusCode).toBe(403);
    expect(unverified.data.error.message).toBe('To answer this invitation, open the link we emailed you.');
    expect((await b.agent.post(`/api/me/invitations/${forB.id}/decline`, {})).statusCode).toBe(403);
    expect((await a.agent.get('/api/me')).data.user.emailVerified).toBe(false);
    // A followed password-reset link proves the mailbox, as does Google sign-in.
    for (const who of [a, b]) {
      await new Agent(env.app).post('/api/auth/password-reset', { email: who.email });
      const token = decodeURIComponent(env.mailer.last(who.email).text.match(/token=([^\s]+)/)![1]);
      expect((await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: who.password })).statusCode).toBe(200);
      await who.agent.post('/api/auth/sign-in', { email: who.email, password: who.password });
    }
    expect((await a.agent.get('/api/me')).data.user.emailVerified).toBe(true);
    expect((await a.agent.post(`/api/me/invitations/${forA.id}/accept`, {})).data).toEqual({ tenantId: owner.tenantId, tenantName: 'Banner MSP' });
    expect((await a.agent.get(`/api/tenants/${owner.tenantId}/notification-preferences`)).statusCode).toBe(200);
    // The emailed link of an invitation accepted this way is spent too.
    expect((await new Agent(env.app).get(`/api/invitations/${linkForA}`)).statusCode).toBe(404);

    expect((await b.agent.post(`/api/me/invitations/${forB.id}/decline`, {})).statusCode).toBe(200);
    expect((await b.agent.get('/api/me')).data.pendingInvitations).toEqual([]);
    const emails = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.map((m: { email: string }) => m.email);
    expect(emails).toContain(a.email);
    expect(emails).not.toContain(b.email);
  });

  it('refuses an expired link and hides the expired invitation; resend gives a new link and kills the old one', async () => {
    const env = t();
    const owner = await registerOwner(env.app, { tenantName: 'Expiry MSP' });
    const invitee = await registerOwner(env.app, { tenantName: 'Late MSP' });
    await env.deps.db.updateTable('users').set({ email_verified_at: new Date().toISOString() }).where('id', '=', invitee.userId).execute();
    const member = await invite(owner, invitee.email);
    const first = linkToken(env, invitee.email);
    await env.deps.db.updateTable('member_invitations').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('member_id', '=', member.id).execute();
    const expired = await invitee.agent.post(`/api/invitations/${first}/accept`, {});
    expect(expired.statusCode).toBe(404);
    expect(expired.data.error.message).toBe('This invitation link is invalid or has expired');
    expect((await invitee.agent.get('/api/me')).data.pendingInvitations).toEqual([]);
    expect((await invitee.agent.post(`/api/me/invitations/${member.id}/accept`, {})).statusCode).toBe(404);
    const listed = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.find((m: { id: string }) => m.id === member.id);
    expect(new Date(listed.invitationExpiresAt).getTime()).toBeLessThan(Date.now());

    const resent = await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {});
    expect(resent.statusCode).toBe(200);
    expect(resent.data.emailSent).toBe(true);
    expect(new Date(resent.data.member.invitationExpiresAt).getTime()).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);
    const second = linkToken(env, invitee.email);
    expect(second).not.toBe(first);
    expect((await invitee.agent.get('/api/me')).data.pendingInvitations).toHaveLength(1);

    // A second resend replaces the link again: the previous live one stops working.
    await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {});
    const third = linkToken(env, invitee.email);
    expect((await invitee.agent.post(`/api/invitations/${second}/accept`, {})).statusCode).toBe(404);
    expect((await invitee.agent.post(`/api/invitations/${third}/accept`, {})).statusCode).toBe(200);
    const done = await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {});
    expect(done.statusCode).toBe(409);
    expect(done.data.error.message).toBe('This user has already accepted the invitation');
  });

  it('limits resends of one invitation', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const member = await invite(owner, uniqueEmail('spam'));
    // The invitation mail itself counts: four more are allowed within the hour.
    for (let i = 0; i < 4; i++) expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {})).statusCode).toBe(200);
    const blocked = await owner.agent.post(`/api/tenants/${owner.tenantId}/members/${member.id}/resend`, {});
    expect(blocked.statusCode).toBe(429);
    expect(blocked.data.error.message).toBe('Too many invitation emails to this address. Please try again later.');
  });

  it('revokes a pending invitation: its link stops working and the seat is free again', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const email = uniqueEmail('revoked');
    const member = await invite(owner, email);
    const token = linkToken(env, email);
    expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${member.id}`)).statusCode).toBe(200);
    expect((await new Agent(env.app).get(`/api/invitations/${token}`)).statusCode).toBe(404);
    const res = await new Agent(env.app).post(`/api/invitations/${token}/register`, { displayName: 'Too Late', password: 'secret123' });
    expect(res.statusCode).toBe(404);
    expect(await env.deps.db.selectFrom('member_invitations').selectAll().where('member_id', '=', member.id).execute()).toEqual([]);
    // Declining from the link removes the invitation as well.
    const again = await invite(owner, email);
    expect((await new Agent(env.app).post(`/api/invitations/${linkToken(env, email)}/decline`, {})).statusCode).toBe(200);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.some((m: { id: string }) => m.id === again.id)).toBe(false);
  });

  it('says "User already exists in this tenant" for a member or an invitation, whatever the case', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const member = await addMember(env.deps, env.app, owner.tenantId);
    for (const email of [owner.email.toUpperCase(), member.email.replace(/^./, (c) => c.toUpperCase())]) {
      const res = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email, role: 'user' });
      expect(res.statusCode).toBe(409);
      expect(res.data.error).toMatchObject({ message: 'User already exists in this tenant', fields: { email: 'User already exists in this tenant' } });
    }
    const pending = uniqueEmail('twice');
    await invite(owner, pending);
    expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: pending.toUpperCase() })).data.error.message).toBe('User already exists in this tenant');
    // Two invitations of one address at the same moment: one wins, the other is told it exists.
    const racing = uniqueEmail('race');
    const results = await Promise.all([0, 1].map(() => owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: racing })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it("refuses invitations beyond the plan's Max Users, counting pending invitations, and names the limit", async () => {
    const env = t();
    const owner = await registerOwner(env.app, { plan: 'starter' }); // 5 users
    await addMember(env.deps, env.app, owner.tenantId);
    const invited = [];
    for (let i = 0; i < 3; i++) invited.push(await invite(owner, uniqueEmail('seat')));
    const full = await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: uniqueEmail('extra') });
    expect(full.statusCode).toBe(409);
    expect(full.data.error.message).toBe('This organization has reached its limit of 5 users (members and pending invitations). Remove a user or revoke an invitation, or move to a larger plan.');
    expect(full.data.error.message).toContain('limit of 5 users');
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/details`)).data.seatsUsed).toBe(5);
    await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${invited[0].id}`);
    expect((await owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: uniqueEmail('extra') })).statusCode).toBe(201);
    // Concurrent invitations into the last free seat: only one gets it.
    await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${invited[1].id}`);
    const race = await Promise.all([0, 1, 2].map(() => owner.agent.post(`/api/tenants/${owner.tenantId}/members`, { email: uniqueEmail('race') })));
    expect(race.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect((await owner.agent.get(`/api/tenants/${owner.tenantId}/details`)).data.seatsUsed).toBe(5);
  });

  it('never edits or removes an owner or oneself, also when asked directly', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const admin = await addMember(env.deps, env.app, owner.tenantId, 'admin');
    const items = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items;
    const ownerRow = items.find((m: { userId: string }) => m.userId === owner.userId);
    const adminRow = items.find((m: { userId: string }) => m.userId === admin.userId);
    const base = `/api/tenants/${owner.tenantId}/members`;
    const cases: Array<[Agent, 'patch' | 'delete', string, string]> = [
      [admin.agent, 'patch', ownerRow.id, 'Owners cannot be edited or removed'],
      [admin.agent, 'delete', ownerRow.id, 'Owners cannot be edited or removed'],
      [owner.agent, 'patch', ownerRow.id, 'Owners cannot be edited or removed'],
      [owner.agent, 'delete', ownerRow.id, 'Owners cannot be edited or removed'],
      [admin.agent, 'patch', adminRow.id, 'You cannot change your own role'],
      [admin.agent, 'delete', adminRow.id, 'You cannot remove yourself from this organization'],
    ];
    for (const [agent, method, id, message] of cases) {
      const res = method === 'patch' ? await agent.patch(`${base}/${id}`, { role: 'user' }) : await agent.delete(`${base}/${id}`);
      expect(res.statusCode).toBe(403);
      expect(res.data.error.message).toBe(message);
    }
    const after = (await owner.agent.get(base)).data.items;
    expect(after.find((m: { id: string }) => m.id === ownerRow.id).role).toBe('owner');
    expect(after.find((m: { id: string }) => m.id === adminRow.id).role).toBe('admin');
  });

  it('changes a role with effect on the very next request', async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const member = await addMember(env.deps, env.app, owner.tenantId, 'user');
    const id = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.find((m: { userId: string }) => m.userId === member.userId).id;
    expect((await member.agent.get(`/api/tenants/${owner.tenantId}/members`)).statusCode).toBe(403);
    const promoted = await owner.agent.patch(`/api/tenants/${owner.tenantId}/members/${id}`, { role: 'admin' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.data).toMatchObject({ id, role: 'admin' });
    expect((await member.agent.get(`/api/tenants/${owner.tenantId}/members`)).statusCode).toBe(200);
    expect((await member.agent.get('/api/me')).data.tenants.find((x: { id: string }) => x.id === owner.tenantId).abilities.manageMembers).toBe(true);
    expect((await owner.agent.put(`/api/tenants/${owner.tenantId}/members/${id}`, { role: 'user' })).data.role).toBe('user');
    expect((await member.agent.get(`/api/tenants/${owner.tenantId}/members`)).statusCode).toBe(403);
    // The role of a pending invitation can change too, and the invitee joins with it.
    const email = uniqueEmail('later');
    const pending = await invite(owner, email, 'user');
    await owner.agent.patch(`/api/tenants/${owner.tenantId}/members/${pending.id}`, { role: 'admin' });
    const joined = new Agent(env.app);
    await joined.post(`/api/invitations/${linkToken(env, email)}/register`, { displayName: 'Later', password: 'secret123' });
    expect((await joined.get('/api/me')).data.tenants[0].role).toBe('admin');
  });

  it("removes a member: their next request to the tenant is refused, their subscriptions there go", async () => {
    const env = t();
    const owner = await registerOwner(env.app);
    const member = await addMember(env.deps, env.app, owner.tenantId, 'admin');
    const prefsUrl = `/api/tenants/${owner.tenantId}/notification-preferences`;
    const saved = await member.agent.get(prefsUrl);
    expect(saved.statusCode).toBe(200);
    await member.agent.put(prefsUrl, { ...saved.data, alertSubscriptions: [{ type: 'priority', value: 'critical' }] });
    const id = (await owner.agent.get(`/api/tenants/${owner.tenantId}/members`)).data.items.find((m: { userId: string }) => m.userId === member.userId).id;
    expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${id}`)).statusCode).toBe(200);
    const refused = await member.agent.get(prefsUrl);
    expect(refused.statusCode).toBe(404);
    expect((await member.agent.get(`/api/tenants/${owner.tenantId}/members`)).statusCode).toBe(404);
    expect((await member.agent.get('/api/me')).data.tenants.map((x: { id: string }) => x.id)).not.toContain(owner.tenantId);
    const subs = await env.deps.db.selectFrom('alert_subscriptions').selectAll().where('tenant_id', '=', owner.tenantId).where('user_id', '=', member.userId).execute();
    expect(subs).toEqual([]);
    // The removed person keeps their account and their own tenant.
    expect((await member.agent.get('/api/me')).statusCode).toBe(200);
  });

  it('shows pending invitations in /api/me only to an address the account has proven', async () => {
    const env = t();
    const owner = await registerOwner(env.app, { name: 'Secret Inviter', tenantName: 'Secret MSP' });
    const address = uniqueEmail('invitee');
    await invite(owner, address, 'admin');
    // Someone signs up with the invitee's address (sign-up does not verify it): nothing about the invitation shows.
    const squatter = await registerOwner(env.app, { email: address, tenantName: 'Squatter MSP' });
    const me = (await squatter.agent.get('/api/me')).data;
    expect(me.user.emailVerified).toBe(false);
    expect(me.pendingInvitations).toEqual([]);
    expect(JSON.stringify(me)).not.toMatch(/Secret MSP|Secret Inviter/);
    // Once the address is proven (here by a followed reset link), the invitation is listed.
    await new Agent(env.app).post('/api/auth/password-reset', { email: address });
    const token = decodeURIComponent(env.mailer.last(address).text.match(/token=([^\s]+)/)![1]);
    expect((await new Agent(env.app).post('/api/auth/password-reset/confirm', { token, password: 'proven-123' })).statusCode).toBe(200);
    const proven = new Agent(env.app);
    expect((await proven.post('/api/auth/sign-in', { email: address, password: 'proven-123' })).statusCode).toBe(200);
    expect((await proven.get('/api/me')).data.pendingInvitations).toEqual([
      expect.objectContaining({ tenantId: owner.tenantId, tenantName: 'Secret MSP', role: 'admin', invitedByName: 'Secret Inviter' }),
    ]);
  });
});
