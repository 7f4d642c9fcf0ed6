// `npm start`: build the web app when it is missing or older than its sources, then run the server.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const index = path.join(root, 'dist', 'web', 'index.html');

function newest(dir) {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
const sources = Math.max(newest(path.join(root, 'web')), newest(path.join(root, 'contract')));
if (built < sources) {
  console.log('Building the web app…');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], { cwd: root, stdio: 'inherit' });
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => server.kill(s));
server.on('exit', (code) => process.exit(code ?? 0));
