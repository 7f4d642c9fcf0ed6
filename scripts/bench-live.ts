// npm run bench:live [-- --events 50]
// Ingest → visible on an open dashboard, in Chromium: the real server (SQLite) serving the built web app, one signed-in
// dashboard, then `events` alerts sent one after another through the ingestion API. For each, the time from just before
// the POST until its card is in the page (seen by a MutationObserver) is recorded; p50, p95 and max are printed, and
// how many list and stats requests the dashboard made meanwhile.
import { parseArgs } from 'node:util';
import { startWebBench } from './bench-web.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '50' }, gap: { type: 'string', default: '100' } } });
const EVENTS = Number(args.events);
const GAP_MS = Number(args.gap);
const { url, browser, close } = await startWebBench('live');
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const reg = await page.request.post(`${url}/api/functions/registerUserWithTenant`, {
    headers: { origin: url },
    data: { userData: { email: `live-${Date.now()}@example.com`, password: 'secret123', displayName: 'Live Bench' }, tenantData: { name: 'Live MSP', plan: 'trial' } },
  });
  const { tenantId } = (await reg.json()) as { tenantId: string };
  const { key } = (await (await page.request.post(`${url}/api/tenants/${tenantId}/integrations`, { headers: { origin: url }, data: { name: 'Bench' } })).json()) as { key: string };
  // A dashboard that already shows some alerts, as a real one does.
  for (let i = 0; i < 20; i++) await fetch(`${url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ title: `Earlier ${i}`, priority: 'low' }) });

  let listRequests = 0;
  let statsRequests = 0;
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p === `/api/tenants/${tenantId}/alerts`) listRequests++;
    if (p === `/api/tenants/${tenantId}/alerts/stats`) statsRequests++;
  });
  await page.goto(`${url}/app/dashboard`);
  await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]');
  await page.waitForSelector('[data-testid="alert-card"]');
  await page.waitForTimeout(1000);
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as unknown as { seen: Record<string, number> }).seen = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid="alert-open"]')) {
        const t = el.innerText;
        if (t.startsWith('Live ') && !(t in seen)) seen[t] = Date.now();
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  listRequests = 0;
  statsRequests = 0;

  const latencies: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const title = `Live ${i}`;
    const sent = Date.now();
    const res = await fetch(`${url}/api/ingest/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ title, priority: 'critical' }) });
    if (res.status !== 202) throw new Error(`ingest answered ${res.status}`);
    const deadline = Date.now() + 5000;
    let at: number | undefined;
    while (Date.now() < deadline) {
      at = await page.evaluate((t) => (window as unknown as { seen: Record<string, number> }).seen[t], title);
      if (at) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    if (!at) throw new Error(`${title} did not appear within 5 s`);
    latencies.push(at - sent);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  console.log(
    `ingest → visible on an open dashboard (Chromium, ${EVENTS} events ${GAP_MS} ms apart): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${latencies.at(-1)} ms; ` +
      `the dashboard asked for the list ${listRequests} and the figures ${statsRequests} times meanwhile`,
  );
  await context.close();
} finally {
  await close();
}
