// Each `tributary log verify` run is recorded (log_verify_runs) so the operator's log page can say
// whether the log last verified and when; the page only reads.
import type { LogVerifyRun } from '@tributary/adapters';
import type { Pool } from 'pg';

export async function recordLogVerifyRun(
  pool: Pool,
  run: {
    startedAt: Date;
    finishedAt: Date;
    ok: boolean;
    events: number;
    streams: number;
    firstBad?: unknown;
  },
): Promise<void> {
  await pool.query(
    `INSERT INTO log_verify_runs (started_at, finished_at, ok, events, streams, first_bad)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      run.startedAt,
      run.finishedAt,
      run.ok,
      run.events,
      run.streams,
      run.firstBad ? JSON.stringify(run.firstBad) : null,
    ],
  );
}

export async function lastLogVerifyRun(pool: Pool): Promise<LogVerifyRun | null> {
  const { rows } = await pool.query<{
    started_at: Date;
    finished_at: Date;
    ok: boolean;
    events: string;
    streams: number;
    first_bad: LogVerifyRun['firstBad'];
  }>(
    `SELECT started_at, finished_at, ok, events, streams, first_bad FROM log_verify_runs ORDER BY run_id DESC LIMIT 1`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    startedAt: r.started_at.toISOString(),
    finishedAt: r.finished_at.toISOString(),
    ok: r.ok,
    events: Number(r.events),
    streams: r.streams,
    firstBad: r.first_bad ?? null,
  };
}
