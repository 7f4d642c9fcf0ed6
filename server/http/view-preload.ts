import fs from 'node:fs';
import path from 'node:path';

/** The pages whose first visit the build grouped (vite.config.ts `views`), by the path the browser asks for. */
const VIEW_OF_PATH: Record<string, string> = { '/app': 'dashboard', '/app/': 'dashboard', '/app/dashboard': 'dashboard', '/login': 'login' };

/**
 * Issue 33: the app's page announces the scripts and styles of the view it opens (from the build's `.vite/views.json`)
 * as modulepreload and stylesheet links, so the browser fetches them with the entry instead of discovering them one
 * parse later when the router loads the route. A build without the file, or another path, gets the page unchanged.
 */
export function viewPreloader(webDir: string): (urlPath: string, html: string) => string {
  let views: Record<string, { js: string[]; css: string[] }> = {};
  try {
    views = JSON.parse(fs.readFileSync(path.join(webDir, '.vite', 'views.json'), 'utf8'));
  } catch {
    return (_p, html) => html;
  }
  const cache = new Map<string, string>();
  return (urlPath, html) => {
    const view = views[VIEW_OF_PATH[urlPath] ?? ''];
    if (!view) return html;
    const key = `${urlPath}\n${html}`;
    let out = cache.get(key);
    if (out === undefined) {
      const links = [
        ...view.css.filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
        ...view.js.filter((f) => !html.includes(`/${f}"`)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
      ];
      out = html.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
      cache.clear();
      cache.set(key, out);
    }
    return out;
  };
}
