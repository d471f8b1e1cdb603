// The mail consumer's cursor and the per-peer and per-recipient rates, in Postgres so every process of
// an instance agrees (docs/mail.md#limits).
import type { MailCursor, MailRateLimiter } from '@tributary/services';
import type { Pool } from 'pg';
import { checkOutClient } from '../postgres/held-client.js';

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
      // The database walks the events and sends back only the requests' streams, with how far it
      // walked: the rest of the log (a catch-up's thousands of imports) never crosses the wire.
      const { rows } = await pool.query<{ scanned_to: string | null; stream: string | null }>(
        `WITH scan AS (SELECT s.seq, s.position FROM event_sequence s WHERE s.seq > $1 ORDER BY s.seq LIMIT $2)
         SELECT (SELECT max(seq) FROM scan) AS scanned_to, m.stream
         FROM (SELECT 1) AS one LEFT JOIN LATERAL (
           SELECT scan.seq, e.stream FROM scan JOIN events e ON e.position = scan.position
           WHERE e.type = 'mail.requested'
         ) AS m ON true
         ORDER BY m.seq`,
        [since, limit],
      );
      const last = rows[0]?.scanned_to ?? null;
      return {
        requests: rows.flatMap((r) => (r.stream === null ? [] : [r.stream])),
        last: last === null ? null : Number(last),
      };
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
