// DATABASE_URL when set; otherwise the embedded Postgres under the data folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from './embedded-postgres.js';

export interface Database {
  pool: pg.Pool;
  url: string;
  embedded: boolean;
  /** What keeps this process from working by itself: the embedded PostgreSQL not running. */
  healthProblems(): string[];
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<
    Config,
    | 'DATABASE_URL'
    | 'TRIBUTARY_DATA_DIR'
    | 'DATABASE_POOL_SIZE'
    | 'DATABASE_CONNECT_TIMEOUT_MS'
    | 'DATABASE_STATEMENT_TIMEOUT_MS'
    | 'DATABASE_LONG_STATEMENT_TIMEOUT_MS'
  >,
  logger: Logger,
  options: {
    attachToRunning?: boolean;
    /** An operator's long command: DATABASE_LONG_STATEMENT_TIMEOUT_MS bounds its statements. */
    maintenance?: boolean;
  } = {},
): Promise<Database> {
  let embedded: { url: string; running(): boolean; stop(): Promise<void> } | undefined;
  let url = config.DATABASE_URL;
  // Operator commands run beside a started instance: use the cluster it already runs.
  if (!url && options.attachToRunning) url = await runningEmbeddedPostgresUrl(config.TRIBUTARY_DATA_DIR);
  if (!url) {
    // The first start creates the cluster (initdb), which takes a while: say so instead of going quiet.
    const created = existsSync(join(config.TRIBUTARY_DATA_DIR, 'postgres', 'PG_VERSION'));
    logger.info(
      { dataDir: config.TRIBUTARY_DATA_DIR },
      created
        ? 'starting the embedded database…'
        : 'preparing the embedded database (first start: this takes a little while)…',
    );
    embedded = await startEmbeddedPostgres({
      dataDir: config.TRIBUTARY_DATA_DIR,
      notice: (level, event, message, details) => logger[level]({ event, ...details }, message),
    });
    url = embedded.url;
    logger.info({ dataDir: config.TRIBUTARY_DATA_DIR }, 'embedded Postgres started');
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: config.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: config.DATABASE_CONNECT_TIMEOUT_MS,
    // Set at connection start-up, so it holds for every statement on the connection (0: no bound).
    statement_timeout: options.maintenance
      ? config.DATABASE_LONG_STATEMENT_TIMEOUT_MS
      : config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  // An idle client's error (the server restarting, an administrator ending connections) must not crash
  // the process, and is worth one short line: the pool drops that client and opens another when needed.
  // (The error object carries the whole client; logged as is, each was 11–15 kB.)
  pool.on('error', (err: Error & { code?: string }) => {
    const ended = err.code === '57P01' || /^Connection terminated/.test(err.message);
    logger[ended ? 'info' : 'warn'](
      { err: { code: err.code, message: err.message } },
      ended ? 'idle database connection ended by the server' : 'idle database client error',
    );
  });
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw new Error(`cannot reach the database: ${(e as Error).message}`, { cause: e });
  }
  return {
    pool,
    url,
    embedded: !!embedded,
    healthProblems: () =>
      embedded && !embedded.running() ? ['the embedded PostgreSQL is not running; restarting it'] : [],
    async close() {
      await endPool(pool);
      logger.info('database pool closed');
      if (embedded) {
        await embedded.stop();
        logger.info('embedded Postgres stopped');
      }
    },
  };
}

/**
 * Ends the pool and waits until each of its connections has really closed. pool.end() resolves once
 * it has asked each idle client to end, before they have: an embedded Postgres stopped right after
 * would cut them, and each would report it.
 */
async function endPool(pool: pg.Pool, timeoutMs = 5000): Promise<void> {
  const open = pool.totalCount;
  let removed = 0;
  let timer: NodeJS.Timeout | undefined;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on('remove', () => {
      if (++removed >= open) resolve();
    });
    timer = setTimeout(resolve, timeoutMs);
  });
  await pool.end();
  await allClosed;
  clearTimeout(timer);
}
