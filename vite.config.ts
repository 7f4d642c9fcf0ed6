import path from 'node:path';
import { defineConfig, parseAst, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/**
 * The contract's top-level values (zod schemas among texts and constants) marked as free of side effects, so a page
 * that reads only a text or a constant from a contract file carries none of its schemas, and a page using no schema
 * at all no validation library (issue 14's budgets: zod alone is 25 kB gzip). Each `const X = <call>` becomes
 * `const X = /* @__PURE__ *\/ (() => <call>)()`: evaluated exactly as before where it is used, dropped where not.
 */
function pureContractValues(): Plugin {
  return {
    name: 'alertdesk:pure-contract-values',
    enforce: 'post',
    transform(code, id) {
      if (!/[\\/]contract[\\/][^\\/]+\.ts$/.test(id) || id.endsWith('.test.ts')) return null;
      const ast = parseAst(code) as unknown as { body: Array<{ type: string; start: number; end: number; declaration?: unknown; declarations?: unknown }> };
      const spans: Array<[number, number]> = [];
      for (const node of ast.body) {
        const decl = (node.type === 'ExportNamedDeclaration' ? node.declaration : node) as { type?: string; declarations?: Array<{ init?: { type: string; start: number; end: number } }> } | null;
        if (decl?.type !== 'VariableDeclaration') continue;
        for (const d of decl.declarations ?? []) if (d.init && d.init.type === 'CallExpression') spans.push([d.init.start, d.init.end]);
      }
      if (spans.length === 0) return null;
      let out = code;
      for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * The dev server answers `/` as the server does (server/app.ts): the marketing page's own entry, home.html, except on
 * the app host (there the app's `/` route sends to the dashboard).
 */
function homePageAtRootInDev(): Plugin {
  const appHostPrefix = process.env.APP_HOST_PREFIX ?? 'app.';
  return {
    name: 'alertdesk:home-page-at-root',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '';
        if (req.method === 'GET' && (url === '/' || url.startsWith('/?')) && !(req.headers.host ?? '').startsWith(appHostPrefix)) req.url = `/home.html${url.slice(1)}`;
        next();
      });
    },
  };
}

// The web app lives in web/; the server serves dist/web in production and proxies nothing in dev.
export default defineConfig({
  root: 'web',
  // Every asset above 1 KiB also as .br and .gz: the server sends those as they are (no compression per request).
  plugins: [react(), pureContractValues(), homePageAtRootInDev(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  // The manifest lets the bundle-budget test (e2e/bundle-budget.test.ts) see what each page loads up front.
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // Two pages: the app (index.html: router, queries, every page lazy) and the marketing home page (home.html: that
    // page alone, without the app's router and query code; issue 14's budget). They share the chunks they both use.
    rolldownOptions: {
      input: { index: path.resolve(import.meta.dirname, 'web/index.html'), home: path.resolve(import.meta.dirname, 'web/home.html') },
      output: {
        codeSplitting: {
          groups: [
            // What every page of both entries runs before anything else (React, Mantine's provider and styles
            // system) as one chunk: cached once for the home page and the app, and smaller than the dozen
            // fragments automatic splitting cuts it into once there are two entries.
            { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|@mantine[\\/]core[\\/]esm[\\/]core)[\\/]/ },
            // The app's routing and data layer, which only the app entry loads (the home page has neither).
            { name: 'app-framework', test: /node_modules[\\/](react-router|@tanstack)[\\/]/ },
            // The sidebar's icons (and the icon factory) as one chunk rather than a dozen of a few hundred bytes each,
            // every one of which the first visit of any page fetches and parses (their wrappers cost more than them).
            { name: 'nav-icons', test: /@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/](createReactComponent|defaultAttributes|icons[\\/](IconGauge|IconBell|IconUsers|IconUser|IconChartBar|IconSitemap|IconChecklist|IconBuildingSkyscraper|IconShieldLock|IconLogout|IconSun|IconMoon|IconMailOpened))\.mjs$/ },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
