// A server instance in a process of its own, for tests that kill one (SIGKILL) mid-work: the configuration comes from
// the environment as in production (DATABASE_URL, DATABASE_SCHEMA, SMTP_URL…), its job worker runs by itself, and it
// tells its parent when it is ready. Run with `fork(…, { execArgv: ['--import', 'tsx'] })`.
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

const config = { ...loadConfig({ INBOUND_SMTP_PORT: '0', ...process.env }), webDir: null, logLevel: 'silent' as const, jobWorker: true };
const { app } = await buildApp(config, { logger: false, pollMs: 50 });
await app.ready();
process.send?.('ready');
// A server in production is kept alive by its listening socket; this one listens on nothing, and the worker's timers
// do not hold the process (a pass that failed waits on an unref'd timer): without this it could exit quietly, 0.
setInterval(() => {}, 60_000);
