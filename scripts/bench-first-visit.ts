// npm run bench:first-visit [-- --runs 3]
// The first visit of the dashboard, in Chromium: the real server (SQLite) serving the built web app, a tenant with one
// alert, a signed-in browser with an empty cache (cold) and then the same browser again (warm). For each visit: the
// milliseconds from navigation start until the first alert card is in the page (a MutationObserver's
// performance.now()), the requests made and the bytes over the wire (headers and bodies as sent, compressed) until the
// page settled. Prints each run and the medians (issue 33: cold ≤ 500 ms and ≤ 25 requests, warm ≤ 250 ms).
// --breakdown also prints, per visit, where the milliseconds went: the page's HTML, its scripts run (DOMContentLoaded),
// /api/me, the list and stats requests (asked → answered), the live stream's `ready`, the first card.
// --trace file.json writes a Chromium performance trace (with JS samples) of the last warm visit, for DevTools'
// Performance panel or scripts/trace-summary.ts. Starting the profiler stalls the new renderer for 100–200 ms after it
// commits the page, so a traced visit's times run late: compare the spans after DOMContentLoaded, not the totals.
import { parseArgs } from 'node:util';
import { startWebBench } from './bench-web.ts';
import type { BrowserContext, Request } from 'playwright-core';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' }, breakdown: { type: 'boolean', default: false }, trace: { type: 'string' } } });
const RUNS = Math.max(1, Number(args.runs) || 3);

/** Records when the first alert card enters the page, from the first script on. */
const WATCH_FIRST_CARD = `
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid="alert-card"]')) { window.__firstCard = performance.now(); performance.mark('first-card'); observer.disconnect(); }
  }).observe(document, { childList: true, subtree: true });
`;

/** --breakdown: when the live stream said `ready` (the EventSource wrapped, nothing else changed). */
const WATCH_READY = `
  const NativeEventSource = window.EventSource;
  window.EventSource = class extends NativeEventSource {
    constructor(url, init) {
      super(url, init);
      window.__streamOpened = performance.now();
      this.addEventListener('ready', () => { window.__streamReady ??= performance.now(); });
    }
  };
`;

/** --breakdown: the chain of one visit, in ms from navigation start, read from the page's own timings (page-side code). */
const BREAKDOWN = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const path = (e) => new URL(e.name).pathname;
  const one = (test) => res.find((e) => test(path(e)));
  const span = (e) => (e ? Math.round(e.startTime) + '→' + Math.round(e.responseEnd) : '-');
  const at = (t) => (t === undefined ? '-' : Math.round(t));
  const scripts = res.filter((e) => path(e).endsWith('.js'));
  return [
    'html ' + Math.round(nav.responseEnd),
    'scripts in ' + Math.round(Math.max(0, ...scripts.map((e) => e.responseEnd))),
    'scripts run ' + Math.round(nav.domContentLoadedEventStart),
    'me ' + span(one((p) => p === '/api/me')),
    'list ' + span(one((p) => /\\/alerts$/.test(p))),
    'stats ' + span(one((p) => p.endsWith('/alerts/stats'))),
    'stream ' + at(window.__streamOpened) + '→' + at(window.__streamReady),
    'first card ' + at(window.__firstCard),
  ].join(' | ');
})()`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { url, browser, close } = await startWebBench('first-visit');
try {
  const setup = await browser.newContext();
  const reg = await setup.request.post(`${url}/api/functions/registerUserWithTenant`, {
    headers: { origin: url },
    data: { userData: { email: `first-${Date.now()}@example.com`, password: 'secret123', displayName: 'First Visit' }, tenantData: { name: 'First MSP', plan: 'trial' } },
  });
  const { tenantId } = (await reg.json()) as { tenantId: string };
  // A person who has used the app before (their zone saved): a brand-new account's first load also saves its browser's
  // zone once (one PATCH), which is no part of what a first visit of the dashboard costs.
  await setup.request.patch(`${url}/api/profile`, { headers: { origin: url }, data: { timeZone: 'UTC' } });
  const { key } = (await (await setup.request.post(`${url}/api/tenants/${tenantId}/integrations`, { headers: { origin: url }, data: { name: 'Bench' } })).json()) as { key: string };
  const sent = await fetch(`${url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ title: 'Disk full on db-1', priority: 'high' }) });
  if (sent.status !== 202) throw new Error(`ingest failed: ${sent.status}`);
  const state = await setup.storageState();
  await setup.close();

  /** One visit of the dashboard in `context`: time to the first card, requests, bytes over the wire. */
  async function visit(context: BrowserContext, trace?: string) {
    const page = await context.newPage();
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'loading'] });
    // How long the renderer's main thread was busy (tasks, scripts) until just after the first card: close to the card's
    // time means rendering holds it back, not waiting for the network.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await page.goto(`${url}/app/dashboard`);
    await page.waitForFunction(() => (window as unknown as { __firstCard?: number }).__firstCard !== undefined, undefined, { timeout: 15_000 });
    const ms = await page.evaluate(() => (window as unknown as { __firstCard: number }).__firstCard);
    if (trace) await browser.stopTracing();
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
    const cpu = { task: metric('TaskDuration'), script: metric('ScriptDuration') };
    if (args.breakdown) {
      await page.waitForFunction(() => (window as unknown as { __streamReady?: number }).__streamReady !== undefined, undefined, { timeout: 5_000 }).catch(() => {});
      console.log(`  ${await page.evaluate(BREAKDOWN)}`);
    }
    if (process.env.BENCH_TRACE) {
      const entries = await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd)] as const),
      );
      const nav = await page.evaluate(() => JSON.stringify(performance.getEntriesByType('navigation')[0]));
      console.log('navigation', JSON.parse(nav).responseEnd, 'DOMContentLoaded', JSON.parse(nav).domContentLoadedEventEnd);
      for (const [name, start, end] of entries) if (process.env.BENCH_TRACE === 'all' || !name.startsWith('/assets/') || end > ms - 200) console.log(String(start).padStart(6), String(end).padStart(6), name);
      console.log('scripts: last ends at', Math.max(...entries.filter(([n]) => n.endsWith('.js')).map(([, , e]) => e)));
    }
    await page.waitForLoadState('networkidle').catch(() => {});
    // The live stream never finishes: its headers count, its body does not.
    let bytes = 0;
    for (const r of requests) {
      if (r.url().endsWith('/events')) continue;
      const sizes = await r.sizes().catch(() => null);
      if (sizes) bytes += sizes.responseHeadersSize + sizes.responseBodySize;
    }
    const scripts = requests.filter((r) => r.resourceType() === 'script').length;
    await page.close();
    return { ms, cpu, requests: requests.length, scripts, kB: bytes / 1024 };
  }

  const cold: Array<Awaited<ReturnType<typeof visit>>> = [];
  const warm: Array<Awaited<ReturnType<typeof visit>>> = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ storageState: state, viewport: { width: 1440, height: 900 } });
    await context.addInitScript(WATCH_FIRST_CARD);
    if (args.breakdown) await context.addInitScript(WATCH_READY);
    if (args.breakdown) console.log(`run ${i + 1} cold:`);
    cold.push(await visit(context));
    if (args.breakdown) console.log(`run ${i + 1} warm:`);
    warm.push(await visit(context, i === RUNS - 1 ? args.trace : undefined));
    await context.close();
  }
  const line = (name: string, runs: typeof cold) =>
    console.log(
      `${name}: first alert card ${runs.map((r) => r.ms.toFixed(0)).join(' / ')} ms (median ${median(runs.map((r) => r.ms)).toFixed(0)}), ` +
        `${median(runs.map((r) => r.requests))} requests (${median(runs.map((r) => r.scripts))} scripts), ${median(runs.map((r) => r.kB)).toFixed(1)} kB over the wire; ` +
        `renderer main thread until then ${median(runs.map((r) => r.cpu.task)).toFixed(0)} ms busy (scripts ${median(runs.map((r) => r.cpu.script)).toFixed(0)} ms), median`,
    );
  line('cold', cold);
  line('warm', warm);
} finally {
  await close();
}
