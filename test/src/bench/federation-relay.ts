// Relay benchmark: 10,000 events of one sovereign A reach two others, B and C, through the global
// instance G over the real sync path — G takes A's feed (signed requests, verify, dedup, materialize,
// append: onto G's feed), and B and C take G's (verified against A's key, learned from A's manifest as G
// serves it, on their first relayed event). Subject: events per second from the start until B and C both
// hold all of them. Baseline, in the same run: a sovereign D peered with A directly taking the same events
// from A (one hop, one receiver). Target: subject ≥ 0.5 × baseline.
//
// Rate: every instance is its own `tributary start` process on its own database, as in production
// (where each is its own machine, even), with the sync runner of each process driving sync as it does
// there — pull on a short interval and at once while the peer has more, push woken when the sequencer
// numbers new events — and nothing driven by the bench. Until session 15 all five instances lived in
// this one process, so A's exports, G's import and two exports, and B's and C's imports all ran on one
// event loop (the relayed arm put three imports and three exports on it, the direct arm one and one):
// that measured one Node thread's serialization, not the relay. Each round: A's peerings with G and D
// are blocked on both sides, A gets `rated` new agents' `agent.created` (appended straight into A's
// database; A's own sequencer numbers them), then each arm unblocks its pair and the clock runs until
// the receivers hold A's last new event (one indexed lookup per receiver every 20 ms; each side delivers
// in sequence order, so the last event means all of them, checked by a count afterwards). The two arms
// alternate which goes first, round by round, and everything settles (sequencers, async projections,
// every unblocked cursor at its peer's head) between arms, so neither pays for the other's tail. Each
// round prints, per arm, when each receiver held everything, the CPU seconds each instance (process and
// database backends) used while timed, and each cursor's deliveries: on a 2-core host the ratio follows
// the CPU ratio, the relayed path doing about three times the work (docs/benchmarks.md, row 16).
//
// Memory, as in the catch-up row (row 8), still in this process (it measures one heap, and the peak live
// heap needs a full GC after each page, which only an in-process driver can place): A, G, B, C as
// in-process instances with syncPeer loops driven as the runner would, the peak growth of the live heap
// while relaying (sampled after a full GC per page; `npm run bench` runs node with --expose-gc), relaying
// 10,000 events ÷ relaying 50,000, target ≥ 0.67 — the larger run may keep at most 1.5× the smaller's.
// Both runs are many pages long for each of the three pulls, as row 8's 10,000 and 100,000 are: the peak
// is bounded by the pages in flight, and a run of a few pages (2,000 events: four per pull) rarely has all
// three pulls holding full pages at once. The live heap left after the run is printed too (what a relay
// keeps for good; docs/benchmarks.md says why the peak is the measure).
import { composedFor, federationComposed, syncPeer } from '@tributary/services';
import { createEnvelopeSigner, PgEventStore, publicKeyBase64url, readKeyFile } from '@tributary/infra';
import { allProjections } from '@tributary/projections';
import { browser, createTestDatabase, type TestDatabase } from '@tributary/test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { ready, startReporting, type StartedProcess } from '../e2e/start-helpers.js';
import { password, register, startNode, type Node } from '../federation/federation-helpers.js';
import { appendNewAgents, median, type ResultRow } from './bench-kit.js';

type RelayRow = ResultRow & { note: string };

export async function benchFederationRelay(o: {
  scale: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<RelayRow[]> {
  const rated = Math.max(1000, Math.round(10_000 * o.scale));
  const rate = await rateArms(rated, o);
  const memory = await memoryArm(rated, rated * 5, o.log);
  const ratio = (a: number[], b: number[]) => median(a) / median(b);
  const ms = (perEvent: number[]) => (median(perEvent) * 1000).toFixed(2);
  const direct = median(rate.perHop.D!);
  const hops = ['G', 'B', 'C'] as const;
  const worst = hops.reduce((w, h) => (median(rate.perHop[h]!) > median(rate.perHop[w]!) ? h : w), hops[0]);
  o.log(
    `    CPU per event at each hop (process + its PostgreSQL backends, median of rounds): ${hops.map((h) => `${h} ${ms(rate.perHop[h]!)} ms (${(median(rate.perHop[h]!) / direct).toFixed(2)}× direct)`).join(', ')}; direct import D ${ms(rate.perHop.D!)} ms; target each ≤ 1.5× direct; duplicates per round: relayed ${rate.duplicates.relay.join(' ')}, direct ${rate.duplicates.direct.join(' ')}`,
  );
  o.log(
    `    relayed ${rated.toLocaleString('en-US')} A→G→{B,C}, real processes: median ${Math.round(median(rate.relayed))} events/s end to end (rounds ${rate.relayed.map(Math.round).join(' ')}); direct A→D: median ${Math.round(median(rate.direct))}/s (rounds ${rate.direct.map(Math.round).join(' ')}); ${ratio(rate.relayed, rate.direct).toFixed(2)}× (information); CPU s (all five instances and their PostgreSQL backends) while timed, median: relayed ${median(rate.cpu.relay).toFixed(1)}, direct ${median(rate.cpu.direct).toFixed(1)} (direct ÷ relayed ${(median(rate.cpu.direct) / median(rate.cpu.relay)).toFixed(2)})`,
  );
  // Lower CPU is better: the row compares events per CPU second, the costliest hop against the direct
  // import, so "≤ 1.5× the CPU" reads as "≥ 1/1.5 of the rate per CPU second".
  const perCpuSecond = (perEvent: number[]) => perEvent.map((x) => 1 / x);
  return [
    {
      name: `relay CPU per event at the costliest hop (${worst}: ${ms(rate.perHop[worst]!)} ms; G ${ms(rate.perHop.G!)}, B ${ms(rate.perHop.B!)}, C ${ms(rate.perHop.C!)}) vs a direct import (D ${ms(rate.perHop.D!)} ms), process + PostgreSQL backends, as events per CPU second; duplicates ${median(rate.duplicates.relay)} relayed, ${median(rate.duplicates.direct)} direct (median per round)`,
      unit: 'events/CPU s',
      subject: 1 / median(rate.perHop[worst]!),
      baseline: 1 / direct,
      target: 1 / 1.5,
      subjectRates: perCpuSecond(rate.perHop[worst]!),
      baselineRates: perCpuSecond(rate.perHop.D!),
      note: 'CPU seconds of each receiving instance (its process and its PostgreSQL backends, /proc/<pid>/stat) from unblocking until settled, less its idle CPU over as long, per event; target: each hop ≤ 1.5× the direct import',
    },
    {
      name: `relay: ${rated.toLocaleString('en-US')} events from one sovereign to two others through the global instance, end to end (real processes; information)`,
      unit: 'events',
      subject: median(rate.relayed),
      baseline: median(rate.direct),
      subjectRates: rate.relayed,
      baselineRates: rate.direct,
      note: 'end to end (G takes A while B and C take G, each instance its own process, sync by their runners) vs a sovereign taking the same events from A directly, rounds alternating; about 1/3 by construction on two cores',
    },
    memory,
  ];
}

// ---------------------------------------------------------------------------------------------------
// Rate: real processes.

/** The sync runner as a test would run it fast: sweeps every 50 ms, a pull at least every second. */
export const PROCESS_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  // As the in-process instances (the test harness): five processes of 20 would ask the shared PostgreSQL
  // for more connections than it allows.
  DATABASE_POOL_SIZE: '10',
  // A loaded host (other builds and tests beside the bench) can take more than the default 10 s to connect.
  DATABASE_CONNECT_TIMEOUT_MS: '60000',
  FEDERATION_SYNC: 'on',
  FEDERATION_QUEUE: 'in-process',
  FEDERATION_SWEEP_MS: '50',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
  // Production refuses loopback and private addresses for outbound calls; every peer here is on loopback.
  OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.0/8',
};

export interface ProcNode {
  role: string;
  name: string;
  id: string;
  url: string;
  publicKey: string;
  operator: ReturnType<typeof browser>;
  proc: StartedProcess;
  db: TestDatabase;
  dataDir: string;
  /** The bench's own connection to the instance's database: the fill, the polling, the settling. */
  pool: pg.Pool;
}

export async function startProcNode(
  role: string,
  name: string,
  started: ProcNode[],
  env: Record<string, string> = {},
): Promise<ProcNode> {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'trib-bench-relay-'));
  const pool = new pg.Pool({ connectionString: db.url, max: 2, application_name: BENCH_APP });
  pool.on('error', () => undefined);
  const proc = startReporting({
    ...PROCESS_ENV,
    DATABASE_URL: db.url,
    TRIBUTARY_DATA_DIR: dataDir,
    INSTANCE_ROLE: role,
    INSTANCE_NAME: name,
    ...env,
  });
  const { port, url } = await proc.address(300_000).catch(async (e: unknown) => {
    proc.child.kill('SIGKILL');
    await pool.end();
    throw e;
  });
  const node: ProcNode = {
    role,
    name,
    id: '',
    url: url!,
    publicKey: '',
    operator: browser(url!),
    proc,
    db,
    dataDir,
    pool,
  };
  started.push(node);
  await ready(port!, proc, 300_000);
  const status = await fetch(`${url}/api/federation/status`);
  node.id = ((await status.json()) as { instanceId: string }).instanceId;
  node.publicKey = publicKeyBase64url(readKeyFile(keyFileOf(node), undefined).publicKey);
  const r = await node.operator.post('/api/auth/signup', {
    handle: `op_${role}`,
    password,
    name: `${name} operator`,
  });
  assert.equal(r.status, 201, r.text);
  return node;
}

export const keyFileOf = (n: ProcNode) => join(n.dataDir, 'keys', 'instance-ed25519.pem');

async function setBlocked(host: ProcNode, peer: ProcNode, blocked: boolean) {
  const r = await host.operator.call('PATCH', '/api/federation/peers', { peerId: peer.id, blocked });
  assert.equal(r.status, 200, r.text);
}

const one = async <T extends pg.QueryResultRow>(pool: pg.Pool, sql: string, values: unknown[] = []) =>
  (await pool.query<T>(sql, values)).rows[0]!;

/** Whether `node` holds the event `id` of `origin` (the unique index on (origin, id)). */
async function holds(node: ProcNode, origin: string, id: string): Promise<boolean> {
  return (
    await one<{ held: boolean }>(
      node.pool,
      'SELECT EXISTS (SELECT 1 FROM events WHERE origin = $1 AND id = $2) AS held',
      [origin, id],
    )
  ).held;
}

/**
 * How many of `origin`'s events `node` holds: at the origin, those on its feed (federable and public: what
 * it sends); elsewhere every one (a receiver holds only what it was sent; a sovereign's feed is its own).
 */
const countFrom = async (node: ProcNode, origin: string) =>
  Number(
    (
      await one<{ n: string }>(
        node.pool,
        'SELECT count(*) AS n FROM events WHERE origin = $1 AND (feed OR origin <> $2)',
        [origin, node.id],
      )
    ).n,
  );

/** Waits until every one of `nodes` holds `origin`'s event `id`; when each was first seen to (ms after `t0`). */
async function untilHeld(nodes: ProcNode[], origin: string, id: string, t0: number, timeoutMs = 600_000) {
  const until = Date.now() + timeoutMs;
  const waiting = new Set(nodes);
  const seen = new Map<ProcNode, number>();
  for (;;) {
    for (const n of [...waiting])
      if (await holds(n, origin, id)) {
        waiting.delete(n);
        seen.set(n, performance.now() - t0);
      }
    if (waiting.size === 0) return seen;
    if (Date.now() > until)
      throw new Error(`${[...waiting].map((n) => n.name).join(', ')} did not receive the events in time`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The bench's own connections, told apart from the instances' when their CPU is counted. */
export const BENCH_APP = 'relay-bench';

/** CPU time (user + system, s) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

export type CpuSnapshot = Map<ProcNode, { node: number; pg: Map<number, number> }>;

/** Each instance's CPU so far: its process, and its database's backends (PostgreSQL on this host). */
export async function cpu(nodes: ProcNode[]): Promise<CpuSnapshot> {
  const out: CpuSnapshot = new Map();
  for (const n of nodes) {
    const { rows } = await n.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name <> $1`,
      [BENCH_APP],
    );
    out.set(n, {
      node: cpuSeconds(n.proc.child.pid!),
      pg: new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)])),
    });
  }
  return out;
}

/**
 * CPU seconds each instance used between two snapshots, as "G 3.1+1.2pg" (a backend new since counts
 * whole), in all, and per instance (its process and its backends).
 */
export function cpuUsed(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { text: string; total: number; byNode: Map<ProcNode, number> } {
  const parts: string[] = [];
  let total = 0;
  const byNode = new Map<ProcNode, number>();
  for (const [n, v] of after) {
    const b = before.get(n)!;
    const node = v.node - b.node;
    let pgs = 0;
    for (const [pid, s] of v.pg) pgs += s - (b.pg.get(pid) ?? 0);
    total += node + pgs;
    byNode.set(n, node + pgs);
    if (node + pgs >= 0.05) parts.push(`${n.name.split(' ').pop()} ${node.toFixed(1)}+${pgs.toFixed(1)}pg`);
  }
  return { text: parts.join(', '), total, byNode };
}

/** Every cursor's counters, by "<node> <direction> <peer>". */
async function counters(nodes: ProcNode[]): Promise<Map<string, { accepted: number; duplicates: number }>> {
  const names = new Map(nodes.map((n) => [n.id, n.name.split(' ').pop()!]));
  const out = new Map<string, { accepted: number; duplicates: number }>();
  for (const n of nodes) {
    const { rows } = await n.pool.query<{
      peer_id: string;
      direction: string;
      accepted: string;
      duplicates: string;
    }>('SELECT peer_id, direction, accepted, duplicates FROM federation_sync_cursors');
    for (const r of rows)
      out.set(`${names.get(n.id)} ${r.direction} ${names.get(r.peer_id)}`, {
        accepted: Number(r.accepted),
        duplicates: Number(r.duplicates),
      });
  }
  return out;
}

/** What moved between two snapshots of `counters`, as "G pull A 1500+500dup, …; duplicates 500 of 2000 imports". */
function moved(
  before: Map<string, { accepted: number; duplicates: number }>,
  after: Map<string, { accepted: number; duplicates: number }>,
): { text: string; duplicates: number; imports: number } {
  const parts: string[] = [];
  let imports = 0;
  let duplicates = 0;
  for (const [k, v] of after) {
    const b = before.get(k) ?? { accepted: 0, duplicates: 0 };
    const acc = v.accepted - b.accepted;
    const dup = v.duplicates - b.duplicates;
    imports += acc + dup;
    duplicates += dup;
    if (acc || dup) parts.push(`${k} ${acc}${dup ? `+${dup}dup` : ''}`);
  }
  // Every import is counted once: by the sender's push cursor (the peer's answer) or the puller's cursor.
  return { text: `${parts.join(', ')}; duplicates ${duplicates} of ${imports} imports`, duplicates, imports };
}

/**
 * Waits until nothing is left to do anywhere: every log numbered and folded by its async projections,
 * and every cursor of an unblocked peer at the other side's feed head (a push cursor at our own head, a
 * pull cursor at the peer's; a relay's filtered page moves a cursor to the head too).
 */
async function settle(nodes: ProcNode[], timeoutMs = 180_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const heads = new Map<string, number>();
    const lagging: string[] = [];
    for (const n of nodes) {
      const r = await one<{ behind: boolean; head: string }>(
        n.pool,
        `SELECT (SELECT count(*) FROM events) > (SELECT count(*) FROM event_sequence)
                OR EXISTS (SELECT 1 FROM projection_checkpoints
                           WHERE seq < (SELECT last_seq FROM sequencer_state)) AS behind,
                (SELECT coalesce(max(seq), 0) FROM event_sequence WHERE feed) AS head`,
      );
      if (r.behind) lagging.push(`${n.name}: sequencer or projections`);
      heads.set(n.id, Number(r.head));
    }
    for (const n of nodes) {
      const { rows } = await n.pool.query<{ peer_id: string; direction: string; position: string }>(
        `SELECT c.peer_id, c.direction, c.position FROM federation_sync_cursors c
           JOIN rm_peers p USING (peer_id) WHERE NOT p.blocked`,
      );
      for (const c of rows) {
        const head = c.direction === 'push' ? heads.get(n.id) : heads.get(c.peer_id);
        if (head !== undefined && Number(c.position) < head)
          lagging.push(`${n.name}: ${c.direction} ${c.position} < ${head}`);
      }
    }
    if (lagging.length === 0) return;
    if (Date.now() > until) throw new Error(`did not settle in time: ${lagging.join('; ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Appends `count` new agents' `agent.created` into A's database as A (its key); returns the last id. */
async function fillProcess(a: ProcNode, count: number, label: string): Promise<string> {
  const key = readKeyFile(keyFileOf(a), undefined);
  const signer = createEnvelopeSigner({ origin: a.id, privateKey: key.privateKey, publicKey: key.publicKey });
  const store = new PgEventStore(a.pool, {
    inlineProjections: allProjections.filter((p) => p.mode === 'inline'),
    sequenceOnRead: false,
  });
  await appendNewAgents({ signer, store }, count, label);
  const last = await one<{ id: string }>(
    a.pool,
    `SELECT id FROM events WHERE origin = $1 AND type = 'agent.created' ORDER BY position DESC LIMIT 1`,
    [a.id],
  );
  return last.id;
}

async function rateArms(
  rated: number,
  o: { rounds: number; log: (line: string) => void },
): Promise<{
  relayed: number[];
  direct: number[];
  cpu: { relay: number[]; direct: number[] };
  duplicates: { relay: number[]; direct: number[] };
  perHop: Record<string, number[]>;
}> {
  const nodes: ProcNode[] = [];
  try {
    // One after the other: five processes compiling the sources at once on a loaded host can take minutes.
    const a = await startProcNode('group', 'Relay origin A', nodes);
    const g = await startProcNode('global', 'Relay G', nodes);
    const b = await startProcNode('person', 'Relay receiver B', nodes);
    const c = await startProcNode('locale', 'Relay receiver C', nodes);
    const d = await startProcNode('person', 'Direct receiver D', nodes);
    for (const s of [a, b, c]) {
      await register(g, s);
      await register(s, g);
    }
    await register(d, a);
    await register(a, d);
    // What A has on its feed already (its instance and operator) goes through first, untimed, with B's and
    // C's learning of A's key.
    await settle(nodes);
    const initial = await countFrom(a, a.id);
    for (const n of [g, b, c, d]) assert.equal(await countFrom(n, a.id), initial, `${n.name} warm-up`);

    const relayed: number[] = [];
    const direct: number[] = [];
    const pairs = { relay: [a, g] as const, direct: [a, d] as const };
    const cpuTotals = { relay: [] as number[], direct: [] as number[] };
    const duplicates = { relay: [] as number[], direct: [] as number[] };
    /** CPU seconds per event at each receiving hop, per round (G, B, C relayed; D direct). */
    const perHop: Record<string, number[]> = { G: [], B: [], C: [], D: [] };
    const arm = async (which: 'relay' | 'direct', count: number, lastId: string) => {
      const [x, y] = pairs[which];
      const before = await counters(nodes);
      // Each instance's idle CPU (sweeps every 50 ms, pulls every second), over 2 s of quiet before the
      // arm: taken off each hop's CPU for as long as the arm ran, so a slower arm is not charged for
      // idling longer.
      const idleFrom = await cpu(nodes);
      const idleT = performance.now();
      await new Promise((r) => setTimeout(r, 2_000));
      const cpuBefore = await cpu(nodes);
      const idlePerSecond = cpuUsed(idleFrom, cpuBefore).byNode;
      const idleSeconds = (performance.now() - idleT) / 1000;
      const t = performance.now();
      await Promise.all([setBlocked(x, y, false), setBlocked(y, x, false)]);
      // B and C holding the last event means G did; G is watched only to say when.
      const seen = await untilHeld(which === 'relay' ? [g, b, c] : [d], a.id, lastId, t);
      const seconds = (performance.now() - t) / 1000;
      const used = cpuUsed(cpuBefore, await cpu(nodes));
      await settle(nodes);
      const times = [...seen].map(([n, ms]) => `${n.name.split(' ').pop()} ${(ms / 1000).toFixed(2)} s`);
      const deliveries = moved(before, await counters(nodes));
      // CPU per event at each receiving hop (its process and its PostgreSQL backends): G, B and C when
      // relayed, D when direct. Read after settling too, so work the clock stopped on still counts.
      const settledCpu = cpuUsed(cpuBefore, await cpu(nodes));
      const armSeconds = (performance.now() - t) / 1000;
      const hops = which === 'relay' ? [g, b, c] : [d];
      const perEvent = hops.map(
        (n) =>
          Math.max(
            0,
            (settledCpu.byNode.get(n) ?? 0) - ((idlePerSecond.get(n) ?? 0) / idleSeconds) * armSeconds,
          ) / count,
      );
      hops.forEach((n, i) => perHop[n.name.split(' ').pop()!]!.push(perEvent[i]!));
      o.log(
        `      ${which}: ${Math.round(count / seconds)}/s; all held by ${times.join(', ')}; CPU s while timed ${used.text} (${used.total.toFixed(1)} in ${seconds.toFixed(1)} s); CPU ms per event (process + PostgreSQL, through settling, idle taken off) ${hops.map((n, i) => `${n.name.split(' ').pop()} ${(perEvent[i]! * 1000).toFixed(2)}`).join(', ')}; deliveries ${deliveries.text}`,
      );
      cpuTotals[which].push(used.total);
      duplicates[which].push(deliveries.duplicates);
      return count / seconds;
    };
    // One untimed warm-up round (a fifth of the size), then the rounds, the arms alternating which goes first.
    for (let round = -1; round < o.rounds; round++) {
      const count = round < 0 ? Math.max(500, Math.round(rated / 5)) : rated;
      await Promise.all([
        setBlocked(a, g, true),
        setBlocked(g, a, true),
        setBlocked(a, d, true),
        setBlocked(d, a, true),
      ]);
      await settle(nodes);
      const before = await countFrom(a, a.id);
      const lastId = await fillProcess(a, count, `Relayed ${round}`);
      await settle(nodes);
      const order = round % 2 === 0 ? (['relay', 'direct'] as const) : (['direct', 'relay'] as const);
      const got: Record<string, number> = {};
      for (const which of order) {
        got[which] = await arm(which, count, lastId);
      }
      for (const n of [g, b, c, d]) assert.equal(await countFrom(n, a.id), before + count, n.name);
      o.log(
        `    ${round < 0 ? 'warm-up' : `round ${round + 1}`} (${count} events, ${order.join(' first, then ')}): relayed ${Math.round(got.relay!)}/s, direct ${Math.round(got.direct!)}/s`,
      );
      if (round < 0) continue;
      relayed.push(got.relay!);
      direct.push(got.direct!);
    }
    // The warm-up round's CPU and duplicates are left out, as its rates are.
    return {
      relayed,
      direct,
      cpu: { relay: cpuTotals.relay.slice(1), direct: cpuTotals.direct.slice(1) },
      duplicates: { relay: duplicates.relay.slice(1), direct: duplicates.direct.slice(1) },
      perHop: Object.fromEntries(Object.entries(perHop).map(([k, v]) => [k, v.slice(1)])),
    };
  } catch (e) {
    // What the processes said (warnings and errors: LOG_LEVEL=warn) explains most failures.
    for (const n of nodes) {
      o.log(`    ${n.name} printed:\n${n.proc.output().slice(-4000)}`);
      const cursors = await n.pool
        .query(
          `SELECT p.name, p.blocked, c.direction, c.position, c.peer_head, c.accepted, c.duplicates, c.rejected,
                  c.last_rejection, c.last_error FROM federation_sync_cursors c JOIN rm_peers p USING (peer_id)`,
        )
        .catch((err: Error) => ({ rows: [err.message] }));
      o.log(`    ${n.name}'s cursors: ${JSON.stringify(cursors.rows)}`);
    }
    throw e;
  } finally {
    for (const n of nodes) n.proc.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.proc.exited));
    for (const n of nodes) {
      await n.pool.end();
      await n.db.drop();
      await rm(n.dataDir, { recursive: true, force: true });
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Memory: in this process.

/** Pulls retried after a connection reset, printed with the result. */
const retried = { count: 0 };

const settings = { retryBaseMs: 1000, pullIntervalMs: 60_000 };

/** How many of `origin`'s events `node` holds. */
async function heldFrom(node: Node, origin: string): Promise<number> {
  const { rows } = await node.instance.instance.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM events WHERE origin = $1',
    [origin],
  );
  return Number(rows[0]!.n);
}

/** Pulls `from` on `node` until it holds `count` of `origin`'s events (waiting briefly while there are none). */
async function pullUntil(
  node: Node,
  from: Node,
  origin: string,
  count: number,
  afterPage: () => void,
  deadline: number,
) {
  let transportRetries = 0;
  for (;;) {
    const outcome = await syncPeer(
      composedFor(node.instance.instance.services, federationComposed),
      from.id,
      'pull',
      settings,
    );
    // A kept-alive connection the server closed as it was reused (ECONNRESET; likelier on a loaded host,
    // where timers fire late) is retried, as the sync runner retries a failed pull: counted, at most 5.
    if (
      outcome?.kind === 'failed' &&
      /ECONNRESET|socket hang up/.test(outcome.message) &&
      transportRetries < 5
    ) {
      transportRetries++;
      retried.count++;
      continue;
    }
    if (!outcome || outcome.kind === 'failed')
      throw new Error(`${node.role} pull failed: ${outcome ? outcome.message : 'cursor busy'}`);
    if (outcome.rejected > 0)
      throw new Error(`${node.role} refused ${outcome.rejected}: ${outcome.rejection}`);
    afterPage();
    if (outcome.more) continue;
    const held = await heldFrom(node, origin);
    if (held >= count) return;
    if (Date.now() > deadline) throw new Error(`${node.role} holds ${held} of ${count} events`);
    if (outcome.accepted === 0) await new Promise((r) => setTimeout(r, 5));
  }
}

async function memoryArm(small: number, large: number, log: (line: string) => void): Promise<RelayRow> {
  const [a, g, b, c] = await Promise.all([
    startNode('group', 'Relay origin'),
    startNode('global', 'Relay'),
    startNode('person', 'Relay receiver B'),
    startNode('locale', 'Relay receiver C'),
  ]);
  try {
    for (const s of [a, b, c]) {
      await register(g, s);
      await register(s, g);
    }
    const feedOfA = async () =>
      Number(
        (await a.instance.instance.pool.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE feed'))
          .rows[0]!.n,
      );
    /** Relays A's feed until B and C hold all of it; `count` of it is new. */
    const relay = async (count: number) => {
      const total = await feedOfA();
      global.gc?.();
      const base = process.memoryUsage().heapUsed;
      let peakLive = base;
      let gcMs = 0;
      const probe = () => {
        if (!global.gc) return;
        const t = performance.now();
        global.gc();
        gcMs += performance.now() - t;
        peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
      };
      const deadline = Date.now() + 600_000;
      const t = performance.now();
      await Promise.all([
        pullUntil(g, a, a.id, total, probe, deadline),
        pullUntil(b, g, a.id, total, probe, deadline),
        pullUntil(c, g, a.id, total, probe, deadline),
      ]);
      const seconds = (performance.now() - t - gcMs) / 1000;
      global.gc?.();
      return {
        rate: count / seconds,
        peakGrowth: peakLive - base,
        retained: process.memoryUsage().heapUsed - base,
      };
    };
    // What A has on its feed already goes through first, untimed, with the learning of A's key.
    await relay(0);
    await fill(a, small);
    const smallRun = await relay(small);
    await fill(a, large);
    const largeRun = await relay(large);
    log(
      `    memory (in process, syncPeer loops): relaying ${small.toLocaleString('en-US')} peak live heap +${mb(smallRun.peakGrowth)}, ${large.toLocaleString('en-US')} +${mb(largeRun.peakGrowth)}; left after the run +${mb(smallRun.retained)} vs +${mb(largeRun.retained)}; in-process relayed rate (one event loop for all four instances, info) ${Math.round(smallRun.rate)}/s and ${Math.round(largeRun.rate)}/s; pulls retried after a connection reset: ${retried.count}`,
    );
    return {
      name: `relay memory: peak live heap growth relaying ${small.toLocaleString('en-US')} ÷ relaying ${large.toLocaleString('en-US')} (in process)`,
      unit: 'MB',
      // A floor of 1 MB each: a few hundred kB either way is noise, not growth.
      subject: Math.max(smallRun.peakGrowth, 1e6) / 1e6,
      baseline: Math.max(largeRun.peakGrowth, 1e6) / 1e6,
      target: 0.67,
      subjectRates: [smallRun.peakGrowth / 1e6],
      baselineRates: [largeRun.peakGrowth / 1e6],
      note: `flat memory as in the catch-up row: relaying 5× the events may keep at most 1.5× the live heap at its peak (sampled after a full GC per page; left after the run: +${mb(smallRun.retained)} vs +${mb(largeRun.retained)})`,
    };
  } finally {
    await Promise.all([a, g, b, c].map((n) => n.instance.destroy()));
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function fill(a: Node, n: number) {
  await appendNewAgents(a.instance.instance.services, n, 'Relayed');
  await a.instance.instance.sequencer.drain(120_000);
}
