// The test runner behind `npm test` (after typecheck and lint) and `npm run test:only`.
//
//   node --import tsx test/src/run-tests.ts [filter...] [--node-test-flag...]
//
// - DATABASE_URL unset: starts a throwaway embedded PostgreSQL under os.tmpdir() and exports its URL;
//   TRIBUTARY_TEST_DATABASE_URL (the admin URL that test/src/harness/database.ts creates databases on)
//   is exported too.
// - REDIS_URL unset and redis-server on the PATH: starts a private redis-server on a free port.
//   Without one REDIS_URL stays unset and tests that need Redis must skip.
// - Runs every *.test.ts under the workspaces' test folders (filtered by substring when filters are
//   given) with node's test runner, then prints `N passed, M failed[, K skipped]` and exits with its code.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../infra/src/postgres/embedded-postgres.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TEST_ROOTS = [
  'domain/test',
  'services/test',
  'projections/test',
  'adapters/test',
  'infra/test',
  'test/src',
];
const DEFAULT_CONCURRENCY = 2;

type Cleanup = () => Promise<void> | void;

let interrupted: NodeJS.Signals | undefined;
let testProcess: ChildProcess | undefined;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted !== undefined) {
      testProcess?.kill('SIGKILL'); // second signal: stop waiting
      return;
    }
    interrupted = signal;
    console.error(`\n[run-tests] ${signal}: stopping the tests and the services started for them`);
    testProcess?.kill(signal);
  });
}

/**
 * As root, embedded PostgreSQL runs as the user "postgres", which must reach its programs under this
 * checkout's node_modules. A checkout in a folder only root may enter (e.g. `mktemp -d`, mode 0700) is
 * opened to others for traversal only (o+x), and the runner says so.
 */
async function letPostgresUserIn(): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const stat = await fs.stat(repoRoot);
  if ((stat.mode & 0o001) !== 0) return;
  await fs.chmod(repoRoot, (stat.mode & 0o7777) | 0o001);
  console.log(`[run-tests] chmod o+x ${repoRoot}: embedded PostgreSQL runs as "postgres" and must enter it`);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const nodeFlags = args.filter((arg) => arg.startsWith('-'));
  const filters = args.filter((arg) => !arg.startsWith('-'));

  await letPostgresUserIn();
  const files = await findTestFiles(filters);
  if (files.length === 0) {
    if (filters.length > 0) {
      console.error(`[run-tests] no test file matches ${filters.map((f) => `"${f}"`).join(', ')}`);
      return 1;
    }
    console.log('[run-tests] no test files found');
    console.log('0 passed, 0 failed');
    return 0;
  }

  const env: NodeJS.ProcessEnv = { ...process.env };
  const cleanups: Cleanup[] = [];
  try {
    if (!(await provideDatabase(env, cleanups))) return 1;
    await provideRedis(env, cleanups);
    if (interrupted !== undefined) return exitCodeForSignal(interrupted);
    return await runNodeTests(files, nodeFlags, env);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`[run-tests] cleanup failed: ${(error as Error).message}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Test files

async function findTestFiles(filters: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const root of TEST_ROOTS) await walk(path.join(repoRoot, root), found);
  return found
    .map((file) => path.relative(repoRoot, file))
    .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
    .sort();
}

async function walk(dir: string, found: string[]): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(full, found);
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(full);
  }
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

async function provideDatabase(env: NodeJS.ProcessEnv, cleanups: Cleanup[]): Promise<boolean> {
  const given = nonEmpty(env.DATABASE_URL);
  if (given !== undefined) {
    env.TRIBUTARY_TEST_DATABASE_URL = nonEmpty(env.TRIBUTARY_TEST_DATABASE_URL) ?? given;
    try {
      await ping(env.TRIBUTARY_TEST_DATABASE_URL);
    } catch (error) {
      console.error(
        `[run-tests] DATABASE_URL ${redact(env.TRIBUTARY_TEST_DATABASE_URL)} does not answer: ${(error as Error).message}`,
      );
      return false;
    }
    console.log(`[run-tests] database: ${redact(env.TRIBUTARY_TEST_DATABASE_URL)} (from the environment)`);
    return true;
  }

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tributary-test-pg-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const started = Date.now();
  try {
    const postgres = await startEmbeddedPostgres({
      dataDir,
      log: process.env.TRIBUTARY_TEST_PG_LOG ? (line) => console.error(`[postgres] ${line}`) : undefined,
      // A throwaway cluster: durability buys nothing here and costs time.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    });
    cleanups.push(() => postgres.stop());
    env.DATABASE_URL = postgres.url;
    env.TRIBUTARY_TEST_DATABASE_URL = postgres.adminUrl;
    console.log(
      `[run-tests] database: embedded PostgreSQL on 127.0.0.1:${postgres.port} ` +
        `(started in ${Date.now() - started} ms, data in ${dataDir})`,
    );
    return true;
  } catch (error) {
    console.error(`[run-tests] could not start embedded PostgreSQL: ${(error as Error).message}`);
    return false;
  }
}

async function ping(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Redis

async function provideRedis(env: NodeJS.ProcessEnv, cleanups: Cleanup[]): Promise<void> {
  if (nonEmpty(env.REDIS_URL) !== undefined) {
    console.log(`[run-tests] redis: ${redact(env.REDIS_URL ?? '')} (from the environment)`);
    return;
  }
  if (!onPath('redis-server')) {
    delete env.REDIS_URL;
    console.log('[run-tests] redis: none (REDIS_URL unset and no redis-server on the PATH)');
    return;
  }
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 20));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => output.push(error.message));
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  cleanups.push(stop);

  if (await redisAnswers(port, child)) {
    env.REDIS_URL = `redis://127.0.0.1:${port}`;
    console.log(`[run-tests] redis: private redis-server on 127.0.0.1:${port}`);
  } else {
    await stop();
    delete env.REDIS_URL;
    console.warn(
      `[run-tests] redis: redis-server did not start, REDIS_URL stays unset (${output.at(-1) ?? ''})`,
    );
  }
}

async function redisAnswers(port: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      let data = '';
      socket.setTimeout(1_000, () => socket.destroy());
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (chunk) => {
        data += chunk.toString('utf8');
        if (data.includes('\r\n')) socket.end();
      });
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
    });
    if (answer.startsWith('+PONG')) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(path.join(dir, command), fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// node --test

async function runNodeTests(files: string[], nodeFlags: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const concurrency = testConcurrency();
  const reportDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tributary-test-report-'));
  const tapFile = path.join(reportDir, 'report.tap');
  try {
    const args = [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tapFile}`,
      ...nodeFlags,
      ...files,
    ];
    console.log(`[run-tests] ${files.length} test file(s), concurrency ${concurrency}`);
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: 'inherit' });
    testProcess = child;
    const code = await new Promise<number>((resolve) => {
      child.on('error', (error) => {
        console.error(`[run-tests] could not run node --test: ${error.message}`);
        resolve(1);
      });
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? exitCodeForSignal(signal) : 1)));
    });
    testProcess = undefined;

    const tap = await fs.readFile(tapFile, 'utf8').catch(() => '');
    const count = (name: string): number => {
      const matches = [...tap.matchAll(new RegExp(`^# ${name} (\\d+)\\s*$`, 'gm'))];
      return Number(matches.at(-1)?.[1] ?? 0);
    };
    const passed = count('pass');
    const failed = count('fail') + count('cancelled');
    const skipped = count('skipped');
    if (tap === '')
      console.error('[run-tests] node --test wrote no TAP report; the counts below are incomplete');
    console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
    if (interrupted !== undefined) return exitCodeForSignal(interrupted);
    return code;
  } finally {
    await fs.rm(reportDir, { recursive: true, force: true });
  }
}

function testConcurrency(): number {
  const raw = nonEmpty(process.env.TEST_CONCURRENCY);
  if (raw === undefined) return DEFAULT_CONCURRENCY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.warn(`[run-tests] ignoring TEST_CONCURRENCY=${raw}: not a positive integer`);
    return DEFAULT_CONCURRENCY;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function exitCodeForSignal(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[run-tests] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
