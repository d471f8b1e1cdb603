// A fixed-window rate kept in PostgreSQL (rate_window_counts), so every process of an instance counts
// against the same allowance: one upsert per request, which starts a new window once the old one passed.
import type { SharedRate } from '@tributary/services';
import type { Pool } from 'pg';

export function createPgWindowRate(
  pool: Pool,
  o: { prefix: string; count: number; windowSeconds: number },
  now: () => Date,
): SharedRate {
  return {
    async take(key) {
      const t = now();
      const { rows } = await pool.query<{ window_start: Date; count: number }>(
        `INSERT INTO rate_window_counts AS c (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key) DO UPDATE SET
           window_start = CASE WHEN c.window_start <= $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE c.window_start END,
           count = CASE WHEN c.window_start <= $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE c.count + 1 END
         RETURNING window_start, count`,
        [`${o.prefix}${key}`, t, o.windowSeconds],
      );
      const r = rows[0]!;
      if (r.count <= o.count) return 0;
      return Math.max(1, Math.ceil((r.window_start.getTime() + o.windowSeconds * 1000 - t.getTime()) / 1000));
    },
  };
}
