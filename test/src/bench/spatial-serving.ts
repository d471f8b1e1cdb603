// Benchmark: GET /wow/spatial/<spatialId> of a 1,000-node graph, against a bare node:http server
// answering the same JSON from memory.
//
//   subject  — the public Web of Worlds route on a running instance, for a public world whose graph was
//              saved through svc.spatial.save_graph: once the graph's body is cached, the fast path in
//              front of the application answers it (the per-address rate limiter — set high enough never
//              to refuse —, CORS and cache headers, ETag), as published sites are answered;
//   baseline — a bare `node:http` server in the same process answering the same bytes from memory with
//              only Content-Type and Content-Length.
//
// Client: one child process (http-load-client.ts), the same for both arms, with 10 keep-alive
// connections each carrying one request at a time; it checks every answer (200, the body's length).
// Arms alternate (A B A B …); each arm's rate is the median of its rounds; p50/p99 over sampled requests.
//
//   benchSpatialServing(options?) → Promise<SpatialServingRow[]>
import { browser, startTestInstance } from '@tributary/test';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { median, type ResultRow } from './bench-kit.js';
import type { LoadCommand, LoadResult } from './http-load-client.js';

export const SPATIAL_SERVING_TARGET = 0.5;
const NODES = 1000;
const CONNECTIONS = 10;

export type SpatialServingRow = ResultRow & {
  ratio: number;
  target: number;
  latencyMs: { subject: { p50: number; p99: number }; baseline: { p50: number; p99: number } };
  note: string;
};

export interface SpatialServingOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function getBody(port: number, path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** A tree of `n` nodes (fan-out 10), each with a label, a name, a transform and two asset URIs. */
function benchGraph(n: number) {
  const transform = { position: [1.5, 0, -2.25], rotation: [0, 0.7071068, 0, 0.7071068], scale: [1, 1, 1] };
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `node-${i}`,
    label: `Node ${i}`,
    names: [`n${i}`],
    parent: i === 0 ? null : `node-${Math.floor((i - 1) / 10)}`,
    children: [] as string[],
    localTransform: transform,
    spatialAssetUri: `https://assets.example/models/${i}.glb`,
    appearanceUri: `https://assets.example/looks/${i % 7}.json`,
  }));
  for (const node of nodes.slice(1))
    nodes[Number(node.parent!.slice('node-'.length))]!.children.push(node.id);
  return nodes;
}

function load(child: ChildProcess, command: LoadCommand): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ok: boolean; result?: LoadResult; error?: string }) =>
      m.ok ? resolve(m.result!) : reject(new Error(`load client: ${m.error}`)),
    );
    child.send(command);
  });
}

export async function benchSpatialServing(options: SpatialServingOptions = {}): Promise<SpatialServingRow[]> {
  const rounds = options.rounds ?? 5;
  const requests = Math.max(2000, Math.round(20_000 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);

  // The public routes count against RATE_LIMIT_FEED per address; the load comes from one address, so the
  // limit is set high enough never to refuse while the limiter still runs on every request.
  const instance = await startTestInstance({ env: { RATE_LIMIT_FEED: '999999999/s' } });
  let bare: http.Server | undefined;
  let child: ChildProcess | undefined;
  try {
    // Setup (untimed): a person creates a public world and saves a 1,000-node graph.
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    const created = await person.post('/api/ops/svc.spatial.create_world', {
      content: {
        label: 'Bench',
        age_restriction: 0,
        license: 'CC0-1.0',
        cost: 'free',
        version: 1,
        duration: 0,
      },
    });
    if (created.status !== 201) throw new Error(`create_world failed: ${created.text}`);
    const { worldId, spatialId } = created.json.result as { worldId: string; spatialId: string };
    const saved = await person.post('/api/ops/svc.spatial.save_graph', {
      worldId,
      baseRevision: 0,
      nodes: benchGraph(NODES),
    });
    if (saved.status !== 201) throw new Error(`save_graph failed: ${saved.text}`);
    const path = `/wow/spatial/${spatialId}`;
    const port = Number(new URL(instance.url).port);
    const page = await getBody(port, path);
    if (page.status !== 200) throw new Error(`the graph answers ${page.status}`);
    const parsed = JSON.parse(page.body.toString()) as { nodes: unknown[] };
    if (parsed.nodes.length !== NODES) throw new Error(`the graph has ${parsed.nodes.length} nodes`);

    bare = http.createServer((_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': page.body.length,
      });
      res.end(page.body);
    });
    bare.keepAliveTimeout = 60_000;
    bare.listen(0, '127.0.0.1');
    await once(bare, 'listening');
    const barePort = (bare.address() as AddressInfo).port;

    child = fork(fileURLToPath(new URL('./http-load-client.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const arms = {
      subject: { port, host: '127.0.0.1', rates: [] as number[], latencies: [] as number[], path },
      baseline: {
        port: barePort,
        host: '127.0.0.1',
        rates: [] as number[],
        latencies: [] as number[],
        path,
      },
    };
    const round = async (arm: typeof arms.subject, n: number, timed: boolean) => {
      const r = await load(child!, {
        port: arm.port,
        host: arm.host,
        path: arm.path,
        requests: n,
        connections: CONNECTIONS,
        expectLength: page.body.length,
      });
      if (!timed) return;
      arm.rates.push(r.requests / (r.ms / 1000));
      arm.latencies.push(...r.latenciesMs);
    };
    await round(arms.subject, Math.ceil(requests / 4), false);
    await round(arms.baseline, Math.ceil(requests / 4), false);
    for (let i = 0; i < rounds; i++) {
      await round(arms.subject, requests, true);
      await round(arms.baseline, requests, true);
    }

    const lat = (arm: typeof arms.subject) => {
      const sorted = [...arm.latencies].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const row: SpatialServingRow = {
      name: 'GET /wow/spatial/<id>, 1,000-node graph, vs bare node:http',
      unit: 'req',
      subject: median(arms.subject.rates),
      baseline: median(arms.baseline.rates),
      ratio: median(arms.subject.rates) / median(arms.baseline.rates),
      target: SPATIAL_SERVING_TARGET,
      subjectRates: arms.subject.rates,
      baselineRates: arms.baseline.rates,
      latencyMs: { subject: lat(arms.subject), baseline: lat(arms.baseline) },
      note: '',
    };
    const ms = (n: number) => n.toFixed(2);
    row.note =
      `${CONNECTIONS} keep-alive connections, ${page.body.length}-byte graph; p50/p99 ` +
      `${ms(row.latencyMs.subject.p50)}/${ms(row.latencyMs.subject.p99)} ms vs ` +
      `${ms(row.latencyMs.baseline.p50)}/${ms(row.latencyMs.baseline.p99)} ms`;
    log(
      `    subject ${Math.round(row.subject)} req/s, baseline ${Math.round(row.baseline)} req/s, ratio ` +
        `${row.ratio.toFixed(2)} (target ≥ ${SPATIAL_SERVING_TARGET}); ${row.note}`,
    );
    return [row];
  } finally {
    child?.kill();
    if (bare) {
      bare.closeAllConnections();
      await new Promise((r) => bare!.close(r));
    }
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/spatial-serving.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchSpatialServing({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
