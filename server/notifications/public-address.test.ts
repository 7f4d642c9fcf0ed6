import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { isAllowed, isPublicAddress, publicOnlyLookup, refusedHost } from './public-address.ts';

describe('public addresses', () => {
  it.each([
    ['8.8.8.8', true],
    ['142.250.185.74', true],
    ['2001:4860:4860::8888', true],
    ['10.0.0.5', false],
    ['172.16.3.4', false],
    ['192.168.1.10', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('lets the operator allow hosts, addresses and ranges', () => {
    expect(isAllowed(['push.internal'], 'PUSH.internal')).toBe(true);
    expect(isAllowed(['10.1.0.0/16'], 'push.internal', '10.1.2.3')).toBe(true);
    expect(isAllowed(['10.1.0.0/16'], 'push.internal', '10.2.0.1')).toBe(false);
    expect(isAllowed(['127.0.0.1'], '127.0.0.1')).toBe(true);
    expect(isAllowed([''], 'localhost')).toBe(false);
  });

  it('refuses address literals and localhost at once, names only when resolved', () => {
    expect(refusedHost([], '169.254.169.254')).toMatch(/not a public address/);
    expect(refusedHost([], '[fe80::1]')).toMatch(/not a public address/);
    expect(refusedHost([], 'localhost')).toMatch(/not a public address/);
    expect(refusedHost([], 'push.example.com')).toBeNull();
    expect(refusedHost([], '8.8.8.8')).toBeNull();
    expect(refusedHost(['localhost'], 'localhost')).toBeNull();
  });
});

describe('the connecting lookup', () => {
  /** A resolver answering from a table (no network). */
  const table = (answers: Record<string, string[]>) =>
    ((hostname: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => {
      const list = answers[hostname];
      if (!list) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      cb(null, list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    }) as unknown as typeof dns.lookup;
  const lookup = (allowed: string[], answers: Record<string, string[]>, hostname: string, all: boolean) =>
    new Promise<{ err: (Error & { code?: string }) | null; address: unknown }>((resolve) =>
      publicOnlyLookup(allowed, table(answers))(hostname, { all }, (err, address) => resolve({ err, address })),
    );

  it('passes public answers through, in both forms the socket asks for', async () => {
    const answers = { 'fcm.googleapis.com': ['142.250.185.74', '2a00:1450:4001:80b::200a'] };
    expect(await lookup([], answers, 'fcm.googleapis.com', false)).toEqual({ err: null, address: '142.250.185.74' });
    expect((await lookup([], answers, 'fcm.googleapis.com', true)).address).toEqual([
      { address: '142.250.185.74', family: 4 },
      { address: '2a00:1450:4001:80b::200a', family: 6 },
    ]);
  });

  it.each([
    ['a name resolving to the metadata service', { 'evil.example': ['169.254.169.254'] }],
    ['a name resolving to a private address', { 'evil.example': ['10.0.0.5'] }],
    ['a name resolving to loopback', { 'evil.example': ['127.0.0.1'] }],
    ['a name with one public and one private answer', { 'evil.example': ['8.8.8.8', '192.168.0.1'] }],
  ])('refuses %s', async (_case, answers) => {
    for (const all of [false, true]) {
      const { err } = await lookup([], answers, 'evil.example', all);
      expect(err?.code).toBe('ENOTPUBLIC');
      expect(err?.message).toMatch(/^evil\.example resolves to .+, which is not a public address$/);
    }
  });

  it('allows what the operator allowed, and passes resolver errors on', async () => {
    expect((await lookup(['10.0.0.0/8'], { 'push.internal': ['10.0.0.5'] }, 'push.internal', false)).address).toBe('10.0.0.5');
    expect((await lookup([], {}, 'nowhere.example', false)).err?.code).toBe('ENOTFOUND');
  });
});
