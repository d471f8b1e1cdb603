// Tests run with vitest: `npm test` (typecheck, lint, then every test), `npm run test:watch`, or
// `npx vitest run <path substring> [-t <test name>]`. See README § Testing.
import { defineConfig } from 'vitest/config';
import { VITE_ENV_KEYS } from './test/src/vitest/vite-env-keys.js';

/** TEST_CONCURRENCY: test files run at once (default 2, one per core of the machine the suite targets). */
function testConcurrency(): number {
  const raw = process.env.TEST_CONCURRENCY?.trim();
  if (raw === undefined || raw === '') return 2;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 1) return value;
  console.warn(`[vitest.config] ignoring TEST_CONCURRENCY=${raw}: not a positive integer`);
  return 2;
}

/**
 * The values the run was started with for the keys vitest overwrites (see test/src/vitest/outer-env.ts).
 * Taken once per process: vitest loads this file again for each project, after it has written its own
 * values into process.env.
 */
function outerEnv(): Record<string, string> {
  const memo = globalThis as { tributaryTestOuterEnv?: Record<string, string> };
  if (memo.tributaryTestOuterEnv === undefined) {
    const outer: Record<string, string> = {};
    for (const key of VITE_ENV_KEYS) {
      const value = process.env[key];
      if (value !== undefined) outer[key] = value;
    }
    memo.tributaryTestOuterEnv = outer;
  }
  return memo.tributaryTestOuterEnv;
}

const TEST_FILES = [
  '{domain,services,projections,adapters,infra}/test/**/*.test.ts',
  'test/src/**/*.test.ts',
];
/** Tests that need no server (no PostgreSQL, no Redis): the fast tier, `npm run check`. */
const UNIT_FILES = ['**/*.unit.test.ts'];
/**
 * Unit files that start worker threads: each runs in a fresh process of its own (project
 * `unit-isolated`), since a worker's life must not depend on what another file left in a shared one.
 */
const ISOLATED_UNIT_FILES = ['**/*worker*.unit.test.ts'];

export default defineConfig({
  test: {
    // Each file in its own child process, two at a time by default: the machine has two cores, and
    // several suites start servers, browsers and child processes that must not share a process.
    pool: 'forks',
    maxWorkers: testConcurrency(),
    // Node's runner, which these tests were written for, had no default timeout; some end-to-end suites
    // take minutes (the MCP conformance suite bounds itself at 300 s). A hung test still ends here.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    teardownTimeout: 60_000,
    // Hooks run in the order they are written, after hooks included, as under node's runner.
    sequence: { hooks: 'list' },
    setupFiles: ['test/src/vitest/outer-env.ts'],
    env: { TRIBUTARY_TEST_OUTER_ENV: JSON.stringify(outerEnv()) },
    reporters: [
      'default',
      './test/src/vitest/run-watch-reporter.ts',
      './test/src/vitest/summary-reporter.ts',
    ],
    projects: [
      {
        extends: true,
        // A unit test takes milliseconds to a few seconds: one that hangs fails within a minute, by name.
        test: {
          name: 'unit',
          include: UNIT_FILES,
          // The files of a worker share its loaded modules instead of each importing the whole stack
          // again (most of the tier's time otherwise): a unit test leaves no module state behind, no
          // mocks or globals it does not restore.
          isolate: false,
          exclude: ['**/node_modules/**', '**/.tsbuild/**', ...ISOLATED_UNIT_FILES],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: ISOLATED_UNIT_FILES,
          isolate: true,
          exclude: ['**/node_modules/**', '**/.tsbuild/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: TEST_FILES,
          exclude: ['**/node_modules/**', '**/.tsbuild/**', ...UNIT_FILES],
          // PostgreSQL and Redis, for this project only: the unit tier runs without them.
          globalSetup: ['test/src/vitest/global-setup.ts'],
        },
      },
    ],
  },
});
