// Keeps the feed sequence fresh: runs the sequencer shortly after local appends and on a timer for
// appends made by other processes. Pokes within a short window coalesce into one pass, so a burst of
// concurrent writers does not make every commit pay for a sequencer run.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { sequenceEvents } from '../postgres/pg-event-store.js';

export interface SequencerLoop {
  poke(): void;
  /** Called after a pass that sequenced events (push sync wakes on it). */
  onSequenced(listener: () => void): void;
  /**
   * Resolves once every event committed before the call is sequenced (tests and the CLI use it). The
   * horizon is cluster-wide, so a slow transaction elsewhere can delay this; it gives up after `timeoutMs`.
   */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function startSequencerLoop(
  pool: Pool,
  logger: Logger,
  intervalMs = 250,
  coalesceMs = 10,
): SequencerLoop {
  let running: Promise<void> | null = null;
  let scheduled: NodeJS.Timeout | null = null;
  let stopped = false;
  const listeners: (() => void)[] = [];

  // One call per pass: it sequences every row ready at that moment. Looping until a call finds nothing
  // would, under steady writers, run the sequencer back to back on a handful of rows each time (its
  // fixed cost paid per few rows, competing with the writers for CPU); rows committed during a pass
  // were poked and get the next pass, `coalesceMs` later, in one batch.
  const pass = async () => {
    try {
      if (stopped) return;
      if ((await sequenceEvents(pool)) > 0) for (const listener of listeners) listener();
    } catch (err) {
      if (!stopped) logger.warn({ err }, 'sequencer pass failed; will retry');
    }
  };
  const run = () => {
    scheduled = null;
    if (stopped) return;
    if (running) {
      schedule(); // one more pass after the current one
      return;
    }
    running = pass().finally(() => {
      running = null;
    });
  };
  const schedule = () => {
    if (!scheduled && !stopped) scheduled = setTimeout(run, coalesceMs);
  };
  const timer = setInterval(schedule, intervalMs);
  timer.unref();
  return {
    poke: schedule,
    onSequenced(listener) {
      listeners.push(listener);
    },
    async drain(timeoutMs = 15_000) {
      await drainUntilSequenced(
        pool,
        timeoutMs,
        async () => {
          if (scheduled) clearTimeout(scheduled);
          scheduled = null;
          while (running) await running;
          running = pass().finally(() => {
            running = null;
          });
          await running;
        },
        () => stopped,
      );
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (scheduled) clearTimeout(scheduled);
      while (running) await running;
    },
  };
}

/**
 * Waits until every event committed before the call is sequenced, running `pass` before each look.
 * The sequencer numbers rows in (tx_id, position) order, so the rows not yet numbered are exactly those
 * past its last (tx_id, position): a range of the events_tx_position index (the bounds are subqueries
 * run once, so the scan starts at them, and the ORDER BY keeps the planner on the index even before
 * statistics), not an anti-join over the log.
 */
async function drainUntilSequenced(
  pool: Pool,
  timeoutMs: number,
  pass: () => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  const { rows } = await pool.query<{ p: string | null }>('SELECT max(position) AS p FROM events');
  const upTo = rows[0]?.p ?? '0';
  const until = Date.now() + timeoutMs;
  for (;;) {
    await pass();
    const left = await pool.query(
      `SELECT 1 FROM events e
       WHERE (e.tx_id, e.position) > ((SELECT last_tx FROM sequencer_state), (SELECT last_position FROM sequencer_state))
         AND e.position <= $1
       ORDER BY e.tx_id, e.position LIMIT 1`,
      [upTo],
    );
    if (left.rowCount === 0 || stopped()) return;
    if (Date.now() > until)
      throw new Error('sequencer drain timed out: a transaction holds the horizon back');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The sequencer of a process that does not run it (`--role api`, docs/operations.md#process-roles):
 * appends here are numbered by a worker's loop. A poke becomes `notify` (the append notice workers
 * LISTEN for, infra/src/log/append-notices.ts); nothing is told of passes; `drain` still waits, for a
 * worker to number what was committed.
 */
export function passiveSequencer(pool: Pool, notify: () => void = () => {}): SequencerLoop {
  let stopped = false;
  return {
    poke: notify,
    onSequenced() {},
    drain: (timeoutMs = 15_000) =>
      drainUntilSequenced(
        pool,
        timeoutMs,
        async () => {},
        () => stopped,
      ),
    async stop() {
      stopped = true;
    },
  };
}
