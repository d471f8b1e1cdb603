// Registering many peers (docs/scaling.md#registering-a-thousand-peers): one global instance G, a real
// `tributary start` process on its own database with its sync runner on, and N peers registered through
// G's operator API (POST /api/federation/peers, as an operator registers them; no SQL), each with its own
// Ed25519 key, a few requests at once. Each peer's address is a small server in this process that answers
// G's sync as a peer with nothing to send would (an empty export, every push taken), so G's runner does
// what it does for a real new peer — pulls it at once, pushes to it — while the registrations go on.
// Loopback only, bounded in count (N) and time (the registrations and one status read).
//
// It prints the time for all N, the per-request latency by tenth of the run (first 100 peers … last 100:
// a cost that grows with the peers already registered shows as a rising line), the CPU of G's process and
// of its PostgreSQL backends per registration, and how long the operator's first page of
// `federation status` and the peer list take with N peers.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import { cpu, cpuUsed, startProcNode, type ProcNode } from '../bench/federation-relay.js';

export interface RegistrationOptions {
  n: number;
  /** Registrations in flight at once. */
  concurrency: number;
  /** More environment for G (e.g. NODE_OPTIONS=--cpu-prof to see where its time goes). */
  env?: Record<string, string>;
  log: (line: string) => void;
}

export interface RegistrationResult {
  n: number;
  concurrency: number;
  seconds: number;
  /** Per-request latency (ms) by tenth of the run: p50 and p99 of each. */
  tenths: { from: number; to: number; p50: number; p99: number }[];
  cpuMsPerPeer: { g: number; gPg: number };
  /** The operator's reads with N peers registered, ms (one request each). */
  statusMs: number;
  peersMs: number;
  /** Peers the first status page and the peer list answered with, and the summary's total. */
  statusPage: number;
  peersPage: number;
  summaryTotal: number;
  /** `uptime` load average (1 min) at the start and the end. */
  load: [number, number];
  failures: string[];
}

const loadAvg = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function measurePeerRegistration(o: RegistrationOptions): Promise<RegistrationResult> {
  const load0 = loadAvg();
  const nodes: ProcNode[] = [];
  // G's sync, answered as a peer with nothing to send would: an empty export, every push taken.
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      res.writeHead(200, { 'content-type': 'application/json' });
      if (path.endsWith('/api/federation/events/import')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { events?: unknown[] };
        return void res.end(
          JSON.stringify({ results: [], accepted: body.events?.length ?? 0, duplicates: 0, rejected: 0 }),
        );
      }
      res.end('{"events":[],"head":0,"hasMore":false}');
    });
  });
  server.keepAliveTimeout = 60_000;
  try {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const simUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const g = await startProcNode('global', 'Registration G', nodes, {
      DATABASE_POOL_SIZE: '6',
      FEDERATION_SYNC_CONCURRENCY: '16',
      // The default pull interval: a new peer is pulled once at first, then each minute.
      FEDERATION_PULL_INTERVAL_SECONDS: '60',
      ...o.env,
    });
    const peers = Array.from({ length: o.n }, (_, index) => ({
      index,
      id: randomUUID(),
      publicKey: publicKeyBase64url(generateSigningKey().publicKey),
    }));
    const latencies: number[] = new Array<number>(o.n);
    const failures: string[] = [];
    const cpu0 = await cpu([g]);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(o.concurrency, o.n) }, async () => {
        while (next < peers.length) {
          const p = peers[next++]!;
          const t = performance.now();
          const r = await g.operator.post('/api/federation/peers', {
            peerId: p.id,
            baseUrl: `${simUrl}/s/${p.id}`,
            role: 'person',
            publicKey: p.publicKey,
            name: `Peer ${p.index}`,
          });
          latencies[p.index] = performance.now() - t;
          if (r.status !== 201 && failures.length < 5) failures.push(`${r.status} ${r.text.slice(0, 200)}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const used = cpuUsed(cpu0, await cpu([g]));
    const gPg = used.byNode.get(g) ?? 0;
    const gNode = (await cpu([g])).get(g)!.node - cpu0.get(g)!.node;
    const tenth = Math.max(1, Math.ceil(o.n / 10));
    const tenths = [];
    for (let from = 0; from < o.n; from += tenth) {
      const s = latencies.slice(from, from + tenth).sort((a, b) => a - b);
      tenths.push({ from: from + 1, to: from + s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99) });
    }
    let t = performance.now();
    const status = await g.operator.get('/api/federation/status');
    const statusMs = performance.now() - t;
    t = performance.now();
    const list = await g.operator.get('/api/federation/peers');
    const peersMs = performance.now() - t;
    if (status.status !== 200) failures.push(`status ${status.status} ${status.text.slice(0, 200)}`);
    if (list.status !== 200) failures.push(`peers ${list.status} ${list.text.slice(0, 200)}`);
    const sr = (status.json ?? {}) as { cursors?: unknown[]; peers?: { total?: number } };
    const lr = (list.json?.result ?? {}) as { peers?: unknown[] };
    return {
      n: o.n,
      concurrency: o.concurrency,
      seconds,
      tenths,
      cpuMsPerPeer: { g: (gNode * 1000) / o.n, gPg: ((gPg - gNode) * 1000) / o.n },
      statusMs,
      peersMs,
      statusPage: sr.cursors?.length ?? 0,
      peersPage: lr.peers?.length ?? 0,
      summaryTotal: sr.peers?.total ?? NaN,
      load: [load0, loadAvg()],
      failures,
    };
  } finally {
    server.closeAllConnections();
    server.close();
    for (const n of nodes) n.proc.child.kill('SIGTERM');
    await Promise.all(nodes.map((n) => n.proc.exited));
    for (const n of nodes) {
      await n.pool.end();
      await n.db.drop();
      await rm(n.dataDir, { recursive: true, force: true });
    }
  }
}

/** The result as the lines `npm run load:peers` prints. */
export function formatRegistration(r: RegistrationResult): string[] {
  const ms = (x: number) => `${Math.round(x)} ms`;
  return [
    `${r.n} peers registered through the operator API, ${r.concurrency} at once, in ${r.seconds.toFixed(1)} s (${((r.seconds * 1000) / r.n).toFixed(1)} ms a peer; load average ${r.load[0]} → ${r.load[1]})`,
    `  G CPU per registration: ${r.cpuMsPerPeer.g.toFixed(1)} ms process + ${r.cpuMsPerPeer.gPg.toFixed(1)} ms PostgreSQL`,
    `  request latency by tenth of the run (p50 / p99):`,
    ...r.tenths.map((x) => `    peers ${x.from}–${x.to}: ${ms(x.p50)} / ${ms(x.p99)}`),
    `  with ${r.n} peers: GET /api/federation/status ${ms(r.statusMs)} (${r.statusPage} peers on the page, summary total ${r.summaryTotal}); GET /api/federation/peers ${ms(r.peersMs)} (${r.peersPage} on the page)`,
    ...(r.failures.length ? [`  FAILURES: ${r.failures.join(' | ')}`] : []),
  ];
}
