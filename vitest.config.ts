import { defineConfig } from 'vitest/config';

/** Server test files that replace modules (vi.mock): each in a module graph of its own. */
const MOCKING = ['server/modules/auth/sign-in-timing.test.ts'];

const SERVER = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // expect.poll waits for something that happens soon, not for a deadline: a loaded machine may take seconds.
  expect: { poll: { timeout: 10_000 } },
} as const;

export default defineConfig({
  test: {
    // Two server test files at a time even on 2 cores (vitest's default there is one): much of a file's time is
    // waiting (timers, sockets, commits), and each file has its own app and database (PostgreSQL: a pooled schema).
    // The browser files run two at a time too (each has its own server, port and SQLite database): 634 s instead of
    // 902 s on 2 cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: MOCKING,
          ...SERVER,
          // The files of a worker share one module graph instead of importing the whole app afresh each (import was
          // most of the suite's time: 91 s of 244 s over the alerts and clients files; 11 s without). Every test file
          // builds its own app and database, so nothing of one file's state is another's; files that mock modules
          // run in their own project below.
          isolate: false,
        },
      },
      {
        test: { name: 'server-isolated', include: MOCKING, ...SERVER },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // A page under a loaded CI machine can take seconds to show what the test waits for (no deadlines here).
          expect: { poll: { timeout: 20_000 } },
        },
      },
    ],
  },
});
