import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

// config → migrate (inside buildApp) → listen; SIGTERM/SIGINT finish in-flight requests, then close the database.
const config = loadConfig();
const { app } = await buildApp(config);
// A stray rejected promise (say, a background write while the database is away) is logged; it must not take every
// tenant's alerting down with it. Errors thrown synchronously still end the process: its state is then unknown.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));
const address = await app.listen({ port: config.port, host: config.host });
app.log.info({ address }, `Alertdesk is serving on ${config.publicUrl}`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    app.log.info('closed cleanly');
    process.exit(0);
  });
}
