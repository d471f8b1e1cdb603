// Shared machinery for `npm run bench`: interleaved rounds, medians, concurrent clients and the table.
//
// Every target is a ratio between a subject and a baseline measured side by side in the same run on the
// same database. The machine is shared and noisy, so the arms of one benchmark run alternately
// (A B A B A B ...) and each arm's rate is the median of its rounds.
import type { Instance } from '@tributary/infra';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { appendNewAgents } from '../harness/log-fill.js';

export { appendNewAgents, unsignedEnvelope } from '../harness/log-fill.js';

export interface BenchContext {
  /** The running instance under test (its pool, store, signer, sequencer, async projections). */
  instance: Instance;
  /** Base URL of its HTTP server. */
  url: string;
  /** A pool of our own on the same database, for the raw baselines. */
  pool: pg.Pool;
  /** Multiplies every workload size (BENCH_SCALE, default 1). */
  scale: number;
  /** Measured rounds per arm (BENCH_ROUNDS, default 5). */
  rounds: number;
  /** Waits until background work a previous arm caused (sequencer, async projections) is done. */
  settle(): Promise<void>;
  log(line: string): void;
}

export interface Arm {
  name: string;
  /** Skip the untimed warm-up round (for arms whose smallest round is already long). */
  noWarmup?: boolean;
  /** Runs one round and returns how many units (events, rows, requests) it did. */
  run(round: { warmup: boolean; index: number }): Promise<number>;
}

interface ArmResult {
  name: string;
  rates: number[];
  median: number;
}

/** One line of the final table. */
export interface ResultRow {
  name: string;
  unit: string;
  subject: number;
  baseline: number;
  /** Minimum subject/baseline ratio; undefined for informational rows. */
  target?: number;
  /** Per-round rates, for the detail lines. */
  subjectRates: number[];
  baselineRates: number[];
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Scales a workload size, never below `min`. */
export const scaled = (ctx: Pick<BenchContext, 'scale'>, base: number, min = 1): number =>
  Math.max(min, Math.round(base * ctx.scale));

/**
 * One untimed warm-up round per arm, then `rounds` timed rounds with the arms alternating
 * (A B C A B C ...). `ctx.settle()` runs, untimed, after every round so no arm pays for another's
 * background work.
 */
export async function interleave(ctx: BenchContext, arms: readonly Arm[]): Promise<Map<string, ArmResult>> {
  for (const arm of arms) {
    if (arm.noWarmup) continue;
    await arm.run({ warmup: true, index: -1 });
    await ctx.settle();
  }
  const rates = new Map<string, number[]>(arms.map((a) => [a.name, []]));
  for (let index = 0; index < ctx.rounds; index++) {
    for (const arm of arms) {
      const started = performance.now();
      const units = await arm.run({ warmup: false, index });
      const seconds = (performance.now() - started) / 1000;
      rates.get(arm.name)!.push(units / seconds);
      await ctx.settle();
    }
  }
  const out = new Map<string, ArmResult>();
  for (const [name, r] of rates) out.set(name, { name, rates: r, median: median(r) });
  for (const r of out.values())
    ctx.log(
      `    ${r.name.padEnd(40)} median ${fmtRate(r.median).padStart(9)}/s  rounds ${r.rates.map(fmtRate).join(' ')}`,
    );
  return out;
}

export function row(
  name: string,
  unit: string,
  subject: ArmResult,
  baseline: ArmResult,
  target?: number,
): ResultRow {
  return {
    name,
    unit,
    subject: subject.median,
    baseline: baseline.median,
    ...(target !== undefined && { target }),
    subjectRates: subject.rates,
    baselineRates: baseline.rates,
  };
}

/** Runs `clients` concurrent loops and waits for all of them. */
export async function concurrently(clients: number, loop: (client: number) => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
}

/** Tops the log up (untimed) to at least `wanted` federable events; then waits for the sequencer. */
export async function ensureFederableEvents(ctx: BenchContext, wanted: number): Promise<void> {
  const have = Number(
    (await ctx.pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE feed')).rows[0]!.n,
  );
  if (have < wanted) await appendNewAgents(ctx.instance.services, wanted - have);
  await ctx.settle();
}

/** The columns PgEventStore writes, for baselines that insert the same rows into `bench_raw`. */
export const RAW_COLUMNS = 'id, origin, stream, stream_version, type, actor_id, occurred_at, feed, envelope';

/**
 * The baselines' tables. `bench_raw` is the `events` table's equivalent — same columns, defaults,
 * constraints and indexes (what any log of these rows needs: unique (origin, id) and (stream, version),
 * the reader's (tx_id, position) and the actor index) — but no triggers: what we measure on top of it is
 * signing, the chain check, the projections and our own code. `bench_raw_bare` has no constraint or
 * index but its primary key, for an information row.
 */
export async function createRawTable(pool: pg.Pool): Promise<void> {
  // On a connection of its own, closed afterwards: measured on PostgreSQL 15, the session that created
  // a table went on inserting into it ~20 % slower than any other session, which handicapped the
  // baselines whenever the pool handed that connection back (always, in a run of benchmark 2 alone).
  const client = await pool.connect();
  try {
    await client.query(`
    DROP TABLE IF EXISTS bench_raw;
    CREATE TABLE bench_raw (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES);
    CREATE SEQUENCE bench_raw_position_seq OWNED BY bench_raw.position;
    ALTER TABLE bench_raw ALTER COLUMN position SET DEFAULT nextval('bench_raw_position_seq');
    DROP TABLE IF EXISTS bench_raw_bare;
    CREATE TABLE bench_raw_bare (LIKE events INCLUDING DEFAULTS);
    CREATE SEQUENCE bench_raw_bare_position_seq OWNED BY bench_raw_bare.position;
    ALTER TABLE bench_raw_bare ALTER COLUMN position SET DEFAULT nextval('bench_raw_bare_position_seq'),
      ADD PRIMARY KEY (position);
  `);
  } finally {
    client.release(true);
  }
}

export function fmtRate(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  // Slow units (a command run as a process) would all round to 0 or 1.
  if (n < 10) return n.toFixed(2);
  return Math.round(n).toLocaleString('en-US');
}

/** The final table, as plain text. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = ['benchmark', 'subject', 'baseline', 'ratio', 'target', 'result'];
  const body = rows.map((r) => {
    const ratio = r.subject / r.baseline;
    return [
      r.name,
      `${fmtRate(r.subject)} ${r.unit}/s`,
      `${fmtRate(r.baseline)} ${r.unit}/s`,
      `${ratio.toFixed(2)}×`,
      r.target === undefined ? '—' : `≥ ${r.target.toFixed(2)}×`,
      r.target === undefined ? 'info' : ratio >= r.target ? 'PASS' : 'FAIL',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const right = [false, true, true, true, true, false];
  const line = (cells: string[]) =>
    cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...body.map(line)].join('\n');
}

export const failed = (r: ResultRow): boolean => r.target !== undefined && r.subject / r.baseline < r.target;
