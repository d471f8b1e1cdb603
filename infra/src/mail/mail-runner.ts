// Runs the mail consumer (services/src/mail/send-mail.ts, docs/mail.md#guarantees): a pass every
// MAIL_POLL_MS and whenever the log grows, one pass at a time in this process and one consumer at a
// time across the instance's processes (a session advisory lock, released when its connection ends, so a
// killed process never holds it).
import {
  composedFor,
  mailComposed,
  runMailPass,
  runSubmissionNoticePass,
  type Services,
} from '@tributary/services';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { withPoolClient } from '../postgres/held-client.js';

/** The consumer's advisory lock key (any constant the instance uses for nothing else). */
const MAIL_CONSUMER_LOCK = 7_243_001;

export interface MailRunner {
  poke(): void;
  /** Runs passes until one finds nothing to do (tests, and shutdown). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export function startMailRunner(o: {
  pool: Pool;
  services: Services;
  logger: Logger;
  pollMs: number;
}): MailRunner {
  let running: Promise<boolean> | null = null;
  let again = false;
  let stopped = false;

  /** One pass under the lock; true when it attempted something (another pass may find more). */
  const pass = async (): Promise<boolean> => {
    return withPoolClient(o.pool, async (client) => {
      let locked = false;
      try {
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
          MAIL_CONSUMER_LOCK,
        ]);
        locked = rows[0]!.ok;
        if (!locked) return false;
        const services = composedFor(o.services, mailComposed);
        // Submissions first: the mails they ask for go out in the same pass (docs/builder.md#submission-mail).
        const notices = await runSubmissionNoticePass(services);
        if (notices.queued + notices.deferred > 0) o.logger.info(notices, 'submission mail pass');
        const outcome = await runMailPass(services);
        if (outcome.attempted > 0) o.logger.info(outcome, 'mail consumer pass');
        return outcome.attempted > 0 || notices.queued > 0;
      } finally {
        if (locked)
          await client.query('SELECT pg_advisory_unlock($1)', [MAIL_CONSUMER_LOCK]).catch(() => undefined);
      }
    });
  };
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((err: unknown) => {
        if (!stopped) o.logger.warn({ err }, 'mail consumer pass failed; the next one retries');
        return false;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const timer = setInterval(run, o.pollMs);
  timer.unref();
  run();
  return {
    poke: run,
    async drain() {
      for (;;) {
        while (running) await running;
        running = pass().finally(() => (running = null));
        if (!(await running)) return;
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running.catch(() => undefined);
    },
  };
}
