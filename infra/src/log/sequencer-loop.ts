// Keeps the feed sequence fresh: runs the sequencer soon after local appends (coalesced) and on a
// short timer for appends made by other processes. Readers also run it before reading.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { sequenceEvents } from '../postgres/pg-event-store.js';

export interface SequencerLoop {
  poke(): void;
  /** Resolves after one full pass (tests and the CLI use it). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function startSequencerLoop(pool: Pool, logger: Logger, intervalMs = 250): SequencerLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const pass = async () => {
    do {
      again = false;
      try {
        // Keep going while rows are sequenced; a horizon held back by a slow writer ends the pass.
        while ((await sequenceEvents(pool)) > 0) {
          /* more may be ready */
        }
      } catch (err) {
        if (!stopped) logger.warn({ err }, 'sequencer pass failed; will retry');
      }
    } while (again && !stopped);
  };
  const poke = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(poke, intervalMs);
  timer.unref();
  return {
    poke,
    async drain() {
      poke();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
