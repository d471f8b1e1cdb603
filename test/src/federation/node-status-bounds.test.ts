// The public status answers with many peers and many requests (docs/federation.md#get-apifederationnode-status-public,
// docs/operations.md#rate-limits): node-status lists at most 50 unblocked peers with their count and the
// global peer wherever it stands, states from each listed peer's own cursors, from one query whose page
// is an index range; both public answers are counted against RATE_LIMIT_STATUS per client address (429
// request.rate_limited with Retry-After, a page in words for a browser), the operator's view is not, and
// the public answers may be cached 5 seconds.
import { NODE_STATUS_PEERS_SQL } from '@tributary/projections';
import assert from 'node:assert/strict';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startNode, type Loose, type Node } from './federation-helpers.js';

const PEERS = 300;
const BLOCKED = 10; // the first ten
const GLOBAL_AT = 250; // registered late: outside the first 50

/** The peers' rows as the peers projection writes them, in registration order `bulk-0001`…; cursors for a few. */
async function insertPeers(databaseUrl: string) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO rm_peers (peer_id, agent_id, name, base_url, role, secret_hash, registered_at, updated_at,
                             blocked, blocked_reason)
       SELECT 'bulk-' || lpad(i::text, 4, '0'), 'agent-' || i, 'Bulk ' || i, 'http://127.0.0.1:9/b/' || i,
              CASE WHEN i = $2 THEN 'global' ELSE 'person' END, 'x', now() + i * interval '1 ms', now(),
              i <= $3, CASE WHEN i <= $3 THEN 'test' END
         FROM generate_series(1, $1::int) AS i`,
      [PEERS, GLOBAL_AT, BLOCKED],
    );
    // Peer 11 (the first unblocked) answered; peer 12 is in backoff; the global one answered twice.
    await db.query(
      `INSERT INTO federation_sync_cursors (peer_id, direction, attempts, next_attempt_at, last_success_at, created_at)
       VALUES ('bulk-0011', 'pull', 0, now(), '2026-01-02T03:04:05Z', now()),
              ('bulk-0012', 'push', 3, now(), NULL, now()),
              ($1, 'push', 0, now(), '2026-01-01T00:00:00Z', now()),
              ($1, 'pull', 0, now(), '2026-01-03T00:00:00Z', now())`,
      [`bulk-${String(GLOBAL_AT).padStart(4, '0')}`],
    );
    await db.query('ANALYZE rm_peers; ANALYZE federation_sync_cursors');
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${NODE_STATUS_PEERS_SQL}`, [51])).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    return plan;
  } finally {
    await db.end();
  }
}

describe('node-status with many peers', () => {
  let p: Node;
  let plan: string;

  beforeAll(async () => {
    // No sync: the states are only what the cursors inserted say.
    p = await startNode('person', 'Bounds P', { FEDERATION_SYNC: 'off', RATE_LIMIT_STATUS: '1000/min' });
    plan = await insertPeers(p.instance.databaseUrl);
  });
  afterAll(async () => {
    await p?.instance.destroy();
  });

  test('given 300 peers, 10 blocked and the global one registered 250th, then node-status lists the first 50 unblocked with the count of all, and the global one with its state', async () => {
    const r = await fetch(`${p.url}/api/federation/node-status`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'public, max-age=5');
    const body = (await r.json()) as Loose;
    assert.equal(body.peerCount, PEERS - BLOCKED);
    assert.equal(body.peers.length, 50);
    const expected = Array.from({ length: 50 }, (_, i) => `bulk-${String(BLOCKED + 1 + i).padStart(4, '0')}`);
    assert.deepEqual(
      (body.peers as Loose[]).map((x) => x.peerId),
      expected,
    );
    const byId = new Map((body.peers as Loose[]).map((x) => [x.peerId as string, x]));
    assert.deepEqual(byId.get('bulk-0011'), {
      peerId: 'bulk-0011',
      role: 'person',
      state: 'reachable',
      lastContactAt: '2026-01-02T03:04:05.000Z',
    });
    assert.equal(byId.get('bulk-0012')!.state, 'failing');
    assert.equal(byId.get('bulk-0013')!.state, 'unknown');
    assert.deepEqual(body.global, {
      self: false,
      peerId: `bulk-0${GLOBAL_AT}`,
      baseUrl: `http://127.0.0.1:9/b/${GLOBAL_AT}`,
      state: 'reachable',
      lastContactAt: '2026-01-03T00:00:00.000Z',
    });
    assert.equal(body.federating, false, 'sync is off');
    assert.ok(JSON.stringify(body).length < 10_000, `${JSON.stringify(body).length} bytes`);
  });

  test('given 300 peers, then the page node-status reads is a range of the registration index', () => {
    assert.match(plan, /Index Scan using rm_peers_registered on rm_peers/, plan);
  });
});

describe('the public status answers are rate-limited per client address', () => {
  let p: Node;

  beforeAll(async () => {
    p = await startNode('person', 'Limited P', { RATE_LIMIT_STATUS: '2/min' });
  });
  afterAll(async () => {
    await p?.instance.destroy();
  });

  test('given RATE_LIMIT_STATUS=2/min, when anyone reads the status three times, then the third is 429 request.rate_limited with Retry-After; node-status shares the budget; the operator’s view is not counted', async () => {
    const first = await fetch(`${p.url}/api/federation/status`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'public, max-age=5');
    assert.match(first.headers.get('vary') ?? '', /Cookie/);
    assert.equal((await fetch(`${p.url}/api/federation/node-status`)).status, 200);

    const refused = await fetch(`${p.url}/api/federation/status`);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After: ${refused.headers.get('retry-after')}`);
    const problem = (await refused.json()) as Loose;
    assert.equal(problem.code, 'request.rate_limited');
    assert.equal(problem.retryAfter, wait);

    const nodeStatus = await fetch(`${p.url}/api/federation/node-status`);
    assert.equal(nodeStatus.status, 429);
    assert.equal(((await nodeStatus.json()) as Loose).code, 'request.rate_limited');

    const mine = await p.operator.get('/api/federation/status');
    assert.equal(mine.status, 200, mine.text);
    assert.ok(Array.isArray(mine.json.cursors));
    assert.equal(mine.headers.get('cache-control'), 'private, no-store');
  });

  test('given the budget spent, when a browser opens the status, then a page says in words to wait, request.rate_limited in small print', async () => {
    const r = await fetch(`${p.url}/api/federation/status`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 429);
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    const page = await r.text();
    assert.match(page, /data-error-code="request\.rate_limited"/);
    assert.match(page, /Too many requests came from your address just now[^<]*Try again in \d+ seconds?\./);
  });
});
