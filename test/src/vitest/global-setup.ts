// vitest's global setup for the tests that need servers (`npm test`, `npm run test:watch`):
//
// - DATABASE_URL unset: starts a throwaway embedded PostgreSQL under os.tmpdir() and exports its URL;
//   TRIBUTARY_TEST_DATABASE_URL (the admin URL that test/src/harness/database.ts creates databases on)
//   is exported too.
// - DATABASE_URL set: TRIBUTARY_TEST_RUN names this run, its tests' databases carry it, and teardown
//   drops those still there.
// - REDIS_URL unset and redis-server on the PATH: starts a private redis-server (on a unix
//   socket, reached through a TCP forwarder on a port the kernel picked).
//   Without one REDIS_URL stays unset and tests that need Redis must skip.
//
// The variables are set on this process before vitest starts its test workers, which inherit them.
// Teardown stops what was started and prints nothing, so the run still ends with the summary line.
import { randomBytes } from 'node:crypto';
import { accessSync, constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../infra/src/postgres/embedded-postgres.js';
import { startTestRedis } from '../harness/redis-server.js';

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
    // A shared server outlives the run: the databases this run's tests made and left are dropped at the
    // end, so runs do not pile them up (an embedded server goes with its folder).
    const run = randomBytes(4).toString('hex');
    env.TRIBUTARY_TEST_RUN = run;
    const adminUrl = env.TRIBUTARY_TEST_DATABASE_URL;
    cleanups.push(() => dropRunDatabases(adminUrl, run));
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

/** Drops every `trib_test_<run>_…` database still on the server. */
async function dropRunDatabases(url: string, run: string): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    query_timeout: 60_000,
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [`trib_test_${run}_`],
    );
    for (const { datname } of rows)
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
  } finally {
    await client.end().catch(() => undefined);
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
    log(`redis: ${redact(env.REDIS_URL ?? '')} (from the environment)`);
    return;
  }
  if (!onPath('redis-server')) {
    delete env.REDIS_URL;
    log('redis: none (REDIS_URL unset and no redis-server on the PATH)');
    return;
  }
  // Redis cannot listen on port 0: it listens on a unix socket, and the tests reach it through a TCP
  // forwarder on a port the kernel picked, held for the whole run (test/src/harness/redis-server.ts).
  try {
    const redis = await startTestRedis();
    cleanups.push(() => redis.close());
    env.REDIS_URL = redis.url;
    log(`redis: private redis-server, reached at ${redis.url}`);
  } catch (e) {
    delete env.REDIS_URL;
    console.warn(
      `[test-setup] redis: redis-server did not start, REDIS_URL stays unset (${(e as Error).message})`,
    );
  }
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
