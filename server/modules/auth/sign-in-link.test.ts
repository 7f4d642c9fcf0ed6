import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { createMailer, type Mailer } from '../../notifications/mailer.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { startTestApp, testDatabases, type TestDatabase } from '../../test/test-app.ts';
import { registerOwner, uniqueEmail } from '../../test/factories.ts';

// Written out here letter for letter, not imported: a changed wording must fail this file.
const THROTTLED = 'Too many failed sign-in attempts for this email. Try again later, or sign in with a one-time link we email you.';
const SENT = (email: string) => `If an account exists for ${email}, we sent a sign-in link. It works once, for 15 minutes.`;
const INVALID = 'This sign-in link is not valid. Ask for a new one on the sign-in page.';
const EXPIRED = 'This sign-in link has expired. Ask for a new one on the sign-in page.';
const USED = 'This sign-in link has already been used. Ask for a new one on the sign-in page.';

/** One browser at one client address (as the socket sees it), keeping its own session cookie. */
class Browser {
  cookie: string | null = null;
  constructor(
    readonly app: FastifyInstance,
    readonly ip: string,
  ) {}

  async post(url: string, body: unknown) {
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.ip,
      headers: { origin: 'http://localhost:3000', 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
      payload: JSON.stringify(body),
    });
    const set = res.cookies.find((c) => c.name === 'alertdesk_session');
    if (set) this.cookie = set.value ? `alertdesk_session=${set.value}` : null;
    return Object.assign(res, { data: res.json() });
  }

  async get(url: string) {
    const res = await this.app.inject({ method: 'GET', url, remoteAddress: this.ip, headers: this.cookie ? { cookie: this.cookie } : {} });
    return Object.assign(res, { data: res.body ? res.json() : null });
  }

  signIn = (email: string, password: string) => this.post('/api/auth/sign-in', { email, password });
  askLink = (email: string) => this.post('/api/auth/sign-in-link', { email });
  preview = (token: string) => this.post('/api/auth/sign-in-link/preview', { token });
  useLink = (token: string) => this.post('/api/auth/sign-in-link/use', { token });
}

/**
 * A fresh app over `db` whose mails go to a real SMTP server. The mailer is the real one behind a valve the test may
 * close (`hold()`), to show that an answer does not wait for its mail; `asked` lists every recipient handed to it.
 */
function useAppWithMail(db: TestDatabase, overrides: Partial<Config> = {}) {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  let env: Awaited<ReturnType<typeof startTestApp>> | undefined;
  let valve: Promise<void> = Promise.resolve();
  let release = () => {};
  const asked: string[] = [];
  beforeAll(async () => {
    smtp = await startSmtpServer();
    const real = createMailer({ smtpUrl: smtp.url, from: 'Alertdesk <no-reply@alertdesk.test>', log: { info: () => {} } });
    const mailer: Mailer = {
      async send(mail) {
        asked.push(mail.to);
        await valve;
        await real.send(mail);
      },
      // Closed with the app: its pooled connections would otherwise keep the SMTP server's close waiting (30 s).
      close: () => real.close?.(),
    };
    env = await startTestApp(db, { smtpUrl: smtp.url, ...overrides }, mailer);
  });
  afterAll(async () => {
    release();
    await env?.close();
    await smtp?.close();
  });
  const must = <T>(x: T | undefined) => {
    if (!x) throw new Error('test app not started');
    return x;
  };
  return {
    app: () => must(env).app,
    env: () => must(env),
    smtp: () => must(smtp),
    asked,
    hold() {
      valve = new Promise((resolve) => (release = resolve));
    },
    open() {
      release();
      valve = Promise.resolve();
    },
    /** The mails received for `to`, oldest first, with soft line breaks undone. */
    mailsTo(to: string) {
      const s = must(smtp);
      return s.received.map((m, i) => ({ to: m.to, raw: m.raw, text: s.text(i) })).filter((m) => m.to.includes(to));
    },
  };
}

const tokenIn = (text: string) => decodeURIComponent(text.match(/\/sign-in-link\?token=([A-Za-z0-9_%-]+)/)![1]);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

for (const db of testDatabases()) {
  describe(`sign-in lockout and the one-time sign-in link, default limits [${db.name}]`, () => {
    const t = useAppWithMail(db);

    it('66 wrong passwords from 11 addresses throttle the account; the owner gets in from a new address through a mailed link', async () => {
      const owner = await registerOwner(t.app());
      // The attack of issue 25: six guesses from each of eleven addresses, 66 in all. An address is stopped after five of
      // its own, and the account after 50 failures over all of them.
      const answers: number[] = [];
      for (let a = 1; a <= 11; a++) {
        const attacker = new Browser(t.app(), `203.0.113.${a}`);
        for (let i = 0; i < 6; i++) answers.push((await attacker.signIn(owner.email, `guess-${a}-${i}`)).statusCode);
      }
      expect(answers).toHaveLength(66);
      expect(answers.filter((s) => s === 401)).toHaveLength(50);
      expect(answers.filter((s) => s === 429)).toHaveLength(16);

      // The owner, with the right password, from an address the account never used: refused, with the code the page acts on.
      const home = new Browser(t.app(), '192.0.2.50');
      const refused = await home.signIn(owner.email, owner.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.data.error).toEqual({ code: 'account_throttled', message: THROTTLED });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(home.cookie).toBeNull();

      // The owner asks for a link; it arrives at the SMTP server.
      const asked = await home.askLink(owner.email.toUpperCase());
      expect(asked.statusCode).toBe(200);
      expect(asked.data).toEqual({ ok: true, message: SENT(owner.email) });
      await expect.poll(() => t.mailsTo(owner.email).length).toBe(1);
      const mail = t.mailsTo(owner.email)[0];
      expect(mail.raw).toMatch(/^Subject: Your Alertdesk sign-in link\r?$/m);
      expect(mail.text).toMatch(/it works once, for 15 minutes \(until \d\d:\d\d UTC on \d{4}-\d\d-\d\d\)/);
      expect(mail.text).toContain('http://localhost:3000/sign-in-link?token=');
      const token = tokenIn(mail.text);

      // Only the token's hash is stored; the link lasts 15 minutes.
      const row = await t.env().deps.db.selectFrom('sign_in_links').selectAll().where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(15 * 60_000);

      // Opening the link (the page, then its preview) does not use it: mail scanners follow links.
      await home.get(`/sign-in-link?token=${encodeURIComponent(token)}`);
      for (let i = 0; i < 2; i++) {
        const preview = await home.preview(token);
        expect(preview.statusCode).toBe(200);
        expect(preview.data).toEqual({ email: owner.email, expiresAt: row.expires_at });
      }
      expect(home.cookie).toBeNull();

      // Using it signs the owner in, while the account is still throttled, with a session cookie like a password's.
      const used = await home.useLink(token);
      expect(used.statusCode).toBe(200);
      expect(used.data.user).toMatchObject({ email: owner.email, emailVerified: true });
      expect(String(used.headers['set-cookie'])).toMatch(/HttpOnly/i);
      expect(String(used.headers['set-cookie'])).toMatch(/SameSite=Lax/i);
      const me = await home.get('/api/me');
      expect(me.statusCode).toBe(200);
      expect(me.data.user.email).toBe(owner.email);
      const session = await t.env().deps.db.selectFrom('sessions').select('ip').where('user_id', '=', owner.userId).where('ip', '=', home.ip).execute();
      expect(session).toHaveLength(1);

      // A replay is refused, and so is its preview; the first session stays.
      const replay = await new Browser(t.app(), '192.0.2.51').useLink(token);
      expect(replay.statusCode).toBe(410);
      expect(replay.data.error).toEqual({ code: 'sign_in_link_used', message: USED });
      expect((await home.preview(token)).statusCode).toBe(410);
      expect((await home.get('/api/me')).statusCode).toBe(200);

      // The throttle still holds for every other new address, not for the owner's: they hold a live session from there.
      expect((await new Browser(t.app(), '192.0.2.52').signIn(owner.email, owner.password)).data.error.code).toBe('account_throttled');
      expect((await new Browser(t.app(), home.ip).signIn(owner.email, owner.password)).statusCode).toBe(200);
    });
  });

  describe(`the one-time sign-in link, small limits [${db.name}]`, () => {
    // Five failures from anywhere throttle an account; three from one address stop that address for that account.
    const t = useAppWithMail(db, { signInLimit: { perAccount: 3, perIp: 100, perAccountTotal: 5, windowMs: 60_000 } });

    /** Fails `n` sign-ins of `email` from `ip`. */
    const fail = async (email: string, ip: string, n: number) => {
      for (let i = 0; i < n; i++) await new Browser(t.app(), ip).signIn(email, `guess-${i}`);
    };
    /** Asks for a link and reads its token out of the mail it brings. */
    const linkFor = async (email: string, ip = '198.51.100.200') => {
      const before = t.mailsTo(email).length;
      expect((await new Browser(t.app(), ip).askLink(email)).statusCode).toBe(200);
      await expect.poll(() => t.mailsTo(email).length).toBe(before + 1);
      return tokenIn(t.mailsTo(email)[before].text);
    };

    it('answers a throttled email without an account exactly as a throttled account', async () => {
      const owner = await registerOwner(t.app());
      const nobody = uniqueEmail('nobody');
      for (const email of [owner.email, nobody]) {
        await fail(email, '203.0.113.1', 3);
        await fail(email, '203.0.113.2', 2);
      }
      const real = await new Browser(t.app(), '192.0.2.10').signIn(owner.email, owner.password);
      const none = await new Browser(t.app(), '192.0.2.10').signIn(nobody, 'whatever');
      for (const res of [real, none]) {
        expect(res.statusCode).toBe(429);
        expect(res.data.error).toEqual({ code: 'account_throttled', message: THROTTLED });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(real.body).toBe(none.body);
    });

    it('answers an email without an account the same 200, mails nothing, and never waits for a mail', async () => {
      const owner = await registerOwner(t.app());
      const nobody = uniqueEmail('nobody');
      t.hold();
      try {
        const none = await new Browser(t.app(), '198.51.100.1').askLink(nobody);
        const real = await new Browser(t.app(), '198.51.100.1').askLink(owner.email);
        // Both answered while the owner's mail is still held back: the answer does not wait for it, so its time does not
        // tell the two apart.
        expect(t.mailsTo(owner.email)).toHaveLength(0);
        for (const [res, email] of [[none, nobody], [real, owner.email]] as const) {
          expect(res.statusCode).toBe(200);
          expect(res.data).toEqual({ ok: true, message: SENT(email) });
        }
        await expect.poll(() => t.asked.includes(owner.email)).toBe(true);
      } finally {
        t.open();
      }
      // The owner's mail arrives; the request for nobody (made first) never reached the mailer.
      await expect.poll(() => t.mailsTo(owner.email).length).toBe(1);
      expect(t.asked).not.toContain(nobody);
      expect(t.mailsTo(nobody)).toHaveLength(0);
    });

    it('refuses an unknown, a malformed and an expired link with their own messages, and signs nobody in', async () => {
      const owner = await registerOwner(t.app());
      const browser = new Browser(t.app(), '192.0.2.20');
      const unknown = await browser.useLink('x'.repeat(43));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.data.error).toEqual({ code: 'sign_in_link_invalid', message: INVALID });
      expect((await browser.preview('x'.repeat(43))).statusCode).toBe(404);
      const short = await browser.useLink('abc');
      expect(short.statusCode).toBe(400);
      expect(short.data.error.message).toBe(INVALID);

      const token = await linkFor(owner.email);
      await t.env().deps.db.updateTable('sign_in_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('user_id', '=', owner.userId).execute();
      for (const res of [await browser.preview(token), await browser.useLink(token)]) {
        expect(res.statusCode).toBe(400);
        expect(res.data.error).toEqual({ code: 'sign_in_link_expired', message: EXPIRED });
      }
      expect(browser.cookie).toBeNull();
      expect((await browser.get('/api/me')).statusCode).toBe(401);
    });

    it('is not held back by the failure counters, and starts the count of the address it was used from afresh', async () => {
      const owner = await registerOwner(t.app());
      const cafe = new Browser(t.app(), '192.0.2.30');
      // This address is stopped for this account (three failures), and the account is throttled (five in all).
      await fail(owner.email, cafe.ip, 3);
      await fail(owner.email, '203.0.113.30', 2);
      expect((await cafe.signIn(owner.email, owner.password)).data.error.code).toBe('rate_limited');
      const token = await linkFor(owner.email);
      expect((await cafe.useLink(token)).statusCode).toBe(200);
      // The address's own count started over: a mistyped password is a plain 401 again, not a 429.
      const typo = await new Browser(t.app(), cafe.ip).signIn(owner.email, 'typo-typo');
      expect(typo.statusCode).toBe(401);
      // Every other open link of the account was spent with it.
      const open = await t.env().deps.db.selectFrom('sign_in_links').select('id').where('user_id', '=', owner.userId).where('used_at', 'is', null).execute();
      expect(open).toEqual([]);
    });

    it('lets exactly one of two uses of a link at the same moment in', async () => {
      const owner = await registerOwner(t.app());
      const token = await linkFor(owner.email);
      const [a, b] = await Promise.all([new Browser(t.app(), '192.0.2.60').useLink(token), new Browser(t.app(), '192.0.2.61').useLink(token)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 410]);
      const sessions = await t.env().deps.db.selectFrom('sessions').select('ip').where('user_id', '=', owner.userId).where('ip', 'in', ['192.0.2.60', '192.0.2.61']).execute();
      expect(sessions).toHaveLength(1);
    });

    it('mails an account at most three links a window, whichever addresses ask; every one of them still works', async () => {
      const owner = await registerOwner(t.app());
      const tokens = [];
      for (let i = 1; i <= 3; i++) tokens.push(await linkFor(owner.email, `198.51.100.${10 + i}`));
      // A fourth: the same answer, and no mail.
      const fourth = await new Browser(t.app(), '198.51.100.14').askLink(owner.email);
      expect(fourth.statusCode).toBe(200);
      expect(fourth.data).toEqual({ ok: true, message: SENT(owner.email) });
      // Another account's mail, asked afterwards, arrives; the owner's fourth never went to the mailer.
      const other = await registerOwner(t.app());
      await linkFor(other.email, '198.51.100.15');
      expect(t.asked.filter((to) => to === owner.email)).toHaveLength(3);
      expect(t.mailsTo(owner.email)).toHaveLength(3);
      // Asking for links cannot lock the owner out: the first link of the window is still good.
      expect(new Set(tokens).size).toBe(3);
      const browser = new Browser(t.app(), '192.0.2.40');
      expect((await browser.useLink(tokens[0])).statusCode).toBe(200);
      expect((await browser.get('/api/me')).data.user.email).toBe(owner.email);
    });

    it('answers 429 to an address beyond ten requests a window, the same for an account and for none', async () => {
      const owner = await registerOwner(t.app());
      const spammer = new Browser(t.app(), '198.51.100.99');
      for (let i = 0; i < 10; i++) expect((await spammer.askLink(uniqueEmail('nobody'))).statusCode).toBe(200);
      const real = await spammer.askLink(owner.email);
      const none = await spammer.askLink(uniqueEmail('nobody'));
      for (const res of [real, none]) {
        expect(res.statusCode).toBe(429);
        expect(res.data.error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again later.' });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(t.asked).not.toContain(owner.email);
      // Another address is not affected.
      await linkFor(owner.email, '198.51.100.98');
    });

    it('asks for a valid email', async () => {
      const empty = await new Browser(t.app(), '198.51.100.50').askLink('');
      expect(empty.statusCode).toBe(400);
      expect(empty.data.error.message).toBe('Email is required');
    });
  });
}
