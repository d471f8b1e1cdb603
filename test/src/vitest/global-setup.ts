// vitest's global setup for the tests that need servers (`npm test`, `npm run test:watch`):
//
// - DATABASE_URL unset: starts a throwaway embedded PostgreSQL under os.tmpdir() and exports its URL;
//   TRIBUTARY_TEST_DATABASE_URL (the admin URL that test/src/harness/database.ts creates databases on)
//   is exported too.
// - REDIS_URL unset and redis-server on the PATH: starts a private redis-server on a free port.
//   Without one REDIS_URL stays unset and tests that need Redis must skip.
//
// The variables are set on this process before vitest starts its test workers, which inherit them.
// Teardown stops what was started and prints nothing, so the run still ends with the summary line.
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
import { startEmbeddedPostgres } from '../../../infra/src/postgres/embedded-postgres.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

type Cleanup = () => Promise<void> | void;

export default async function setup(): Promise<() => Promise<void>> {
  const cleanups: Cleanup[] = [];
  const teardown = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error(`[test-setup] cleanup failed: ${(error as Error).message}`);
      }
    }
  };
  try {
    await letPostgresUserIn();
    await provideDatabase(process.env, cleanups);
    await provideRedis(process.env, cleanups);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/**
 * As root, embedded PostgreSQL runs as the user "postgres", which must reach its programs under this
 * checkout's node_modules. A checkout in a folder only root may enter (e.g. `mktemp -d`, mode 0700) is
 * opened to others for traversal only (o+x), and the setup says so.
 */
async function letPostgresUserIn(): Promise<void> {
  if (process.getuid?.() !== 0 || nonEmpty(process.env.DATABASE_URL) !== undefined) return;
  const stat = await fs.stat(repoRoot);
  if ((stat.mode & 0o001) !== 0) return;
  await fs.chmod(repoRoot, (stat.mode & 0o7777) | 0o001);
  log(`chmod o+x ${repoRoot}: embedded PostgreSQL runs as "postgres" and must enter it`);
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

async function provideDatabase(env: NodeJS.ProcessEnv, cleanups: Cleanup[]): Promise<void> {
  const given = nonEmpty(env.DATABASE_URL);
  if (given !== undefined) {
    env.TRIBUTARY_TEST_DATABASE_URL = nonEmpty(env.TRIBUTARY_TEST_DATABASE_URL) ?? given;
    try {
      await ping(env.TRIBUTARY_TEST_DATABASE_URL);
    } catch (error) {
      throw new Error(
        `DATABASE_URL ${redact(env.TRIBUTARY_TEST_DATABASE_URL)} does not answer: ${(error as Error).message}`,
      );
    }
    log(`database: ${redact(env.TRIBUTARY_TEST_DATABASE_URL)} (from the environment)`);
    return;
  }

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tributary-test-pg-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const started = Date.now();
  let postgres;
  try {
    postgres = await startEmbeddedPostgres({
      dataDir,
      log: process.env.TRIBUTARY_TEST_PG_LOG ? (line) => console.error(`[postgres] ${line}`) : undefined,
      // A throwaway cluster: durability buys nothing here and costs time.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
    });
  } catch (error) {
    throw new Error(`could not start embedded PostgreSQL: ${(error as Error).message}`);
  }
  const stop = postgres.stop.bind(postgres);
  cleanups.push(() => stop());
  env.DATABASE_URL = postgres.url;
  env.TRIBUTARY_TEST_DATABASE_URL = postgres.adminUrl;
  log(
    `database: embedded PostgreSQL on 127.0.0.1:${postgres.port} ` +
      `(started in ${Date.now() - started} ms, data in ${dataDir})`,
  );
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
    log(`redis: ${redact(env.REDIS_URL ?? '')} (from the environment)`);
    return;
  }
  if (!onPath('redis-server')) {
    delete env.REDIS_URL;
    log('redis: none (REDIS_URL unset and no redis-server on the PATH)');
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
    log(`redis: private redis-server on 127.0.0.1:${port}`);
  } else {
    await stop();
    delete env.REDIS_URL;
    console.warn(
      `[test-setup] redis: redis-server did not start, REDIS_URL stays unset (${output.at(-1) ?? ''})`,
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

function log(line: string): void {
  console.log(`[test-setup] ${line}`);
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
