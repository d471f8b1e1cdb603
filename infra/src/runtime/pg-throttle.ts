// Failed attempts per key (a digest of a sign-in identifier, or an account) within a window; past the limit the key waits,
// longer with each further failure. Kept in Postgres so every process of an instance agrees.
import type { Throttle } from '@tributary/services';
import type { Pool } from 'pg';

interface ThrottleOptions {
  maxFailures: number;
  windowSeconds: number;
  baseBlockSeconds: number;
}

export function createPgThrottle(pool: Pool, opts: ThrottleOptions, now: () => Date): Throttle {
  return {
    async retryAfter(key) {
      const { rows } = await pool.query<{ blocked_until: Date | null }>(
        'SELECT blocked_until FROM auth_throttle WHERE key = $1',
        [key],
      );
      const until = rows[0]?.blocked_until;
      if (!until) return 0;
      return Math.max(0, Math.ceil((until.getTime() - now().getTime()) / 1000));
    },
    async recordFailure(key) {
      const t = now();
      await pool.query(
        `INSERT INTO auth_throttle (key, failures, window_start) VALUES ($1, 1, $2::timestamptz)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN auth_throttle.window_start < $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE auth_throttle.failures + 1 END,
           window_start = CASE WHEN auth_throttle.window_start < $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE auth_throttle.window_start END`,
        [key, t, opts.windowSeconds],
      );
      // Past the limit, block for base × 2^(excess), capped at an hour.
      await pool.query(
        `UPDATE auth_throttle SET blocked_until = $2::timestamptz + make_interval(secs => least(3600, $4 * power(2, failures - $3)))
         WHERE key = $1 AND failures >= $3`,
        [key, t, opts.maxFailures, opts.baseBlockSeconds],
      );
    },
    async reset(key) {
      await pool.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
    },
  };
}
