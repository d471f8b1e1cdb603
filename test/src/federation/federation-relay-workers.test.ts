// Relay work spread over worker processes through BullMQ (docs/operations.md#process-roles): the global
// instance G runs as one API process and two workers (`tributary start --role api|worker`) on one
// database and a redis-server of this test's own. Two origins feed it: A1 pushes (G's API process imports
// its batches), A2 only answers pulls (G's workers import its pages, one BullMQ job per cursor); G's
// workers deliver everything to a follower, B (a push job). Mid-load one worker is
// SIGKILLed (its running jobs and their advisory locks die with it) and Redis is killed and started
// again empty. Then: the load finishes, G and B hold every event of both origins once, and the
// imports counted no duplicate beyond the batch a killed job had in flight.
import { loadOrCreateKeyFile, publicKeyBase64url } from '@tributary/infra';
import {
  appendNewAgents,
  createTestDatabase,
  eventuallyWithin,
  startRoundRobinProxy,
  startTestRedis,
  browser,
  type RoundRobinProxy,
  type TestDatabase,
  type TestRedis,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  ready,
  startProcess,
  startReporting,
  waitForLine,
  type StartedProcess,
} from '../e2e/start-helpers.js';
import { password, register, startNode, SYNC_ENV, type Node } from './federation-helpers.js';

const eventually = eventuallyWithin(60_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Imported events by result, summed over push and pull, from an in-process node's /metrics. */
async function importedBy(url: string): Promise<{ accepted: number; duplicate: number; behind: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = { accepted: 0, duplicate: 0, behind: 0 };
  for (const m of text.matchAll(
    /^tributary_federation_imported_events_total\{via="\w+",result="(accepted|duplicate)"\} (\S+)$/gm,
  ))
    out[m[1] as 'accepted' | 'duplicate'] += Number(m[2]);
  out.behind = Number(/^tributary_federation_push_batches_behind_total (\S+)$/m.exec(text)?.[1] ?? 0);
  return out;
}

/** How many times `node`'s database holds each event of `origin` named `label …`. */
async function copies(pool: pg.Pool, origin: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ id: string; n: string }>(
    `SELECT id, count(*) AS n FROM events WHERE origin = $1 AND type = 'agent.created'
        AND envelope::jsonb -> 'data' ->> 'name' LIKE 'Load %' GROUP BY id`,
    [origin],
  );
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

describe('relay deliveries and imports on two worker processes through BullMQ', () => {
  let redis: TestRedis;
  let db: TestDatabase;
  let dataDir: string;
  let proxy: RoundRobinProxy;
  let a1: Node;
  let a2: Node;
  let b: Node;
  const procs = new Set<StartedProcess>();

  beforeAll(async () => {
    redis = await startTestRedis();
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-relay-workers-'));
    // Small pools: the test's PostgreSQL serves other suites too (100 connections in all).
    const small = { DATABASE_POOL_SIZE: '3' };
    [a1, a2, b] = await Promise.all([
      startNode('person', 'Ada', { ...SYNC_ENV, ...small }),
      // Runs no sync: G's workers pull it.
      startNode('group', 'Riverside', { FEDERATION_SYNC: 'off', ...small }),
      startNode('person', 'Bea', { ...SYNC_ENV, ...small }),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const p of procs)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await proxy?.close();
    await Promise.all([a1, a2, b].map((n) => n?.instance.destroy()));
    await db?.drop();
    await redis?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('given G as an API process and two workers on BullMQ, when one worker is SIGKILLed and Redis restarts empty mid-load, then the load finishes and every event of both origins is on G and B once, with no duplicate import beyond a killed job’s batch', async () => {
    const apiPorts: number[] = [];
    proxy = await startRoundRobinProxy(apiPorts);
    const shared: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      BASE_URL: proxy.url,
      INSTANCE_ROLE: 'global',
      INSTANCE_NAME: 'Global',
      DATABASE_POOL_SIZE: '4',
      ...SYNC_ENV,
      REDIS_URL: redis.url,
      FEDERATION_QUEUE: 'bullmq',
    };
    const api = startReporting(shared, { args: ['--role', 'api'] });
    procs.add(api);
    apiPorts.push((await api.address()).port!);
    await ready(apiPorts[0]!, api);
    const instanceId = (await waitForLine(api, 'tributary is ready')).instanceId as string;
    const startWorker = () => {
      const p = startProcess(shared, { args: ['--role', 'worker'] });
      procs.add(p);
      return p;
    };
    const workers = [startWorker(), startWorker()];
    await Promise.all(workers.map((w) => waitForLine(w, 'tributary worker is ready', 120_000)));

    const operator = browser(proxy.url);
    const signup = await operator.post('/api/auth/signup', { handle: 'op_global', password });
    assert.equal(signup.status, 201, signup.text);
    const g = {
      id: instanceId,
      url: proxy.url,
      role: 'global',
      publicKey: publicKeyBase64url(
        loadOrCreateKeyFile(join(dataDir, 'keys', 'instance-ed25519.pem')).publicKey,
      ),
      operator,
    } as unknown as Node;
    for (const s of [a1, a2, b]) {
      await register(g, s);
      await register(s, g);
    }
    const direct = new pg.Pool({ connectionString: db.url, max: 2 });
    try {
      const origins = [a1, a2];
      const followers = [b];
      // What each holds of each origin's load, and every copy counted.
      const holders = () => [
        { name: 'G', pool: direct },
        { name: 'B', pool: b.instance.instance.pool },
      ];
      const written = new Map<Node, number>(origins.map((o) => [o, 0]));
      const allHeld = async () => {
        for (const h of holders())
          for (const o of origins) if ((await copies(h.pool, o.id)).size !== written.get(o)) return false;
        return true;
      };
      const state = async () => {
        const parts: string[] = [];
        for (const h of holders())
          for (const o of origins)
            parts.push(`${h.name} ${(await copies(h.pool, o.id)).size}/${written.get(o)}`);
        const cursors = await direct.query(
          'SELECT peer_id, direction, position, attempts, last_error FROM federation_sync_cursors',
        );
        return `${parts.join(', ')}; G's cursors ${JSON.stringify(cursors.rows)}`;
      };
      const write = async (o: Node, n: number) => {
        await appendNewAgents(o.instance.instance.services, n, `Load ${o === a1 ? 1 : 2}`);
        written.set(o, written.get(o)! + n);
      };
      // Warm-up: first pulls and first pushes race at the start, and the followers learn both origins'
      // keys; that is not what is measured.
      await Promise.all(origins.map((o) => write(o, 5)));
      await eventually('the warm-up everywhere', allHeld, 60_000, state);
      const before = {
        api: await importedBy(apiPorts.map((p) => `http://127.0.0.1:${p}`)[0]!),
        followers: await Promise.all(followers.map((f) => importedBy(f.url))),
        pulls: await direct.query<{ d: string }>(
          `SELECT coalesce(sum(duplicates), 0) AS d FROM federation_sync_cursors WHERE direction = 'pull'`,
        ),
      };

      // Load: both origins append a wave every 200 ms until told to stop.
      let loading = true;
      let waves = 0;
      const load = (async () => {
        while (loading) {
          await Promise.all(origins.map((o) => write(o, 10)));
          waves++;
          await sleep(200);
        }
      })();
      try {
        await eventually('load under way', async () => waves >= 10);
        workers[0]!.child.kill('SIGKILL');
        await workers[0]!.exited;
        const atKill = waves;
        await eventually('the load going on', async () => waves >= atKill + 5);
        await redis.stop();
        await sleep(1_000);
        await redis.start();
        const atRestart = waves;
        await eventually('the load going on after Redis came back', async () => waves >= atRestart + 10);
      } finally {
        loading = false;
        await load;
      }
      await eventually('every event of both origins on G and B', allHeld, 60_000, state);

      for (const h of holders())
        for (const o of origins) {
          const held = await copies(h.pool, o.id);
          assert.ok(
            [...held.values()].every((n) => n === 1),
            `${h.name}: no event of ${o.id} twice`,
          );
        }
      // Duplicate imports: G's API (A1's pushes), G's pull cursors (A2's pages, as committed), and the
      // followers' imports (G's pushes, and their pulls of G).
      const after = {
        api: await importedBy(`http://127.0.0.1:${apiPorts[0]}`),
        followers: await Promise.all(followers.map((f) => importedBy(f.url))),
        pulls: await direct.query<{ d: string }>(
          `SELECT coalesce(sum(duplicates), 0) AS d FROM federation_sync_cursors WHERE direction = 'pull'`,
        ),
      };
      const dups = {
        gPush: after.api.duplicate - before.api.duplicate,
        gPull: Number(after.pulls.rows[0]!.d) - Number(before.pulls.rows[0]!.d),
        b: after.followers[0]!.duplicate - before.followers[0]!.duplicate,
      };
      const behind = after.followers.reduce((s, f, i) => s + f.behind - before.followers[i]!.behind, 0);
      const total = written.get(a1)! + written.get(a2)!;
      const summary = `${total} events written in ${waves} waves; duplicates ${JSON.stringify(dups)}; pushes answered 'resend from' at B: ${behind}`;
      assert.ok(total >= 500, summary);
      // Each hop's duplicates stay within what one killed job could have had in flight (0 on every hop
      // in the run at load average 28, with 5 batches sent again answered 'resend from').
      for (const [hop, n] of Object.entries(dups)) assert.ok(n <= 100, `${hop}: ${summary}`);
      assert.equal(
        Number(
          (await direct.query<{ n: string }>('SELECT count(*) AS n FROM federation_equivocations')).rows[0]!
            .n,
        ),
        0,
      );
    } finally {
      await direct.end();
    }
    for (const p of [api, workers[1]!]) p.child.kill('SIGTERM');
    for (const p of [api, workers[1]!]) assert.equal(await p.exited, 0, p.output().slice(-2000));
    // About 90 s on a quiet machine; 237 s seen at load average 28 on two cores.
  }, 360_000);
});
