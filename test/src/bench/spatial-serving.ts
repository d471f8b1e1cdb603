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
import { compareServing, getBody, startBareServer, type ServingRow } from './serving-comparison.js';

export const SPATIAL_SERVING_TARGET = 0.5;
const NODES = 1000;

export type SpatialServingRow = ServingRow;

export interface SpatialServingOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
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

export async function benchSpatialServing(options: SpatialServingOptions = {}): Promise<SpatialServingRow[]> {
  const rounds = options.rounds ?? 5;
  const requests = Math.max(2000, Math.round(20_000 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);

  const instance = await startTestInstance({ env: { RATE_LIMIT_FEED: '999999999/s' } });
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
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
    const parsed = JSON.parse(page.body.toString()) as { tributary: { nodes: unknown[] } };
    if (parsed.tributary.nodes.length !== NODES)
      throw new Error(`the graph has ${parsed.tributary.nodes.length} nodes`);

    bare = await startBareServer(page.body, 'application/json; charset=utf-8');
    const row = await compareServing({
      name: 'GET /wow/spatial/<id>, 1,000-node graph, vs bare node:http',
      subject: { port, host: '127.0.0.1', path },
      baseline: { port: bare.port, host: '127.0.0.1', path },
      requests,
      rounds,
      expectLength: page.body.length,
      target: SPATIAL_SERVING_TARGET,
      what: 'graph',
      log,
    });
    return [row];
  } finally {
    await bare?.close();
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
