// Split deployments (docs/operations.md#process-roles): an API process appends but does not sequence,
// so without a word from it a worker's sequencer finds its appends only on its 250 ms timer. The API
// process says "appended" on a NOTIFY channel (pokes within a few milliseconds coalesce into one
// notice, so a burst of writers costs one round trip) and each worker LISTENs and pokes its sequencer.
// The timer stays: a notice lost with a dropped connection only costs that latency.
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';

export const APPENDED_CHANNEL = 'tributary_appended';

/** Retry of a lost LISTEN connection. */
const RELISTEN_MS = 1000;

/** A poke that sends one NOTIFY per `coalesceMs` window, however many appends it covers. */
export function appendNotifier(pool: Pool, logger: Logger, coalesceMs = 5): { poke(): void; stop(): void } {
  let scheduled: NodeJS.Timeout | null = null;
  let stopped = false;
  const send = () => {
    scheduled = null;
    if (stopped) return;
    pool.query(`SELECT pg_notify('${APPENDED_CHANNEL}', '')`).catch((err: unknown) => {
      if (!stopped) logger.debug({ err }, 'append notice not sent; the workers will find it by their timer');
    });
  };
  return {
    poke() {
      if (!scheduled && !stopped) scheduled = setTimeout(send, coalesceMs);
    },
    stop() {
      stopped = true;
      if (scheduled) clearTimeout(scheduled);
    },
  };
}

/** Holds one pool connection LISTENing for append notices; calls `onAppend` for each. */
export function listenForAppends(
  pool: Pool,
  logger: Logger,
  onAppend: () => void,
): { stop(): Promise<void> } {
  let client: PoolClient | null = null;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;
  let connecting: Promise<void> | null = null;
  const scheduleRetry = () => {
    if (!stopped && !retry) retry = setTimeout(() => (connecting = connect()), RELISTEN_MS);
  };
  const connect = async (): Promise<void> => {
    retry = null;
    if (stopped) return;
    let c: PoolClient;
    try {
      c = await pool.connect();
    } catch (err) {
      logger.warn({ err: { message: (err as Error).message } }, 'append notices: cannot LISTEN yet');
      return scheduleRetry();
    }
    c.on('notification', (msg) => {
      if (msg.channel === APPENDED_CHANNEL) onAppend();
    });
    c.on('error', (error) => {
      if (client !== c) return;
      client = null;
      c.release(error);
      logger.warn({ err: { message: error.message } }, 'append notices: LISTEN connection lost');
      scheduleRetry();
    });
    try {
      await c.query(`LISTEN ${APPENDED_CHANNEL}`);
    } catch (err) {
      c.release(err as Error);
      logger.warn({ err: { message: (err as Error).message } }, 'append notices: cannot LISTEN yet');
      return scheduleRetry();
    }
    if (stopped) {
      await c.query(`UNLISTEN ${APPENDED_CHANNEL}`).catch(() => undefined);
      c.release();
      return;
    }
    client = c;
    // Appends made while it was not listening: one pass finds them.
    onAppend();
  };
  connecting = connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await connecting;
      const c = client;
      client = null;
      if (c) {
        await c.query(`UNLISTEN ${APPENDED_CHANNEL}`).catch(() => undefined);
        c.release();
      }
    },
  };
}
