// RFC 8628 poll pacing in Postgres, so every process of an instance sees the same last poll and interval
// and a restart does not forget them. One statement per poll: the row's old values decide `too_fast`.
import type { PollPacer } from '@tributary/services';
import type { Pool } from 'pg';

/** Rows whose last poll is older than `retainSeconds` (a device code's lifetime) are swept now and then. */
export function createPgPollPacer(pool: Pool, o: { retainSeconds: number; sweepEvery?: number }): PollPacer {
  let polls = 0;
  const sweepEvery = o.sweepEvery ?? 500;
  return {
    async poll(key, at, intervalSeconds) {
      if (++polls % sweepEvery === 0)
        await pool.query(
          `DELETE FROM oauth_device_polls WHERE last_poll_at < $1::timestamptz - make_interval(secs => $2)`,
          [at, o.retainSeconds],
        );
      // `too_fast` remembers whether the previous poll was too fast, so a run of them grows the interval
      // once; a polite poll shrinks it by 5 s down to the advertised $3 (PollPacer says why).
      const { rows } = await pool.query<{ too_fast: boolean; interval_seconds: number }>(
        `INSERT INTO oauth_device_polls AS p (device_digest, last_poll_at, interval_seconds, too_fast)
         VALUES ($1, $2, $3, false)
         ON CONFLICT (device_digest) DO UPDATE SET
           too_fast = p.last_poll_at > $2::timestamptz - make_interval(secs => p.interval_seconds),
           interval_seconds = CASE
             WHEN p.last_poll_at > $2::timestamptz - make_interval(secs => p.interval_seconds)
               THEN p.interval_seconds + CASE WHEN p.too_fast THEN 0 ELSE 5 END
             ELSE GREATEST($3::integer, p.interval_seconds - 5)
           END,
           last_poll_at = $2
         RETURNING too_fast, interval_seconds`,
        [key, at, intervalSeconds],
      );
      const r = rows[0]!;
      return { tooFast: r.too_fast, intervalSeconds: r.interval_seconds };
    },
  };
}
