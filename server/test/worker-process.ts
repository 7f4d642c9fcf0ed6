// A server instance in a process of its own, for tests that kill one (SIGKILL) mid-work: the configuration comes from
// the environment as in production (DATABASE_URL, DATABASE_SCHEMA, SMTP_URL…), its job worker runs by itself, and it
// tells its parent when it is ready. Run with `fork(…, { execArgv: ['--import', 'tsx'] })`.
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

const config = { ...loadConfig(), webDir: null, logLevel: 'silent' as const, jobWorker: true };
const { app } = await buildApp(config, { logger: false, pollMs: 50 });
await app.ready();
process.send?.('ready');
