// The site server's source in PostgreSQL (docs/builder.md#serving): sites from the builder's read
// models; changes heard by LISTEN on the channel the serving projection NOTIFYs in each append's
// transaction, and, as a backstop, by comparing the projection's change counts every few seconds (a
// dropped connection, or a pooling proxy that cannot carry LISTEN).
import type { ServedSite, SiteServingSource } from '@tributary/adapters';
import { createSiteServingReadModels, SITE_SERVING_CHANNEL, type Queryable } from '@tributary/projections';
import type pg from 'pg';
import type { Logger } from 'pino';

export interface PgSiteServingOptions {
  /** How often the change counts are compared (SITES_CHANGE_POLL_SECONDS). */
  pollMs: number;
  /** First delay before listening again after the connection is lost; doubles up to 30 s. */
  reconnectMs?: number;
  /**
   * Where the full load reads (a hot standby that has replayed everything the primary had when asked,
   * docs/operations.md#read-replicas); `pool` otherwise. A change heard, and the change counts, are
   * read on `pool`: a notice means the primary has the change, a standby may not yet.
   */
  fullLoad?: Queryable;
}

export function createPgSiteServingSource(
  pool: pg.Pool,
  logger: Logger,
  o: PgSiteServingOptions,
): SiteServingSource {
  const read = createSiteServingReadModels(pool);
  const loadAll = o.fullLoad ? createSiteServingReadModels(o.fullLoad) : read;
  return {
    all: (): Promise<ServedSite[]> => loadAll.all(),
    site: (siteId): Promise<ServedSite | null> => read.site(siteId),
    async subscribe(onChange) {
      let closed = false;
      let client: pg.PoolClient | null = null;
      let reconnectTimer: NodeJS.Timeout | null = null;
      let failures = 0;
      let counts: Map<string, number> | null = null;
      let total = -1;

      const deliver = (key: string) => {
        read.siteOfChange(key).then(
          (siteId) => {
            if (siteId !== null && !closed) onChange(siteId);
          },
          (error: unknown) => {
            logger.warn({ err: error, key }, 'site serving: resolving a change failed; reloading every site');
            if (!closed) onChange(null);
          },
        );
      };

      const listen = async (): Promise<void> => {
        const c = await pool.connect();
        c.on('notification', (msg) => {
          if (msg.channel === SITE_SERVING_CHANNEL && msg.payload) deliver(msg.payload);
        });
        c.on('error', (error) => {
          if (client !== c) return;
          client = null;
          c.release(error);
          if (closed) return;
          logger.warn({ err: { message: error.message } }, 'site serving: LISTEN connection lost');
          scheduleListen();
        });
        try {
          await c.query(`LISTEN ${SITE_SERVING_CHANNEL}`);
        } catch (error) {
          c.release(error as Error);
          throw error;
        }
        client = c;
        failures = 0;
      };

      const scheduleListen = () => {
        if (closed || reconnectTimer) return;
        const delay = Math.min(30_000, (o.reconnectMs ?? 500) * 2 ** Math.min(failures++, 6));
        reconnectTimer = setTimeout(() => {
          reconnectTimer = null;
          listen().then(
            // Whatever changed while nobody listened: load everything again.
            () => onChange(null),
            (error: unknown) => {
              logger.warn({ err: { message: (error as Error).message } }, 'site serving: cannot LISTEN yet');
              scheduleListen();
            },
          );
        }, delay);
        reconnectTimer.unref();
      };

      const poll = async () => {
        const now = await read.changeTotal();
        if (now === total) return;
        const latest = await read.changeCounts();
        if (counts) for (const [key, n] of latest) if (counts.get(key) !== n) deliver(key);
        counts = latest;
        total = now;
      };

      // Listening and the first counts come before the caller's first load, so nothing falls between.
      await listen();
      await poll();
      const pollTimer = setInterval(() => {
        poll().catch((error: unknown) =>
          logger.warn({ err: { message: (error as Error).message } }, 'site serving: change poll failed'),
        );
      }, o.pollMs);
      pollTimer.unref();

      return async () => {
        closed = true;
        clearInterval(pollTimer);
        if (reconnectTimer) clearTimeout(reconnectTimer);
        const c = client;
        client = null;
        if (c) {
          await c.query(`UNLISTEN ${SITE_SERVING_CHANNEL}`).catch(() => undefined);
          c.release();
        }
      };
    },
  };
}
