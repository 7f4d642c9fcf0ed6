// Issue 33: the web app's chunks grouped by the views whose first visit needs them, rather than by module.
//
// Automatic splitting cuts a page's code into one chunk per set of lazy routes sharing a module: the dashboard's first
// visit fetched 72 scripts, discovered in waves. A first build (not written) shows which modules, after tree-shaking,
// each key view loads up front: the chunks holding its root modules and, recursively, what they import statically.
// The real build then puts every such module into the chunk named after the set of key views that load it
// (`view-dashboard`, `view-dashboard-login`, `view-dashboard-home-login`, …): a handful of files per view. What an entry
// chunk already holds stays there; modules no key view loads keep automatic splitting (other pages, charts).
//
// Within a set's chunk a module's dependencies are in the same set or a larger one (a view that loads a module loads
// what it imports), so the view chunks import each other in one direction only and capturing modules without their
// dependencies is safe. The build also writes `.vite/views.json`: each key view's files (scripts and styles), which the
// server announces as modulepreload links in the page it sends (server/app.ts) and the bundle-budget test reads.
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin, UserConfig } from 'vite';

/** A key view: the modules its first visit always runs (its lazy route modules and the lazy parts it shows at once). */
export type Views = Record<string, string[]>;

interface ChunkFacts {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  moduleIds: string[];
  imports: string[];
  dynamicImports: string[];
  css: string[];
}

const factsOf = (bundle: OutputBundle): ChunkFacts[] =>
  Object.values(bundle)
    .filter((c): c is OutputChunk => c.type === 'chunk')
    .map((c) => ({
      fileName: c.fileName,
      isEntry: c.isEntry,
      facadeModuleId: c.facadeModuleId,
      moduleIds: c.moduleIds,
      imports: c.imports,
      dynamicImports: c.dynamicImports,
      css: [...((c as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? [])],
    }));

/**
 * The chunks a view loads up front: those holding its roots and, recursively, their static imports; with `lazy`, also
 * everything it may load later (its dynamic imports, recursively).
 */
function viewClosure(chunks: ChunkFacts[], roots: string[], lazy = false): ChunkFacts[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const stack = chunks.filter((c) => roots.some((r) => c.moduleIds.includes(r))).map((c) => c.fileName);
  if (stack.length < roots.length) {
    const missing = roots.filter((r) => !chunks.some((c) => c.moduleIds.includes(r)));
    if (missing.length) throw new Error(`view-chunks: no chunk holds ${missing.join(', ')}`);
  }
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const chunk = byFile.get(file);
    for (const i of [...(chunk?.imports ?? []), ...(lazy ? (chunk?.dynamicImports ?? []) : [])]) stack.push(i);
  }
  return [...seen].map((f) => byFile.get(f)!).filter(Boolean);
}

/**
 * Module id → view-set chunk name, from a first build's chunks. Left where they are: what every page of the app runs
 * anyway (`appEntry`'s chunk and what it imports) and the entry chunks themselves (an entry stays an entry).
 *
 * A view that is an entry of its own (the home page, `separate`) also labels what it may load later (`home_lazy`): a
 * module it loads lazily then never sits in a chunk of the app's views alone, whose imports run the app's entry.
 */
export function planViewChunks(chunks: ChunkFacts[], views: Views, appEntry: string, separate: string[] = []): Map<string, string> {
  const entryHeld = new Set([...viewClosure(chunks, [appEntry]), ...chunks.filter((c) => c.isEntry)].flatMap((c) => c.moduleIds));
  const sets = new Map<string, string[]>();
  const add = (chunk: ChunkFacts, label: string) => {
    for (const m of chunk.moduleIds) if (!entryHeld.has(m)) sets.set(m, [...(sets.get(m) ?? []), label]);
  };
  for (const [view, roots] of Object.entries(views)) {
    const eager = viewClosure(chunks, roots);
    for (const chunk of eager) add(chunk, view);
    // What it loads later is labelled apart, so it never joins the chunks it loads up front.
    if (separate.includes(view)) for (const chunk of viewClosure(chunks, roots, true)) if (!eager.includes(chunk)) add(chunk, `${view}_lazy`);
  }
  return new Map([...sets].map(([m, vs]) => [m, `view-${[...new Set(vs)].sort().join('-')}`]));
}

/** Writes `.vite/views.json`: for each view, the scripts and styles its first visit loads besides the entry's. */
function viewsManifest(views: Views): Plugin {
  return {
    name: 'alertdesk:views-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = factsOf(bundle as unknown as OutputBundle);
      const out: Record<string, { js: string[]; css: string[] }> = {};
      for (const [view, roots] of Object.entries(views)) {
        const closure = viewClosure(chunks, roots);
        out[view] = { js: closure.map((c) => c.fileName), css: [...new Set(closure.flatMap((c) => c.css))] };
      }
      this.emitFile({ type: 'asset', fileName: '.vite/views.json', source: JSON.stringify(out, null, 2) });
    },
  };
}

const FIRST_PASS = 'ALERTDESK_VIEW_CHUNKS_FIRST_PASS';

/**
 * The build config with view chunks: runs the first (unwritten) build of `config` to plan them, then returns `config`
 * with a view group before automatic splitting (after the named groups, which keep priority) and the views manifest.
 */
export async function withViewChunks(
  config: UserConfig,
  views: Views,
  appEntry: string,
  opts: { separate: string[]; dropInFirstPass: (p: Plugin) => boolean },
): Promise<UserConfig> {
  if (process.env[FIRST_PASS]) return config;
  const { build } = await import('vite');
  let chunks: ChunkFacts[] = [];
  process.env[FIRST_PASS] = '1';
  try {
    await build({
      ...config,
      configFile: false,
      logLevel: 'silent',
      plugins: [
        ...(config.plugins ?? []).flat().filter((p): p is Plugin => !!p && typeof p === 'object' && 'name' in p && !opts.dropInFirstPass(p as Plugin)),
        { name: 'alertdesk:view-chunks-first-pass', generateBundle: (_o, bundle) => void (chunks = factsOf(bundle as unknown as OutputBundle)) },
      ],
      build: { ...config.build, write: false, manifest: false, emptyOutDir: false },
    });
  } finally {
    delete process.env[FIRST_PASS];
  }
  const plan = planViewChunks(chunks, views, appEntry, opts.separate);
  const output = config.build?.rolldownOptions?.output;
  if (!output || Array.isArray(output) || typeof output.codeSplitting !== 'object') throw new Error('view-chunks: expected one output with codeSplitting groups');
  const groups = [...(output.codeSplitting.groups ?? []), { includeDependenciesRecursively: false, name: (id: string) => plan.get(id) ?? null }];
  return {
    ...config,
    plugins: [...(config.plugins ?? []), viewsManifest(views)],
    build: { ...config.build, rolldownOptions: { ...config.build!.rolldownOptions, output: { ...output, codeSplitting: { ...output.codeSplitting, groups } } } },
  };
}
