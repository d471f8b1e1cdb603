// DATABASE_URL when set; otherwise the embedded Postgres under the data folder.
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from './embedded-postgres.js';

export interface Database {
  pool: pg.Pool;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'TRIBUTARY_DATA_DIR' | 'DATABASE_POOL_SIZE'>,
  logger: Logger,
  options: { attachToRunning?: boolean } = {},
): Promise<Database> {
  let embedded: { url: string; stop(): Promise<void> } | undefined;
  let url = config.DATABASE_URL;
  // Operator commands run beside a started instance: use the cluster it already runs.
  if (!url && options.attachToRunning) url = await runningEmbeddedPostgresUrl(config.TRIBUTARY_DATA_DIR);
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.TRIBUTARY_DATA_DIR });
    url = embedded.url;
    logger.info({ dataDir: config.TRIBUTARY_DATA_DIR }, 'embedded Postgres started');
  }
  const pool = new pg.Pool({ connectionString: url, max: config.DATABASE_POOL_SIZE });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle database client error'));
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
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
