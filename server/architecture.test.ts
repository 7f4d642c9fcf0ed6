import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = path.join(ROOT, 'server');

/** Every .ts file under `dir` (relative to the repository, with /), tests and server/test/ left out. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) out.push(path.relative(ROOT, p).split(path.sep).join('/'));
  }
  return out.filter((f) => !f.startsWith('server/test/'));
}

/** The node a server file belongs to: `modules/<name>` inside a module, else its folder (or the file) under server/. */
function nodeOf(file: string): string {
  const parts = file.split('/');
  if (parts[1] === 'modules') return `modules/${parts[2]}`;
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.ts$/, '');
}

/** The folder-level import graph of the server: node → node it imports → the file imports behind that edge. */
function folderGraph() {
  const edges = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SERVER)) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
      if (!target.startsWith('server/')) continue;
      const [from, to] = [nodeOf(file), nodeOf(target)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const byTarget = edges.get(from)!;
      byTarget.set(to, [...(byTarget.get(to) ?? []), `${file} → ${target}`]);
    }
  }
  return edges;
}

/** Strongly connected components of more than one node (Tarjan): the import cycles between folders. */
function cycles(edges: Map<string, Map<string, string[]>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the server’s folder graph', () => {
  it('has no cycle between server/<folder> and server/modules/<name> (tests left out)', () => {
    const edges = folderGraph();
    // What closes each cycle is spelled out: every import between two nodes of the same cycle.
    const report = cycles(edges).map((component) => ({
      nodes: component,
      imports: component.flatMap((from) => component.flatMap((to) => edges.get(from)?.get(to) ?? [])),
    }));
    expect(report, `import cycles between folders:\n${JSON.stringify(report, null, 2)}`).toEqual([]);
  });

  it('keeps infrastructure and contract/ below every module', () => {
    const edges = folderGraph();
    const infrastructure = ['db', 'lib', 'http', 'events', 'notifications', 'jobs'];
    const upward = infrastructure.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => to.startsWith('modules/')).flatMap(([, files]) => files));
    expect(upward).toEqual([]);
    const contractImports = sourceFiles(path.join(ROOT, 'contract')).flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from\s+'(\.[^']+)'/g)]
        .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])))
        .filter((target) => !target.startsWith('contract/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(contractImports).toEqual([]);
  });
});

describe('the import rules of eslint.config.js (server)', () => {
  // no-cycle is left out: it reads the linted file from disk (its graph of the planted file fails without it).
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
  /** The messages of the layering rules on `code`, linted as if it were the file at `file`. */
  const restricted = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === 'import/no-restricted-paths' || m.ruleId === 'import/no-unresolved').map((m) => m.message);
  };

  it('refuses a module in infrastructure', async () => {
    const messages = await restricted('server/http/planted.ts', "import { findUserById } from '../modules/users/users.service.ts';\nexport const f = findUserById;\n");
    expect(messages).toEqual([expect.stringContaining('Infrastructure imports no module')]);
  });

  it('refuses another module’s repository, routes or plugin, and lets its service and pure files through', async () => {
    const from = 'server/modules/clients/planted.ts';
    for (const target of ['../users/users.repository.ts', '../auth/auth.routes.ts', '../alerts/alert-runtime.plugin.ts']) {
      expect(await restricted(from, `import * as x from '${target}';\nexport { x };\n`), target).toEqual([
        expect.stringContaining('A module uses another only through its service'),
      ]);
    }
    for (const target of ['../users/users.service.ts', '../tenants/tenants.policy.ts', '../schedules/oncall.ts', './clients.repository.ts']) {
      expect(await restricted(from, `import * as x from '${target}';\nexport { x };\n`), target).toEqual([]);
    }
  });

  it('refuses anything of ours in contract/, and the web app in the server', async () => {
    expect(await restricted('contract/planted.ts', "import { hashToken } from '../server/lib/tokens.ts';\nexport const f = hashToken;\n")).toEqual([
      expect.stringContaining('contract/ is shared by the server and the web app'),
    ]);
    expect(await restricted('server/lib/planted.ts', "import * as x from '../../web/src/lib/dates.ts';\nexport { x };\n")).toEqual([
      expect.stringContaining('The server shares only contract/ with the web app'),
    ]);
  });
});

describe('who speaks to the providers', () => {
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });
  const refused = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(ROOT, file) }))[0].messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);

  it('lets only server/notifications import nodemailer or web-push', async () => {
    const code = "import nodemailer from 'nodemailer';\nimport webpush from 'web-push';\nexport { nodemailer, webpush };\n";
    expect(await refused('server/modules/approvals/planted.ts', code)).toEqual([expect.stringContaining('Only server/notifications sends mail'), expect.stringContaining('Only server/notifications sends push')]);
    expect(await refused('server/notifications/channels/planted.ts', code)).toEqual([]);
  });

  it('finds no SMS provider call outside server/notifications', () => {
    const calls = sourceFiles(SERVER).filter((f) => !f.startsWith('server/notifications/') && /Messages\.json/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(calls).toEqual([]);
  });
});
