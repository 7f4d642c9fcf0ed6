import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';

/** A worker process forked by `forkWorker`: the process, and how to kill it (SIGKILL) and wait for its end. */
export interface ForkedWorker {
  child: ChildProcess;
  /** Settles when the process has exited. */
  exited: Promise<void>;
  /** SIGKILL, then the exit awaited: what a crash does to a server mid-work. */
  kill(): Promise<void>;
}

/**
 * A server instance in a process of its own (server/test/worker-process.ts) over a test app's database, its job worker
 * running: for tests that kill one mid-work. `env` adds to the environment (SMTP_URL, PAGE_SENDS_IN_FLIGHT…).
 */
export function forkWorker(config: Config, env: Record<string, string> = {}): ForkedWorker {
  const child = fork(fileURLToPath(new URL('./worker-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      ...(config.databaseSchema ? { DATABASE_SCHEMA: config.databaseSchema } : {}),
      PUBLIC_URL: config.publicUrl,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    child,
    exited,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
