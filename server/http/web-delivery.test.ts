import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDatabases } from '../test/test-app.ts';

/**
 * How the built web app and JSON answers leave the server: assets as the brotli/gzip files written at
 * build time with a year of immutable caching, the pages' HTML revalidated every time, `/` the marketing page's own
 * entry (home.html) on the marketing host, large JSON answers compressed.
 */
describe('web delivery', () => {
  const [db] = testDatabases();
  let env: Awaited<ReturnType<typeof startTestApp>>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alertdesk-web-'));
  const js = `console.log(${JSON.stringify('x'.repeat(5000))});\n`;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Alertdesk</title><div id="root"></div><script src="/assets/index.js"></script>');
    fs.writeFileSync(path.join(dir, 'home.html'), '<!doctype html><title>Alertdesk</title><div id="root"></div><script src="/assets/home.js"></script>');
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), js);
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(js));
    fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(js));
    env = await startTestApp(db!, { webDir: dir });
  });
  afterAll(async () => {
    await env?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends a hashed asset precompressed by what the browser accepts, cached for a year', async () => {
    const get = (encoding?: string) => env.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode, br.body).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('revalidates index.html on every visit', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/app/dashboard' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('/assets/index.js');
  });

  it('answers `/` with the home page entry on the marketing host, and sends the app host to the dashboard', async () => {
    for (const url of ['/', '/?utm_source=mail']) {
      const res = await env.app.inject({ method: 'GET', url, headers: { host: 'alertdesk.example' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('/assets/home.js');
    }
    const appHost = await env.app.inject({ method: 'GET', url: '/', headers: { host: 'app.alertdesk.example' } });
    expect(appHost.statusCode).toBe(302);
    expect(appHost.headers.location).toBe('/app/dashboard');
    // Every other page is the app, which also draws `/` when reached inside it (it loads home.html then).
    for (const url of ['/login', '/privacy', '/no-such-page']) {
      expect((await env.app.inject({ method: 'GET', url, headers: { host: 'alertdesk.example' } })).body, url).toContain('/assets/index.js');
    }
  });

  it('answers `/` with the app when a build has no home.html (its app draws the home page itself)', async () => {
    const home = path.join(dir, 'home.html');
    const saved = fs.readFileSync(home);
    fs.rmSync(home);
    try {
      const res = await env.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('/assets/index.js');
    } finally {
      fs.writeFileSync(home, saved);
    }
  });

  it('compresses JSON answers above 1 KiB, and leaves small ones alone', async () => {
    const big = await env.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(big.rawPayload).toString()).openapi).toMatch(/^3\./);
    const small = await env.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });
});
