import path from 'node:path';
import { defineConfig, parseAst, type Plugin, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { withViewChunks } from './scripts/view-chunks.ts';

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

const web = (file: string) => path.resolve(import.meta.dirname, 'web/src', file);

// The web app lives in web/; the server serves dist/web in production and proxies nothing in dev.
const config: UserConfig = {
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
            { name: 'framework', priority: 20, test: /node_modules[\\/](react|react-dom|scheduler|@mantine[\\/]core[\\/]esm[\\/]core)[\\/]/ },
            // The app's routing and data layer, which only the app entry loads (the home page has neither).
            { name: 'app-framework', priority: 10, test: /node_modules[\\/](react-router|@tanstack)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
};

// Issue 33: the build groups each key view's first-visit code into a few chunks (scripts/view-chunks.ts). A key view's
// roots are its lazy route modules and the lazy parts it always shows at once, which then arrive with it. The home page
// is an entry of its own (`separate`): what it loads lazily is kept out of chunks that would bring the app along. The
// toasts' container is none of them: it loads with the first toast (main.tsx), which a first visit does not show.
const views = {
  home: [web('home-main.tsx')],
  login: [web('features/auth/pages/LoginPage.tsx')],
  dashboard: [
    web('app/guards.tsx'),
    web('app/layout/AppLayout.tsx'),
    web('features/dashboard/pages/DashboardPage.tsx'),
    web('features/dashboard/components/AlertCard.tsx'),
    web('features/dashboard/components/PagedNobody.tsx'),
    web('features/dashboard/components/MaintenanceBanner.tsx'),
    web('components/ThemeToggleTooltip.tsx'),
  ],
};

export default defineConfig(async ({ command }) =>
  command === 'build' ? withViewChunks(config, views, web('main.tsx'), { separate: ['home'], dropInFirstPass: (p) => p.name.includes('compression') }) : config,
);
