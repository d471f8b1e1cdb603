// The payments worker (docs/payments.md#webhooks): moves the events the webhook intake recorded onto the
// log (in batches), a checkpointed consumer of the log that processes each recorded Stripe event once, and the delivery of settlements to sellers' instances until each is
// acknowledged (a seller's instance that is down is retried with backoff, and gets it when it returns).
import {
  deliverSettlements,
  logReceivedWebhooks,
  processWebhookEvent,
  type Services,
} from '@tributary/services';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { checkOutClient } from '../postgres/held-client.js';

/** The consumer's checkpoint row (in projection_checkpoints, like every consumer of the log). */
export const WEBHOOK_CONSUMER = 'consumer:payments-webhooks';
const BATCH = 200;
/** Sequenced events the consumer walks past in one query (only webhook events come back). */
const SCAN = 5000;
const DELIVERY_BATCH = 50;
const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 60_000;

export interface PaymentsWorker {
  wake(): void;
  /** One pass now (tests and the CLI): process what is recorded, deliver what is due. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Processes the recorded webhook events behind the checkpoint; true when there may be more to walk now. */
export async function consumeWebhookEvents(pool: Pool, services: Services, logger: Logger): Promise<boolean> {
  const client = await checkOutClient(pool);
  try {
    await client.query('BEGIN');
    await client.query(
      'INSERT INTO projection_checkpoints (name, seq) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING',
      [WEBHOOK_CONSUMER],
    );
    // Another process holding the row is consuming: this one leaves it to it.
    const cp = await client.query<{ seq: string }>(
      'SELECT seq FROM projection_checkpoints WHERE name = $1 FOR UPDATE SKIP LOCKED',
      [WEBHOOK_CONSUMER],
    );
    if (!cp.rows[0]) {
      await client.query('COMMIT');
      return false;
    }
    // The database walks the next SCAN sequenced events and sends back only the webhook events among
    // them, with how far it walked: every other event of the log (a catch-up's thousands of imports)
    // costs the consumer neither a row on the wire nor a parse.
    const { rows } = await client.query<{
      scanned: string;
      scanned_to: string | null;
      seq: string | null;
      envelope: string | null;
    }>(
      `WITH scan AS (SELECT s.seq, s.position FROM event_sequence s WHERE s.seq > $1 ORDER BY s.seq LIMIT $2)
       SELECT (SELECT count(*) FROM scan) AS scanned, (SELECT max(seq) FROM scan) AS scanned_to, m.seq, m.envelope
       FROM (SELECT 1) AS one LEFT JOIN LATERAL (
         SELECT scan.seq, e.envelope FROM scan JOIN events e ON e.position = scan.position
         WHERE e.type = 'payment.webhook_event_received' ORDER BY scan.seq LIMIT $3
       ) AS m ON true
       ORDER BY m.seq`,
      [cp.rows[0].seq, SCAN, BATCH],
    );
    const found = rows.filter((r): r is typeof r & { seq: string; envelope: string } => r.envelope !== null);
    // A full batch of webhook events ends the pass at the last of them; otherwise at the end of the walk.
    const full = found.length === BATCH;
    let last: string | null = full ? found.at(-1)!.seq : rows[0]!.scanned_to;
    let more = full || Number(rows[0]!.scanned) === SCAN;
    for (const row of found) {
      const data = (JSON.parse(row.envelope) as { data: { eventId: string; payload: string } }).data;
      try {
        await processWebhookEvent(services, data.eventId, data.payload);
      } catch (e) {
        // Stop before it: the checkpoint ends just before this event, and the next pass tries it again.
        logger.warn(
          { err: e, eventId: data.eventId },
          'payments: processing a webhook event failed; will retry',
        );
        last = String(Number(row.seq) - 1);
        more = false;
        break;
      }
    }
    if (last !== null && Number(last) > Number(cp.rows[0].seq))
      await client.query('UPDATE projection_checkpoints SET seq = $2, updated_at = now() WHERE name = $1', [
        WEBHOOK_CONSUMER,
        last,
      ]);
    await client.query('COMMIT');
    return more;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

export function startPaymentsWorker(o: {
  pool: Pool;
  services: Services;
  logger: Logger;
  intervalMs: number;
  /** Told when webhook events were put on the log (they are consumed once the sequencer numbers them). */
  onLogged?: () => void;
}): PaymentsWorker {
  const backoff = new Map<string, { until: number; attempts: number }>();
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  const pass = async () => {
    for (let logged = BATCH; logged >= BATCH;) {
      logged = await logReceivedWebhooks(o.services, BATCH);
      if (logged > 0) o.onLogged?.();
    }
    while (await consumeWebhookEvents(o.pool, o.services, o.logger));
    const now = Date.now();
    await deliverSettlements(o.services, {
      limit: DELIVERY_BATCH,
      skip: (key) => (backoff.get(key)?.until ?? 0) > now,
      delivered: (key) => backoff.delete(key),
      failed: (key, e) => {
        const attempts = (backoff.get(key)?.attempts ?? 0) + 1;
        const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempts - 1));
        backoff.set(key, { until: Date.now() + wait, attempts });
        o.logger.info(
          { err: e, settlement: key, attempts },
          'payments: settlement not delivered yet; will retry',
        );
      },
    });
  };
  const runOnce = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (e) {
          o.logger.warn({ err: e }, 'payments worker pass failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () => {
    if (stopped) return;
    void runOnce().finally(() => {
      if (!stopped) timer = setTimeout(tick, o.intervalMs);
    });
  };
  timer = setTimeout(tick, 0);
  return {
    wake: () => void runOnce(),
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
