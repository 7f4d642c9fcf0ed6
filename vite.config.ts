import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/; the server serves dist/web in production and proxies nothing in dev.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
});
