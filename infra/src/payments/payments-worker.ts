// The payments worker (docs/payments.md#exactly-once): moves the events the webhook intake recorded onto the
// log (in batches), a checkpointed consumer of the log that processes each recorded Stripe event once, and the delivery of settlements to sellers' instances until each is
// acknowledged (a seller's instance that is down is retried with backoff, and gets it when it returns).
import {
  composedFor,
  deliverSettlements,
  paymentsComposed,
  logReceivedWebhooks,
  processWebhookEvent,
  type Services,
} from '@tributary/services';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { checkOutClient } from '../postgres/held-client.js';
import { walkSequencedOfType } from '../postgres/walk-sequenced.js';

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
    // Only the webhook events among the next SCAN sequenced events come back (walk-sequenced.ts).
    const walk = await walkSequencedOfType<{ envelope: string }>(client, {
      since: cp.rows[0].seq,
      scan: SCAN,
      type: 'payment.webhook_event_received',
      columns: 'e.envelope',
      limit: BATCH,
    });
    const found = walk.rows;
    // A full batch of webhook events ends the pass at the last of them; otherwise at the end of the walk.
    const full = found.length === BATCH;
    let last = full ? Number(found.at(-1)!.seq) : walk.scannedTo;
    let more = full || walk.scanned === SCAN;
    for (const row of found) {
      const data = (JSON.parse(row.envelope) as { data: { eventId: string; payload: string } }).data;
      try {
        await processWebhookEvent(composedFor(services, paymentsComposed), data.eventId, data.payload);
      } catch (e) {
        // Stop before it: the checkpoint ends just before this event, and the next pass tries it again.
        logger.warn(
          { err: e, eventId: data.eventId },
          'payments: processing a webhook event failed; will retry',
        );
        last = Number(row.seq) - 1;
        more = false;
        break;
      }
    }
    if (last !== null && last > Number(cp.rows[0].seq))
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
      logged = await logReceivedWebhooks(composedFor(o.services, paymentsComposed), BATCH);
      if (logged > 0) o.onLogged?.();
    }
    while (await consumeWebhookEvents(o.pool, o.services, o.logger));
    const now = Date.now();
    await deliverSettlements(composedFor(o.services, paymentsComposed), {
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
