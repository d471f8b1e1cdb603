// The mail consumer's cursor and the per-peer and per-recipient rates, in Postgres so every process of
// an instance agrees (docs/mail.md#limits).
import type { MailCursor, MailRateLimiter, SubmissionNoticeCursor } from '@tributary/services';
import type { Pool } from 'pg';
import { checkOutClient } from '../postgres/held-client.js';
import { walkSequencedOfType } from '../postgres/walk-sequenced.js';

const CURSOR = 'mail';
const WINDOW_SECONDS = 3600;

export function createPgMailCursor(pool: Pool): MailCursor {
  return {
    async position() {
      const { rows } = await pool.query<{ seq: string }>(
        'SELECT seq FROM mail_consumer_cursor WHERE name = $1',
        [CURSOR],
      );
      return Number(rows[0]?.seq ?? 0);
    },
    async next(since, limit) {
      const walk = await walkSequencedOfType<{ stream: string }>(pool, {
        since,
        scan: limit,
        type: 'mail.requested',
        columns: 'e.stream',
      });
      return { requests: walk.rows.map((r) => r.stream), last: walk.scannedTo };
    },
    async advance(to) {
      await pool.query(
        `INSERT INTO mail_consumer_cursor (name, seq, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET seq = greatest(mail_consumer_cursor.seq, EXCLUDED.seq), updated_at = now()`,
        [CURSOR, to],
      );
    },
  };
}

/**
 * The submission notifier's cursor (docs/builder.md#submission-mail), a row of the same table. Migration
 * 0107 starts it at the log's end, so an upgrade does not mail about every submission of the past.
 */
export function createPgSubmissionNoticeCursor(pool: Pool): SubmissionNoticeCursor {
  const name = 'form-submissions';
  return {
    async position() {
      const { rows } = await pool.query<{ seq: string }>(
        'SELECT seq FROM mail_consumer_cursor WHERE name = $1',
        [name],
      );
      return Number(rows[0]?.seq ?? 0);
    },
    async next(since, limit) {
      const walk = await walkSequencedOfType<{
        form_id: string;
        submission_id: string;
        site_id: string;
        received_at: string;
      }>(pool, {
        since,
        scan: limit,
        type: 'form.submission_received',
        columns: `e.envelope::jsonb #>> '{data,formId}' AS form_id,
                  e.envelope::jsonb #>> '{data,submissionId}' AS submission_id,
                  e.envelope::jsonb #>> '{data,siteId}' AS site_id,
                  e.envelope::jsonb #>> '{data,receivedAt}' AS received_at`,
      });
      return {
        submissions: walk.rows.map((r) => ({
          seq: Number(r.seq),
          formId: r.form_id,
          submissionId: r.submission_id,
          siteId: r.site_id,
          receivedAt: r.received_at,
        })),
        last: walk.scannedTo,
      };
    },
    async advance(to) {
      await pool.query(
        `INSERT INTO mail_consumer_cursor (name, seq, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET seq = greatest(mail_consumer_cursor.seq, EXCLUDED.seq), updated_at = now()`,
        [name, to],
      );
    },
  };
}

/**
 * Fixed one-hour windows per key. All keys of a message are checked and counted in one transaction with
 * their rows locked, so two requests at once cannot both take the last place.
 */
export function createPgMailLimiter(pool: Pool): MailRateLimiter {
  return {
    async take(keys, at) {
      if (keys.length === 0) return 0;
      const client = await checkOutClient(pool);
      try {
        await client.query('BEGIN');
        const sorted = [...keys].sort((a, b) => a.key.localeCompare(b.key));
        let wait = 0;
        const counts: { key: string; fresh: boolean }[] = [];
        for (const { key, limit } of sorted) {
          // The row exists before it is locked, so a first message for a key is counted under the lock too.
          await client.query(
            'INSERT INTO mail_rate_counts (key, window_start, count) VALUES ($1, $2, 0) ON CONFLICT (key) DO NOTHING',
            [key, at],
          );
          const { rows } = await client.query<{ window_start: Date; count: number }>(
            'SELECT window_start, count FROM mail_rate_counts WHERE key = $1 FOR UPDATE',
            [key],
          );
          const r = rows[0]!;
          const fresh = at.getTime() - r.window_start.getTime() >= WINDOW_SECONDS * 1000;
          if (!fresh && r.count >= limit)
            wait = Math.max(
              wait,
              Math.ceil((r.window_start.getTime() + WINDOW_SECONDS * 1000 - at.getTime()) / 1000),
            );
          counts.push({ key, fresh });
        }
        if (wait === 0)
          for (const { key, fresh } of counts)
            await client.query(
              fresh
                ? 'UPDATE mail_rate_counts SET window_start = $2, count = 1 WHERE key = $1'
                : 'UPDATE mail_rate_counts SET count = count + 1 WHERE key = $1',
              fresh ? [key, at] : [key],
            );
        await client.query('COMMIT');
        return Math.max(0, wait);
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
  };
}
