// The environment every benchmark runs in: a fresh database on the server named by the environment
// (or on a throwaway embedded PostgreSQL), a real instance composed on it and served over HTTP, and a
// pool of our own on the same database for the raw baselines.
import { createTestDatabase } from '@tributary/test';
import { composeInstance, createLogger, loadConfig, serve, startEmbeddedPostgres } from '@tributary/infra';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createRawTable, type BenchContext } from './bench-kit.js';

export interface BenchEnvironment {
  ctx: BenchContext;
  /** One line describing the machine and the database server. */
  describe(): Promise<string>;
  /** Stops the server and the instance, drops the database, stops embedded PostgreSQL; idempotent. */
  close(): Promise<void>;
}

export async function openBenchEnvironment(options: {
  scale: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<BenchEnvironment> {
  const cleanups: (() => Promise<unknown>)[] = [];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error(`[bench] cleanup failed: ${(error as Error).message}`);
        }
      }
    })());

  try {
    // The database server: the one named in the environment, or a throwaway embedded one.
    let where: string;
    const given = process.env.TRIBUTARY_TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
    if (given) {
      process.env.TRIBUTARY_TEST_DATABASE_URL = given;
      where = `server ${new URL(given).host} (from the environment)`;
    } else {
      const dir = await mkdtemp(join(os.tmpdir(), 'trib-bench-pg-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      options.log('[bench] starting embedded PostgreSQL…');
      const embedded = await startEmbeddedPostgres({ dataDir: dir });
      cleanups.push(() => embedded.stop());
      process.env.TRIBUTARY_TEST_DATABASE_URL = embedded.adminUrl;
      where = `embedded PostgreSQL on port ${embedded.port}`;
    }
    const db = await createTestDatabase();
    cleanups.push(() => db.drop());

    // A real instance on that database, served over HTTP, configured as the tests start one.
    const dataDir = await mkdtemp(join(os.tmpdir(), 'trib-bench-instance-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '20',
      TRIBUTARY_DATA_DIR: dataDir,
      INSTANCE_ROLE: 'group',
      INSTANCE_NAME: 'Bench',
      BCRYPT_ROUNDS: '4',
      LOG_LEVEL: 'silent',
      // The feed benchmark reads from one address far faster than any reader should: the per-address
      // check still runs on every request, its limit is only out of reach.
      RATE_LIMIT_FEED: '1000000/s',
    });
    const instance = await composeInstance(config, { logger: createLogger('silent') });
    let stopInstance: () => Promise<void> = () => instance.close();
    cleanups.push(() => stopInstance());
    const running = await serve(instance);
    stopInstance = () => running.stop();

    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    pool.on('error', () => undefined);
    cleanups.push(() => pool.end());
    await createRawTable(pool);

    const ctx: BenchContext = {
      instance,
      url: running.url,
      pool,
      scale: options.scale,
      rounds: options.rounds,
      async settle() {
        await instance.sequencer.drain();
        await instance.asyncProjections.catchUp();
      },
      log: options.log,
    };
    return {
      ctx,
      close,
      async describe() {
        const { rows } = await pool.query<{ v: string; fsync: string; sc: string }>(
          `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync,
                  current_setting('synchronous_commit') AS sc`,
        );
        const s = rows[0]!;
        return (
          `node ${process.version}, ${os.cpus().length} cpus; PostgreSQL ${s.v.split(' ')[0]} ` +
          `(fsync=${s.fsync}, synchronous_commit=${s.sc}), ${where}, database ${db.name}`
        );
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
