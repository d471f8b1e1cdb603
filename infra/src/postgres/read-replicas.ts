// Reads that tolerate lag, served by PostgreSQL hot standbys (DATABASE_READ_URL) when one is close
// enough behind the primary, and by the primary otherwise (docs/operations.md#read-replicas).
//
// How far behind: every DATABASE_REPLICA_CHECK_MS the primary's WAL position is sampled
// (pg_current_wal_lsn) and each standby's replay position read (pg_last_wal_replay_lsn). A standby that
// has replayed the latest sample is current; otherwise its lag is the age of the oldest sample it has
// not replayed yet: WAL the primary had written by then is still missing there. Unlike
// now() - pg_last_xact_replay_timestamp(), this does not grow while the primary is idle, and a
// disconnected standby's lag grows with the clock. A standby further behind than
// DATABASE_REPLICA_MAX_LAG_MS, unreachable, or not in recovery at all is skipped until a check finds it
// fit again; a statement that fails on a standby (a lost connection, a recovery conflict) is run again
// on the primary, so a standby is never an error to the reader.
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import type { Logger } from 'pino';

/** What a read model needs of a pool (projections' Queryable). */
export interface ReadQueryable {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** One standby as the last check saw it (the metrics read these). */
export interface ReplicaState {
  /** host:port/database, never the credentials. */
  readonly label: string;
  /** Reached by the last check, and in recovery (a standby). */
  reachable: boolean;
  /** Seconds of WAL the primary had written and this standby had not replayed at the last check. */
  lagSeconds: number | null;
  /** Bytes of WAL between the primary's position and this standby's replay position. */
  lagBytes: number | null;
  /** Serving reads now: reachable, a standby, and no further behind than the limit. */
  inUse: boolean;
  /** Reads sent to it, and of those the ones that failed there and were answered by the primary. */
  reads: number;
  fellBack: number;
}

export interface Replica {
  readonly state: ReplicaState;
  readonly pool: pg.Pool;
}

export interface ReadPool extends ReadQueryable {
  /** A standby fit to read from now (round robin among them), or null: read from the primary. */
  pick(): Replica | null;
  /** A read on `replica` failed: the caller goes to the primary; a lost standby is skipped until checked. */
  failed(replica: Replica, error: unknown): void;
  /**
   * Reads on a standby only once it has replayed everything the primary had written when the read was
   * asked for (else on the primary): one more round trip to each, for a read whose result is kept and
   * must not miss a change made just before (the published sites' full load).
   */
  readonly caughtUp: ReadQueryable;
  /** The primary, for what must see the latest writes. */
  readonly primary: pg.Pool;
  readonly replicas: readonly ReplicaState[];
  /** Runs one check now (tests; the timer runs them every DATABASE_REPLICA_CHECK_MS). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export interface ReadPoolOptions {
  primary: pg.Pool;
  urls: readonly string[];
  maxLagMs: number;
  checkMs: number;
  poolSize: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  logger: Logger;
}

/** A statement on one pool, typed as the read models ask (their row types are their own). */
const run = <R>(pool: pg.Pool, text: string, values?: unknown[]) =>
  pool.query(text, values) as unknown as Promise<{ rows: R[]; rowCount: number | null }>;

/** The primary alone (no DATABASE_READ_URL): every read goes there. */
export function primaryOnly(primary: pg.Pool): ReadPool {
  return {
    primary,
    replicas: [],
    pick: () => null,
    failed: () => undefined,
    query: (text, values) => run(primary, text, values),
    caughtUp: { query: (text, values) => run(primary, text, values) },
    check: async () => undefined,
    close: async () => undefined,
  };
}

/** The label a standby is reported by: where it is, without user or password. */
export function replicaLabel(url: string): string {
  const c = parseConnectionString(url);
  return `${c.host ?? 'localhost'}:${c.port || 5432}/${c.database ?? ''}`;
}

/** A WAL position (`16/B374D848`) as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * A standby's lag from the primary's samples: 0 once it replayed the newest, otherwise the age of the
 * oldest sample past its replay position (at least that long ago the primary had WAL it still lacks).
 */
export function lagSecondsFrom(
  samples: readonly { at: number; lsn: bigint }[],
  replay: bigint,
  now: number,
): number {
  const newest = samples[samples.length - 1];
  if (!newest || replay >= newest.lsn) return 0;
  const oldestMissing = samples.find((s) => s.lsn > replay)!;
  return Math.max(0, (now - oldestMissing.at) / 1000);
}

/** Errors that say the standby itself is gone (not the statement's fault): skip it until checked. */
function connectionLost(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  return (
    /^(08|57P|53)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE'].includes(code) ||
    /Connection terminated|timeout/i.test(typeof e.message === 'string' ? e.message : '')
  );
}

export function createReadPool(o: ReadPoolOptions): ReadPool {
  const replicas: Replica[] = o.urls.map((url) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: o.poolSize,
      connectionTimeoutMillis: o.connectTimeoutMs,
      statement_timeout: o.statementTimeoutMs,
    });
    const state: ReplicaState = {
      label: replicaLabel(url),
      reachable: false,
      lagSeconds: null,
      lagBytes: null,
      inUse: false,
      reads: 0,
      fellBack: 0,
    };
    // An idle client's error (the standby stopping) must not crash the process; the check reports it.
    pool.on('error', () => undefined);
    return { state, pool };
  });
  // The primary's WAL positions over the last while, oldest first; kept long enough to date any lag
  // worth telling apart from "too far behind".
  const samples: { at: number; lsn: bigint }[] = [];
  const keepMs = Math.max(60_000, 2 * o.maxLagMs + 2 * o.checkMs);
  let next = 0;
  let checking: Promise<void> | null = null;
  let closed = false;

  const mark = (r: Replica, s: Partial<ReplicaState>) => {
    const was = r.state.inUse;
    Object.assign(r.state, s);
    if (was !== r.state.inUse)
      o.logger[r.state.inUse ? 'info' : 'warn'](
        { replica: r.state.label, lagSeconds: r.state.lagSeconds, reachable: r.state.reachable },
        r.state.inUse
          ? 'read replica in use'
          : 'read replica skipped: unreachable, not a standby, or too far behind; the primary serves its reads',
      );
  };

  const checkOnce = async () => {
    let primaryLsn: bigint;
    try {
      const { rows } = await o.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      primaryLsn = lsnBytes(rows[0]!.lsn);
    } catch {
      return; // the primary's own trouble is reported elsewhere; the standbys keep their last verdict
    }
    const now = Date.now();
    samples.push({ at: now, lsn: primaryLsn });
    while (samples.length > 1 && samples[0]!.at < now - keepMs) samples.shift();
    await Promise.all(
      replicas.map(async (r) => {
        try {
          const { rows } = await r.pool.query<{ standby: boolean; replay: string | null }>(
            'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay',
          );
          const row = rows[0]!;
          if (!row.standby || row.replay === null) {
            // A promoted standby (or the primary itself) would not follow the primary's writes.
            mark(r, { reachable: false, lagSeconds: null, lagBytes: null, inUse: false });
            return;
          }
          const replay = lsnBytes(row.replay);
          const lagSeconds = lagSecondsFrom(samples, replay, Date.now());
          const lagBytes = primaryLsn > replay ? Number(primaryLsn - replay) : 0;
          mark(r, { reachable: true, lagSeconds, lagBytes, inUse: lagSeconds * 1000 <= o.maxLagMs });
        } catch {
          mark(r, { reachable: false, lagSeconds: null, lagBytes: null, inUse: false });
        }
      }),
    );
  };

  const check = async () => {
    while (checking) await checking;
    if (closed) return;
    checking = checkOnce().finally(() => {
      checking = null;
    });
    await checking;
  };
  const timer = setInterval(() => {
    if (!checking) void check();
  }, o.checkMs);
  timer.unref();
  void check();

  const pick = (): Replica | null => {
    const fit = replicas.filter((r) => r.state.inUse);
    if (fit.length === 0) return null;
    const r = fit[next++ % fit.length]!;
    r.state.reads++;
    return r;
  };
  const failed = (r: Replica, error: unknown) => {
    r.state.fellBack++;
    if (connectionLost(error)) mark(r, { reachable: false, inUse: false });
  };

  return {
    primary: o.primary,
    replicas: replicas.map((r) => r.state),
    pick,
    failed,
    check,
    caughtUp: {
      async query<R>(text: string, values?: unknown[]) {
        const r = pick();
        if (r) {
          try {
            const { rows } = await o.primary.query<{ lsn: string }>(
              'SELECT pg_current_wal_lsn()::text AS lsn',
            );
            const at = await r.pool.query<{ ok: boolean }>(
              'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS ok',
              [rows[0]!.lsn],
            );
            // A standby only moves forward: what it has replayed now, the read below sees.
            if (at.rows[0]?.ok) return await run<R>(r.pool, text, values);
          } catch (error) {
            failed(r, error);
          }
        }
        return run<R>(o.primary, text, values);
      },
    },
    async query<R>(text: string, values?: unknown[]) {
      const r = pick();
      if (r) {
        try {
          return await run<R>(r.pool, text, values);
        } catch (error) {
          // Whatever it was, the primary answers instead: a statement at fault fails there too.
          failed(r, error);
        }
      }
      return run<R>(o.primary, text, values);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      while (checking) await checking;
      await Promise.all(replicas.map((r) => r.pool.end().catch(() => undefined)));
    },
  };
}
