import { beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { addMember, registerOwner, superAdmin } from '../../test/factories.ts';
import { openEventStream, sleep } from '../../test/alerts.ts';
import { MAX_STREAMS_PER_USER } from './alert-stream.ts';

/** Waits until the server has ended `stream` (well under the 25 s heartbeat, which only re-checks as a safety net). */
async function endedSoon(stream: { ended(): boolean }, ms = 3000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (stream.ended()) return true;
    await sleep(20);
  }
  return false;
}

describeEachDatabase('live streams end when access ends', (t) => {
  beforeAll(async () => {
    await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const eventsUrl = (tenantId: string) => `/api/tenants/${tenantId}/events`;

  it('ends the stream of a session that signs out, and only that one', async () => {
    const owner = await registerOwner(t().app);
    const otherTab = new Agent(t().app);
    await otherTab.post('/api/auth/sign-in', { email: owner.email, password: owner.password });
    const signingOut = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
    const staying = await openEventStream(t().app, eventsUrl(owner.tenantId), otherTab.cookie);
    try {
      expect(signingOut.status()).toBe(200);
      expect((await owner.agent.post('/api/auth/sign-out')).statusCode).toBe(200);
      expect(await endedSoon(signingOut)).toBe(true);
      await sleep(100);
      expect(staying.ended()).toBe(false);
    } finally {
      signingOut.close();
      staying.close();
    }
  });

  it('ends a removed member’s stream of that tenant at once', async () => {
    const owner = await registerOwner(t().app);
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const row = await t().deps.db.selectFrom('tenant_members').select('id').where('tenant_id', '=', owner.tenantId).where('user_id', '=', member.userId).executeTakeFirstOrThrow();
    const memberStream = await openEventStream(t().app, eventsUrl(owner.tenantId), member.agent.cookie);
    // The member's own tenant is not touched by being removed from another.
    const ownTenantStream = await openEventStream(t().app, eventsUrl(member.tenantId), member.agent.cookie);
    const ownerStream = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
    try {
      expect(memberStream.status()).toBe(200);
      expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${row.id}`)).statusCode).toBe(200);
      expect(await endedSoon(memberStream)).toBe(true);
      await sleep(100);
      expect(ownTenantStream.ended()).toBe(false);
      expect(ownerStream.ended()).toBe(false);
    } finally {
      memberStream.close();
      ownTenantStream.close();
      ownerStream.close();
    }
  });

  it('ends the other sessions’ streams after a password change, keeping the changing one', async () => {
    const owner = await registerOwner(t().app);
    const laptop = new Agent(t().app);
    await laptop.post('/api/auth/sign-in', { email: owner.email, password: owner.password });
    const laptopStream = await openEventStream(t().app, eventsUrl(owner.tenantId), laptop.cookie);
    const ownStream = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
    try {
      const res = await owner.agent.post('/api/profile/password', { currentPassword: owner.password, newPassword: 'another-secret-9', confirmPassword: 'another-secret-9' });
      expect(res.statusCode).toBe(200);
      expect(await endedSoon(laptopStream)).toBe(true);
      await sleep(100);
      expect(ownStream.ended()).toBe(false);
    } finally {
      laptopStream.close();
      ownStream.close();
    }
  });

  it('ends every stream of an account whose password is reset from a mailed link', async () => {
    const owner = await registerOwner(t().app);
    const stream = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
    try {
      expect((await new Agent(t().app).post('/api/auth/password-reset', { email: owner.email })).statusCode).toBe(200);
      const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(t().mailer.last(owner.email)!.text)![1]);
      const res = await new Agent(t().app).post('/api/auth/password-reset/confirm', { token, password: 'brand-new-secret-1' });
      expect(res.statusCode).toBe(200);
      expect(await endedSoon(stream)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('ends every stream of a tenant a super admin deletes', async () => {
    const owner = await registerOwner(t().app);
    const admin = await superAdmin(t().deps, t().app);
    const stream = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
    try {
      expect((await admin.agent.delete(`/api/tenants/${owner.tenantId}`)).statusCode).toBe(200);
      expect(await endedSoon(stream)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it(`refuses more than ${MAX_STREAMS_PER_USER} open streams per user with 429, and accepts again once one closes`, async () => {
    const owner = await registerOwner(t().app);
    const streams = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie));
      expect(streams.every((s) => s.status() === 200)).toBe(true);
      const refused = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
      expect(refused.status()).toBe(429);
      refused.close();
      const body = await t().app.inject({ method: 'GET', url: eventsUrl(owner.tenantId), headers: { cookie: owner.agent.cookie! } });
      expect(body.statusCode).toBe(429);
      expect(body.json().error).toEqual({ code: 'rate_limited', message: 'Too many live connections are open for this account. Close some tabs and try again.' });
      // Another user of the same tenant is not affected.
      const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
      const other = await openEventStream(t().app, eventsUrl(owner.tenantId), member.agent.cookie);
      expect(other.status()).toBe(200);
      other.close();
      streams.pop()!.close();
      await sleep(100);
      const again = await openEventStream(t().app, eventsUrl(owner.tenantId), owner.agent.cookie);
      expect(again.status()).toBe(200);
      streams.push(again);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('ends a removed member’s stream held by another server instance', async () => {
    // Only PostgreSQL is shared by several instances; SQLite runs as one process.
    if (t().db.name !== 'postgres') return;
    const owner = await registerOwner(t().app);
    const member = await addMember(t().deps, t().app, owner.tenantId, 'user');
    const row = await t().deps.db.selectFrom('tenant_members').select('id').where('tenant_id', '=', owner.tenantId).where('user_id', '=', member.userId).executeTakeFirstOrThrow();
    const second = await buildApp({ ...t().config }, { logger: false });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const stream = await openEventStream(second.app, eventsUrl(owner.tenantId), member.agent.cookie);
      expect(stream.status()).toBe(200);
      await sleep(300); // the second instance's LISTEN connection settles
      expect((await owner.agent.delete(`/api/tenants/${owner.tenantId}/members/${row.id}`)).statusCode).toBe(200);
      expect(await endedSoon(stream)).toBe(true);
      stream.close();
    } finally {
      await second.app.close();
    }
  });
});
