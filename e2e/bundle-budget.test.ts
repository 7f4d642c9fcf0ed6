import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';

/** One chunk of Vite's build manifest (`build.manifest`). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/**
 * Issue 14's budgets, read from the build the browser tests use: the JavaScript a first visit loads before it can
 * show the page (the entry, what it imports statically, and the lazy route modules of that page with their static
 * imports), gzip-compressed. Lazy chunks loaded later (other pages, charts, dialogs) do not count.
 */
describe('web app bundle budgets', () => {
  const dir = inject('webDir');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length;

  /**
   * Files loaded up front by a page of an entry (`index.html`: the app; `home.html`: the marketing home page): the
   * entry's chunk and, recursively, the chunks it imports statically; for a view of the app (issue 33's view chunks,
   * vite.config.ts), also the files the build lists for it in `.vite/views.json` (its route modules' chunks and their
   * static imports), each of which must hold the view's route modules.
   */
  const views = JSON.parse(fs.readFileSync(path.join(dir, '.vite', 'views.json'), 'utf8')) as Record<string, { js: string[]; css: string[] }>;
  function initialJs(entry: 'index.html' | 'home.html', view?: 'login' | 'dashboard'): { files: string[]; gzip: number } {
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return;
      seen.add(chunk.file);
      for (const i of chunk.imports ?? []) visit(i);
    };
    expect(manifest[entry]?.isEntry, `${entry} is an entry of the build`).toBe(true);
    visit(entry);
    if (view) {
      expect(views[view], `${view} is a view of the build`).toBeDefined();
      for (const f of views[view]!.js) seen.add(f);
    }
    const files = [...seen].filter((f) => f.endsWith('.js'));
    return { files, gzip: files.reduce((sum, f) => sum + gzipSize(f), 0) };
  }

  /** The view chunk that holds a route module (by its component's name, which minification keeps in its chunk). */
  const holding = (files: string[], name: string) => files.filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(name));

  /** The signed-in app's pages are not among a public page's files: no file of the dashboard's view but shared ones. */
  function expectNoSignedInApp(page: string, files: string[]) {
    const shared = new Set([...initialJs('home.html').files, ...initialJs('index.html', 'login').files]);
    const dashboardOnly = initialJs('index.html', 'dashboard').files.filter((f) => !shared.has(f));
    expect(dashboardOnly.length, 'the dashboard has files of its own').toBeGreaterThan(0);
    for (const f of dashboardOnly) expect(files, page).not.toContain(f);
  }

  // Issue 14's goal: the marketing home page is an entry of its own (home.html, web/src/home-main.tsx), React and
  // Mantine without the app's router and query cache, its links plain links (172 kB gzip as a route of the app).
  it('keeps the marketing home page under 120 kB of gzip JavaScript, without the router, the query cache or signed-in pages', () => {
    const { files, gzip } = initialJs('home.html');
    console.log(`home.html: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files`);
    expect(gzip).toBeLessThanOrEqual(120 * 1024);
    expectNoSignedInApp('home.html', files);
    // Nothing of the app's entry: not its chunk, not React Router, not TanStack Query (their own error texts survive
    // minification: the app's files carry them, the home page's do not).
    expect(files).not.toContain(manifest['index.html']!.file);
    const code = (list: string[]) => list.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    const appCode = code(initialJs('index.html').files);
    for (const text of ['may be used only in the context of a <Router> component', 'No QueryClient set']) {
      expect(appCode, text).toContain(text);
      expect(code(files), text).not.toContain(text);
    }
  });

  // Sign-in is a route of the app (React Router, TanStack Query): 185 kB is held as its ceiling (179 kB before the
  // theme toggle's tooltip loaded after the page; about 159 kB since). It may shrink, never grow.
  it('keeps sign-in under 185 kB of gzip JavaScript, without the signed-in app', () => {
    const page = 'sign-in';
    const { files, gzip } = initialJs('index.html', 'login');
    console.log(`${page}: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files`);
    expect(gzip, page).toBeLessThanOrEqual(185 * 1024);
    expectNoSignedInApp(page, files);
  });

  // Counted with what the first look at the cards needs (the alert card, the banners): issue 33 loads them with the
  // page, not one round trip later.
  it('keeps the dashboard under 250 kB of gzip JavaScript, its alert card included and charts not', () => {
    const { files, gzip } = initialJs('index.html', 'dashboard');
    console.log(`dashboard: ${(gzip / 1024).toFixed(1)} kB gzip in ${files.length} files`);
    expect(gzip).toBeLessThanOrEqual(250 * 1024);
    expect(holding(files, 'alert-card').length, 'the alert card is among the files').toBeGreaterThan(0);
    const charts = Object.values(manifest).filter((c) => /recharts|charts/i.test(c.src ?? c.file));
    for (const c of charts) expect(files).not.toContain(c.file);
  });

  // Issue 33: the first screen validates nothing, so it carries no zod (about 100 kB of script to compile and run,
  // its schemas built as the modules load): the contract's lists and texts it shows come from the zod-free *-text.ts
  // files. zod's objects keep their `_zod` property through minification; the forms' chunks, loaded later, have it.
  it('loads no zod with the dashboard: its schemas come with the forms that need them', () => {
    const { files } = initialJs('index.html', 'dashboard');
    const all = Object.values(manifest).map((c) => c.file).filter((f) => f.endsWith('.js'));
    const withZod = (list: string[]) => list.filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes('._zod'));
    expect(withZod(all).length, 'some chunk of the app carries zod').toBeGreaterThan(0);
    expect(withZod(files)).toEqual([]);
  });
});
