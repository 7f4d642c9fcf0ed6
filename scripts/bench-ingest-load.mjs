// The load generator of `npm run bench:ingest`, run as a separate process (plain JavaScript: no transpiler in the
// measured path). It receives a phase over IPC, sends events over HTTP/1.1 keep-alive and answers with what it saw.
import http from 'node:http';

const SEVERITIES = ['critical', 'error', 'warning', 'info'];

/** A PagerDuty Events v2 trigger shaped like the ones real monitoring tools send (about 450 bytes). */
function pagerDutyEvent(key, dedupKey, i) {
  return JSON.stringify({
    routing_key: key,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: `High CPU on web-${i % 50}.prod: 97% for 5 minutes`,
      source: `web-${i % 50}.prod.example.com`,
      severity: SEVERITIES[i % 4],
      timestamp: new Date().toISOString(),
      component: 'nginx',
      group: 'prod-web',
      class: 'cpu',
      custom_details: { cpu: '97%', threshold: '90%', runbook: 'https://wiki.example.com/runbooks/high-cpu' },
    },
    client: 'Prometheus',
    client_url: 'https://prometheus.example.com',
  });
}

function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function post(agent, url, body) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    req.on('error', (err) => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6, err: String(err) }));
    req.end(body);
  });
}

/** Listens to the tenant's event stream and reports how long after sending each tracked dedup key showed up. */
function openStream(sse, sentAt, seen) {
  return new Promise((resolve, reject) => {
    const req = http.get(sse.url, { headers: { cookie: sse.cookie, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk) => {
        buf += chunk;
        let idx;
        while ((idx = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, idx);
          buf = buf.slice(idx + 2);
          if (block.startsWith('event: ready')) resolve(req);
          if (!block.startsWith('event: alert')) continue;
          const line = block.split('\n').find((l) => l.startsWith('data: '));
          if (!line) continue;
          const change = JSON.parse(line.slice(6));
          const t = sentAt.get(change.dedupKey);
          if (t !== undefined) {
            seen.push(Number(process.hrtime.bigint() - t) / 1e6);
            sentAt.delete(change.dedupKey);
          }
        }
      });
    });
    req.on('error', reject);
  });
}

async function run(phase) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: phase.concurrency, maxFreeSockets: phase.concurrency });
  const statuses = {};
  const latencies = [];
  const sentAt = new Map();
  const sseLatencies = [];
  let stream = null;
  if (phase.sse) stream = await openStream(phase.sse, sentAt, sseLatencies);
  let i = 0;
  const keys = phase.keys;
  const nextBody = () => {
    const n = i++;
    const dedupKey = phase.dedupSpace ? `${phase.prefix}-${n % phase.dedupSpace}` : `${phase.prefix}-${n}`;
    return { dedupKey, body: pagerDutyEvent(keys[n % keys.length], dedupKey, n) };
  };
  const record = (r) => {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    latencies.push(r.ms);
  };
  const started = Date.now();
  const deadline = started + phase.durationMs;

  if (phase.mode === 'max') {
    const worker = async () => {
      while (Date.now() < deadline) record(await post(agent, phase.url, nextBody().body));
    };
    await Promise.all(Array.from({ length: phase.concurrency }, worker));
  } else {
    // Open loop at a fixed offered rate: a slow answer does not slow the sending down.
    const inflight = new Set();
    await new Promise((resolve) => {
      const tick = setInterval(() => {
        const now = Date.now();
        if (now >= deadline) {
          clearInterval(tick);
          return resolve();
        }
        const due = Math.floor(((now - started) * phase.rate) / 1000);
        while (i < due) {
          const { dedupKey, body } = nextBody();
          if (phase.sse && i % phase.sse.every === 0) sentAt.set(dedupKey, process.hrtime.bigint());
          const p = post(agent, phase.url, body).then(record);
          inflight.add(p);
          p.then(() => inflight.delete(p));
        }
      }, 1);
    });
    await Promise.all(inflight);
  }
  const elapsedMs = Date.now() - started;
  if (stream) {
    await new Promise((r) => setTimeout(r, 500));
    stream.destroy();
  }
  agent.destroy();
  latencies.sort((a, b) => a - b);
  sseLatencies.sort((a, b) => a - b);
  return {
    sent: i,
    statuses,
    elapsedMs,
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    sse: phase.sse ? { tracked: sseLatencies.length + sentAt.size, received: sseLatencies.length, p50: percentile(sseLatencies, 50), p95: percentile(sseLatencies, 95) } : null,
  };
}

process.on('message', async (msg) => {
  if (msg.type === 'run') {
    try {
      process.send({ type: 'result', result: await run(msg.phase) });
    } catch (err) {
      process.send({ type: 'error', error: String(err?.stack ?? err) });
    }
  } else if (msg.type === 'exit') process.exit(0);
});
process.send({ type: 'ready' });
