import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

// The web app lives in web/; the server serves dist/web in production and proxies nothing in dev.
export default defineConfig({
  root: 'web',
  // Every asset above 1 KiB also as .br and .gz: the server sends those as they are (no compression per request).
  plugins: [react(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
  // The manifest lets the bundle-budget test (e2e/bundle-budget.test.ts) see what each page loads up front.
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1500, manifest: true },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
