// npx tsx scripts/trace-summary.ts trace.json [--from mark|ms] [--to mark|ms] [--top 25]
// Summarizes a Chromium performance trace (bench:first-visit --trace): the page renderer's main-thread tasks in order,
// each with what it mostly did, then the JavaScript functions that took the most time (self time, from the trace's
// CPU samples) between two moments: ms from navigation start, or a performance.mark's name ('first-card').
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string' }, top: { type: 'string', default: '25' }, min: { type: 'string', default: '2' } } });
type Ev = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; cat: string; args?: any; id?: string };
const raw = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const events: Ev[] = Array.isArray(raw) ? raw : raw.traceEvents;

// The renderer that navigated: the main thread whose navigationStart mark is last.
const navs = events.filter((e) => e.name === 'navigationStart' && e.cat.includes('blink.user_timing') && e.args?.data?.documentLoaderURL);
const nav = navs.at(-1)!;
const main = { pid: nav.pid, tid: nav.tid };
const t0 = nav.ts;
const mark = (name: string) => events.find((e) => e.pid === main.pid && e.name === name && e.cat.includes('blink.user_timing'));
const at = (spec: string | undefined, dflt: number) => (spec === undefined ? dflt : /^\d+$/.test(spec) ? t0 + Number(spec) * 1000 : (mark(spec)?.ts ?? dflt));
const to = at(args.to, mark('first-card')?.ts ?? Infinity);
const from = at(args.from, t0);
const ms = (us: number) => (us / 1000).toFixed(1);

const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
console.log(`main-thread tasks of ${args.min} ms or more, ${ms(from - t0)}–${ms(to - t0)} ms after navigation start:`);
let busy = 0;
for (const task of tasks) {
  if (task.ts + task.dur! < from || task.ts > to) continue;
  busy += task.dur!;
  if (task.dur! < Number(args.min) * 1000) continue;
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
  const kinds = new Map<string, number>();
  for (const e of inside) {
    const what = e.name === 'FunctionCall' || e.name === 'EvaluateScript' ? `${e.name} ${(e.args?.data?.url ?? '').split('/').pop()}:${e.args?.data?.functionName ?? ''}` : e.name;
    if (['FunctionCall', 'EvaluateScript', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'Paint', 'PrePaint', 'ParseAuthorStyleSheet', 'v8.compile', 'V8.GC_SCAVENGER', 'MajorGC', 'MinorGC', 'TimerFire', 'EventDispatch', 'ResourceReceivedData', 'Commit'].some((k) => e.name.startsWith(k)))
      kinds.set(what, (kinds.get(what) ?? 0) + e.dur!);
  }
  const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, d]) => `${k} ${ms(d)}`).join('; ');
  console.log(`  ${ms(task.ts - t0).padStart(7)} +${ms(task.dur!).padStart(6)}  ${top}`);
}
console.log(`busy ${ms(busy)} ms of ${ms(to - from)} ms`);

// CPU samples: ProfileChunk events of the main thread's profile.
const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.pid === main.pid).sort((a, b) => a.ts - b.ts);
const profile = events.find((e) => e.name === 'Profile' && e.pid === main.pid);
if (profile) {
  const nodes = new Map<number, { name: string; where: string; parent?: number }>();
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let time = profile.args.data.startTime as number;
  for (const c of chunks.filter((c) => c.id === profile.id)) {
    const data = c.args.data;
    for (const n of data.cpuProfile?.nodes ?? []) {
      const f = n.callFrame;
      nodes.set(n.id, { name: f.functionName || '(anonymous)', where: `${(f.url ?? '').split('/').pop()}:${f.lineNumber}`, parent: n.parent });
    }
    const samples: number[] = data.cpuProfile?.samples ?? [];
    const deltas: number[] = data.timeDeltas ?? [];
    samples.forEach((id, i) => {
      const prev = time;
      time += deltas[i] ?? 0;
      if (time < from || time > to) return;
      const n = nodes.get(id);
      if (!n || n.name === '(idle)' || n.name === '(program)') return;
      const key = `${n.name} ${n.where}`;
      self.set(key, (self.get(key) ?? 0) + (time - prev));
      // Inclusive: every function on the sample's stack, once.
      const seen = new Set<string>();
      for (let m: typeof n | undefined = n; m; m = m.parent === undefined ? undefined : nodes.get(m.parent)) {
        const k = `${m.name} ${m.where}`;
        if (seen.has(k)) continue;
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + (time - prev));
      }
    });
  }
  const sampled = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\nJavaScript self time in the window (${ms(sampled)} ms sampled):`);
  for (const [k, d] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) console.log(`  ${ms(d).padStart(6)}  ${k}`);
  console.log(`\nJavaScript total time (the function and what it called):`);
  for (const [k, d] of [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top) * 2)) console.log(`  ${ms(d).padStart(6)}  ${k}`);
}
