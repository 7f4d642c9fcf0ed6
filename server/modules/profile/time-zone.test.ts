import { expect, it } from 'vitest';
import { PROFILE_MSG } from '../../../contract/profile.ts';
import { Agent, describeEachDatabase } from '../../test/test-app.ts';
import { registerOwner } from '../../test/factories.ts';
import { timeZonesOf } from '../users/users.service.ts';
import { storedTimeZone } from './time-zone.ts';

describeEachDatabase('profile time zone (issue 25)', (t) => {
  it('is null until set, and a profile save that leaves it out keeps it so', async () => {
    const owner = await registerOwner(t().app);
    expect((await owner.agent.get('/api/me')).data.user.timeZone).toBeNull();
    const renamed = await owner.agent.patch('/api/profile', { displayName: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data.user).toMatchObject({ displayName: 'Renamed', timeZone: null });
    expect((await owner.agent.get('/api/me')).data.user.timeZone).toBeNull();
  });

  it('saves a valid zone on its own or with the name, and /api/me and sign-in report it', async () => {
    const { app } = t();
    const owner = await registerOwner(app, { name: 'Zoe Zone' });
    expect((await new Agent(app).patch('/api/profile', { timeZone: 'Europe/Berlin' })).statusCode).toBe(401);

    const alone = await owner.agent.patch('/api/profile', { timeZone: 'Europe/Berlin' });
    expect(alone.statusCode).toBe(200);
    expect(alone.data.user).toMatchObject({ displayName: 'Zoe Zone', timeZone: 'Europe/Berlin' });
    expect((await owner.agent.get('/api/me')).data.user.timeZone).toBe('Europe/Berlin');

    const both = await owner.agent.patch('/api/profile', { displayName: 'Zoe Tokyo', timeZone: ' Asia/Tokyo ' });
    expect(both.data.user).toMatchObject({ displayName: 'Zoe Tokyo', timeZone: 'Asia/Tokyo' });
    const signIn = await new Agent(app).post('/api/auth/sign-in', { email: owner.email, password: owner.password });
    expect(signIn.data.user.timeZone).toBe('Asia/Tokyo');
    const row = await t().deps.db.selectFrom('users').select('time_zone').where('id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(row.time_zone).toBe('Asia/Tokyo');

    // Only the letter case is corrected; a name the runtime knows under another spelling is kept as chosen.
    expect((await owner.agent.patch('/api/profile', { timeZone: 'america/new_york' })).data.user.timeZone).toBe('America/New_York');
    expect((await owner.agent.patch('/api/profile', { timeZone: 'Asia/Kolkata' })).data.user.timeZone).toBe('Asia/Kolkata');
    expect((await owner.agent.patch('/api/profile', { timeZone: 'UTC' })).data.user.timeZone).toBe('UTC');
  });

  it('refuses anything but an IANA zone with 400 naming timeZone, and loses nothing already stored', async () => {
    const owner = await registerOwner(t().app, { name: 'Kept Name' });
    await owner.agent.patch('/api/profile', { timeZone: 'Europe/Lisbon' });
    const bad: unknown[] = ['Mars/Olympus', '+01:00', 'UTC+1', '', '   ', 'Europe/Berlin; drop table users', '../../etc/passwd', 'x'.repeat(65), null, 42, ['Europe/Paris']];
    for (const timeZone of bad) {
      const res = await owner.agent.patch('/api/profile', { timeZone });
      expect(res.statusCode, JSON.stringify(timeZone)).toBe(400);
      expect(res.data.error, JSON.stringify(timeZone)).toMatchObject({ message: PROFILE_MSG.timeZoneInvalid, fields: { timeZone: 'Choose a valid time zone' } });
    }
    // With a valid name beside it: the name is not saved either.
    const mixed = await owner.agent.patch('/api/profile', { displayName: 'Lost Name', timeZone: 'Atlantis/Capital' });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.data.error.fields).toEqual({ timeZone: PROFILE_MSG.timeZoneInvalid });
    expect((await owner.agent.get('/api/me')).data.user).toMatchObject({ displayName: 'Kept Name', timeZone: 'Europe/Lisbon' });
    const member = await t().deps.db.selectFrom('tenant_members').select('display_name').where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
    expect(member.display_name).toBe('Kept Name');
  });

  it("changes only the caller's own zone, whatever ids the body names", async () => {
    const { app } = t();
    const alice = await registerOwner(app, { name: 'Alice' });
    const bob = await registerOwner(app, { name: 'Bob' });
    await alice.agent.patch('/api/profile', { timeZone: 'Europe/Paris' });
    const res = await bob.agent.patch('/api/profile', { timeZone: 'Pacific/Auckland', displayName: 'Bob', id: alice.userId, userId: alice.userId });
    expect(res.statusCode).toBe(200);
    expect(res.data.user).toMatchObject({ id: bob.userId, timeZone: 'Pacific/Auckland' });
    expect((await alice.agent.get('/api/me')).data.user).toMatchObject({ id: alice.userId, displayName: 'Alice', timeZone: 'Europe/Paris' });
    expect((await bob.agent.get('/api/me')).data.user.timeZone).toBe('Pacific/Auckland');
  });

  it('timeZonesOf answers every id asked for, UTC where none is stored or known', async () => {
    const { app, deps } = t();
    const set = await registerOwner(app);
    const unset = await registerOwner(app);
    const stale = await registerOwner(app);
    await set.agent.patch('/api/profile', { timeZone: 'America/Chicago' });
    // A name an older runtime accepted and this one does not know.
    await deps.db.updateTable('users').set({ time_zone: 'Old/Gone' }).where('id', '=', stale.userId).execute();

    const zones = await timeZonesOf(deps.db, [set.userId, unset.userId, stale.userId, 'no-such-user', set.userId]);
    expect(Object.fromEntries(zones)).toEqual({ [set.userId]: 'America/Chicago', [unset.userId]: 'UTC', [stale.userId]: 'UTC', 'no-such-user': 'UTC' });
    expect((await timeZonesOf(deps.db, [])).size).toBe(0);

    // More ids than one statement reads.
    const many = [...Array.from({ length: 1200 }, (_, i) => `missing-${i}`), set.userId];
    const big = await timeZonesOf(deps.db, many);
    expect(big.size).toBe(1201);
    expect(big.get(set.userId)).toBe('America/Chicago');
  });
});

it('storedTimeZone: IANA names Luxon knows, in the runtime spelling of their letter case', () => {
  const cases: Array<[string, string | null]> = [
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['+01:00', null],
    ['-05:00', null],
    ['Mars/Olympus', null],
    ['', null],
    ['Europe/Berlin ', null],
    ['Europe//Berlin', null],
    [`Europe/${'x'.repeat(60)}`, null],
  ];
  for (const [name, stored] of cases) expect(storedTimeZone(name), name).toBe(stored);
});
