// Redis stopped and started again under sync load: B pulls A's feed on BullMQ, on a redis-server of this
// test's own (never the shared one). Redis is killed while A keeps writing and comes back empty (no
// persistence, as a Redis that lost its memory does); B's sync must go on from its Postgres cursors, and
// every event A wrote must be on B once, none lost and none twice.
import { eventually, startTestRedis, type TestRedis } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, startNode, SYNC_ENV, type Loose, type Node } from './federation-helpers.js';

/** The ids of `origin`'s events held by `node`, with how many times each is there. */
async function eventsFrom(node: Node, origin: string) {
  const { rows } = await node.instance.instance.pool.query<{ id: string; n: string }>(
    'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
    [origin],
  );
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Every event of `node`'s public feed, by id. */
async function feedIds(node: Node): Promise<string[]> {
  await node.instance.instance.sequencer.drain();
  const ids: string[] = [];
  for (let since = 0; ;) {
    const r = await fetch(`${node.url}/api/federation/events?since=${since}&limit=500`);
    const page = (await r.json()) as { events: { sequence: number; event: Loose }[]; hasMore: boolean };
    for (const e of page.events) ids.push(e.event.id as string);
    if (!page.hasMore || page.events.length === 0) return ids;
    since = page.events.at(-1)!.sequence;
  }
}

describe('federation sync on BullMQ when Redis stops and starts again', () => {
  let redis: TestRedis;
  let a: Node; // writes
  let b: Node; // pulls A's feed, on BullMQ
  beforeAll(async () => {
    redis = await startTestRedis();
    [a, b] = await Promise.all([
      startNode('group', 'Riverside', { FEDERATION_SYNC: 'off' }),
      startNode('person', 'Ada', { ...SYNC_ENV, FEDERATION_QUEUE: 'bullmq', REDIS_URL: redis.url }),
    ]);
    // A runs no sync of its own (it answers B's signed pulls): everything B gets, it pulls, in jobs on
    // Redis.
    await register(b, a);
    await register(a, b);
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
    await redis?.close();
  });

  test('given B pulling A on BullMQ, when Redis is killed while A writes and again while B is idle, coming back empty each time, then B ends with every event of A once', async () => {
    let n = 0;
    const write = async (count: number) => {
      for (let i = 0; i < count; i++) {
        n++;
        const r = await a.operator.post('/api/ops/svc.agent.create_persona', { name: `Load ${n}` });
        assert.equal(r.status, 201, r.text);
      }
    };
    const state = async () => {
      const r = await b.operator.get('/api/federation/status');
      return `B holds ${(await eventsFrom(b, a.id)).size} of A's ${(await feedIds(a)).length}; cursors ${JSON.stringify(r.json.cursors)}`;
    };
    const holdsAllOfA = async () => {
      const want = await feedIds(a);
      const held = await eventsFrom(b, a.id);
      return want.length > 0 && want.every((id) => held.has(id));
    };
    await write(10);
    await eventually('B pulling A before the fault', holdsAllOfA, 30_000, state);

    // Redis goes away while A keeps writing and B pulls, with B's jobs in it.
    const writing = write(20);
    await new Promise((r) => setTimeout(r, 300));
    await redis.stop();
    await writing;
    await new Promise((r) => setTimeout(r, 1_000));
    await redis.start();
    await eventually('every event of A on B after the first outage', holdsAllOfA, 60_000, state);

    // And while B has nothing to do: nothing of its own wakes it when Redis is back, yet A writes on.
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1_000));
    await redis.start();
    await new Promise((r) => setTimeout(r, 1_000));
    await write(10);
    await eventually('every event of A on B after the second outage', holdsAllOfA, 60_000, state);
    const want = await feedIds(a);
    const held = await eventsFrom(b, a.id);
    assert.deepEqual([...held.keys()].sort(), [...want].sort(), 'exactly A’s feed, nothing else');
    assert.ok(
      [...held.values()].every((count) => count === 1),
      'no event twice',
    );
  });
});
