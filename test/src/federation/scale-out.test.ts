// Scale-out with real processes (docs/operations.md#process-roles): one instance as three API processes
// and two workers (`tributary start --role api|worker`) on one PostgreSQL — and one Redis, BullMQ
// spreading the sync jobs, when the suite has one (without, the workers sweep in-process, as every
// Redis-using suite here does) — behind a round-robin proxy that is the instance's one address for its
// peer. Clients write through all three API processes at once while the peer pushes its own events in;
// one API process and one worker are SIGKILLed and started again mid-load. Then: every acknowledged
// write is in the log exactly once; the feed read from each API process is the same and gap-free; each
// event reached the other side exactly once; the read models equal a rebuild; `log verify` is OK.
import { loadOrCreateKeyFile, publicKeyBase64url } from '@tributary/infra';
import {
  browser,
  createTestDatabase,
  eventuallyWithin,
  runCli,
  startRoundRobinProxy,
  type RoundRobinProxy,
  type TestDatabase,
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
import { password, register, startNode, type Loose, type Node } from './federation-helpers.js';

const SYNC_ENV = {
  FEDERATION_SYNC: 'on',
  FEDERATION_SWEEP_MS: '100',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
};

/** Every wait here is long: processes start, restart and catch up. */
const eventually = eventuallyWithin(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every event of the feed served at `url`, paged as a peer pages it. */
async function readFeed(url: string): Promise<{ sequence: number; id: string; origin: string }[]> {
  const out: { sequence: number; id: string; origin: string }[] = [];
  let since = 0;
  for (;;) {
    const r = await fetch(`${url}/api/federation/events?since=${since}&limit=500`);
    assert.equal(r.status, 200, `${url}: ${await r.clone().text()}`);
    const page = (await r.json()) as Loose;
    for (const e of page.events as Loose[])
      out.push({
        sequence: e.sequence as number,
        id: e.event.id as string,
        origin: e.event.origin as string,
      });
    if (!page.hasMore) return out;
    since = (page.events as Loose[]).at(-1)!.sequence as number;
  }
}

describe('scale-out: three API processes and two workers on one database, with a syncing peer', () => {
  let db: TestDatabase;
  let dataDir: string;
  let proxy: RoundRobinProxy;
  let peer: Node;
  const procs = new Set<StartedProcess>();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-scale-'));
    peer = await startNode('person', 'Ada', { ...SYNC_ENV, FEDERATION_QUEUE: 'in-process' });
  });
  afterAll(async () => {
    for (const p of procs)
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await proxy?.close();
    await peer?.instance.destroy();
    await db?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('given clients writing through every API process and a peer pushing in, when an API process and a worker are SIGKILLed and restarted mid-load, then nothing acknowledged is lost or doubled, every API serves the same gap-free feed, each event crosses once, the read models equal a rebuild, and the log verifies', async () => {
    const t0 = Date.now();
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    // Filled in as the API processes report the ports the kernel gave them; the proxy reads it per
    // connection, and its first connection comes once all three are ready.
    const apiPorts: number[] = [];
    proxy = await startRoundRobinProxy(apiPorts);
    const redis = process.env.REDIS_URL;
    // Every process shares the database, the data folder (the key) and BASE_URL (the proxy's address,
    // which the peer signs its requests for).
    const shared: Record<string, string> = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      BASE_URL: proxy.url,
      INSTANCE_ROLE: 'global',
      INSTANCE_NAME: 'Global',
      DATABASE_POOL_SIZE: '8',
      ...SYNC_ENV,
      ...(redis ? { REDIS_URL: redis, FEDERATION_QUEUE: 'bullmq' } : { FEDERATION_QUEUE: 'in-process' }),
    };
    // The first start on a port the kernel picks; a restart on the port that start reported.
    const startApi = async (i: number) => {
      const p = startReporting(
        { ...shared, PORT: apiPorts[i] === undefined ? '0' : String(apiPorts[i]) },
        { args: ['--role', 'api'] },
      );
      procs.add(p);
      apiPorts[i] = (await p.address()).port!;
      return p;
    };
    const startWorker = () => {
      const p = startProcess(shared, { args: ['--role', 'worker'] });
      procs.add(p);
      return p;
    };
    const workerReady = (p: StartedProcess) => waitForLine(p, 'tributary worker is ready', 120_000);

    // The first API process creates the instance; the others join it.
    const apis: StartedProcess[] = [await startApi(0)];
    await ready(apiPorts[0]!, apis[0]!);
    const instanceId = (await waitForLine(apis[0]!, 'tributary is ready')).instanceId as string;
    const workers = [startWorker(), startWorker()];
    apis.push(...(await Promise.all([startApi(1), startApi(2)])));
    await Promise.all([
      ready(apiPorts[1]!, apis[1]!),
      ready(apiPorts[2]!, apis[2]!),
      ...workers.map(workerReady),
    ]);
    phase('started');
    const direct = new pg.Pool({ connectionString: db.url, max: 3 });
    try {
      const count = async (sql: string, params: unknown[] = []) =>
        Number((await direct.query<{ n: string }>(sql, params)).rows[0]!.n);

      // The operator (the first account) peers the instance with the peer, in both directions.
      const operator = browser(`http://127.0.0.1:${apiPorts[0]}`);
      const signup = await operator.post('/api/auth/signup', { handle: 'op_global', password });
      assert.equal(signup.status, 201, signup.text);
      const key = loadOrCreateKeyFile(join(dataDir, 'keys', 'instance-ed25519.pem'));
      const self = {
        id: instanceId,
        url: proxy.url,
        role: 'global',
        publicKey: publicKeyBase64url(key.publicKey),
        operator,
      } as unknown as Node;
      await register(self, peer);
      await register(peer, self);

      // Writers: three accounts, each writing through two API processes at once (account k on APIs k
      // and k+1), so one stream is appended to from two processes and every process serves two writers.
      const accounts: ReturnType<typeof browser>[] = [];
      for (let k = 0; k < 3; k++) {
        const b = browser(`http://127.0.0.1:${apiPorts[k]}`);
        const r = await b.post('/api/auth/signup', { handle: `writer_${k}`, password });
        assert.equal(r.status, 201, r.text);
        accounts.push(b);
      }
      const acked: { api: number; handle: string; ids: string[] }[] = [];
      const ackedAfterRestart = [0, 0, 0];
      let restarted = false;
      const refusals: string[] = []; // answers other than 201: only stream conflicts are expected
      let unanswered = 0; // requests cut by a kill: committed or not, never acknowledged
      let writing = true;
      let seq = 0;
      const writer = async (account: number, api: number) => {
        const cookie = accounts[account]!.cookie;
        while (writing) {
          const handle = `w${api}_${account}_${++seq}`;
          try {
            const r = await fetch(`http://127.0.0.1:${apiPorts[api]}/api/ops/svc.agent.create_persona`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie },
              body: JSON.stringify({ name: handle, handle }),
            });
            const body = (await r.json()) as Loose;
            if (r.status === 201) {
              acked.push({ api, handle, ids: (body.events as Loose[]).map((e) => e.id as string) });
              if (restarted) ackedAfterRestart[api]!++;
            } else if (r.status === 409 && body.code === 'log.stream_conflict') continue;
            else refusals.push(`${r.status} ${JSON.stringify(body)}`);
          } catch {
            unanswered++;
            await sleep(100); // the process is down: a client backs off and tries again
          }
        }
      };
      // The peer writes too; its push brings the events in through the proxy, to whichever API answers.
      const peerHandles: string[] = [];
      const peerWriter = async () => {
        let n = 0;
        while (writing) {
          const handle = `p_${++n}`;
          const r = await peer.operator.post('/api/ops/svc.agent.create_persona', { name: handle, handle });
          assert.equal(r.status, 201, r.text);
          peerHandles.push(handle);
          await sleep(50);
        }
      };
      const load = Promise.all([
        writer(0, 0),
        writer(0, 1),
        writer(1, 1),
        writer(1, 2),
        writer(2, 2),
        writer(2, 0),
        peerWriter(),
      ]);

      try {
        await eventually('writes through every API process', async () =>
          [0, 1, 2].every((api) => acked.filter((a) => a.api === api).length >= 10),
        );
        await eventually('events of the peer imported', async () => {
          const n = await count('SELECT count(*) AS n FROM events WHERE origin = $1', [peer.id]);
          return n >= 5;
        });
        phase('loaded');
        // Mid-load: SIGKILL the second API process and the first worker — no shutdown of any kind.
        apis[1]!.child.kill('SIGKILL');
        workers[0]!.child.kill('SIGKILL');
        await Promise.all([apis[1]!.exited, workers[0]!.exited]);
        const atKill = acked.length;
        await eventually(
          'writes going on through the API processes left',
          async () => acked.length >= atKill + 20,
        );
        phase('killed');
        workers[0] = startWorker();
        apis[1] = await startApi(1);
        await Promise.all([ready(apiPorts[1]!, apis[1]!), workerReady(workers[0]!)]);
        restarted = true;
        phase('restarted');
        await eventually('writes through every API process after the restart', async () =>
          ackedAfterRestart.every((n) => n >= 10),
        );
      } finally {
        writing = false;
        await load;
      }
      phase('load stopped');
      assert.deepEqual(refusals, [], 'no write was refused other than by a stream conflict');

      // Settling: every event numbered (1..N, no gap), the async projections at the head, and each side
      // holding the other's feed.
      const state = async () =>
        JSON.stringify({
          events: await count('SELECT count(*) AS n FROM events'),
          sequenced: await count('SELECT count(*) AS n FROM event_sequence'),
          checkpoints: (await direct.query('SELECT name, seq FROM projection_checkpoints')).rows,
          cursors: (
            await direct.query('SELECT peer_id, direction, position, attempts FROM federation_sync_cursors')
          ).rows,
          unanswered,
        });
      const ownFeed = (await readFeed(`http://127.0.0.1:${apiPorts[0]}`)).filter(
        (e) => e.origin === instanceId,
      );
      await eventually(
        'the peer to hold every event of our feed',
        async () => {
          const { rows } = await peer.instance.instance.pool.query<{ id: string }>(
            'SELECT id FROM events WHERE origin = $1',
            [instanceId],
          );
          const held = new Set(rows.map((r) => r.id));
          return ownFeed.every((e) => held.has(e.id));
        },
        120_000,
        state,
      );
      const peerFeed = (await readFeed(peer.url)).filter((e) => e.origin === peer.id);
      await eventually(
        'us to hold every event of the peer’s feed',
        async () => {
          const n = await count('SELECT count(*) AS n FROM events WHERE origin = $1 AND id = ANY($2)', [
            peer.id,
            peerFeed.map((e) => e.id),
          ]);
          return n === peerFeed.length;
        },
        120_000,
        state,
      );
      // Imports of the peer's last events are appended while the waits above run, so the numbering is
      // awaited after them.
      await eventually(
        'every event sequenced, the peer’s imported ones included',
        async () =>
          (await count('SELECT count(*) AS n FROM events')) ===
          (await count('SELECT count(*) AS n FROM event_sequence')),
        120_000,
        state,
      );
      await eventually(
        'the async projections at the head',
        async () =>
          (await count(
            `SELECT count(*) AS n FROM projection_checkpoints WHERE seq < (SELECT last_seq FROM sequencer_state)`,
          )) === 0,
        120_000,
        state,
      );

      phase('settled');
      // Every acknowledged write is in the log exactly once, and readable from every API process.
      assert.ok(acked.length >= 60, `${acked.length} writes acknowledged`);
      const ackedIds = acked.flatMap((a) => a.ids);
      const { rows: copies } = await direct.query<{ id: string; n: string }>(
        'SELECT id, count(*) AS n FROM events WHERE id = ANY($1) GROUP BY id',
        [ackedIds],
      );
      assert.equal(copies.length, ackedIds.length, 'every acknowledged event is in the log');
      assert.ok(
        copies.every((c) => c.n === '1'),
        'no acknowledged event is there twice',
      );
      // Each persona once in the read model, acknowledged or (cut by a kill) committed without an answer.
      const { rows: personas } = await direct.query<{ handle: string; n: string }>(
        `SELECT handle, count(*) AS n FROM rm_agents WHERE handle LIKE 'w%\\_%\\_%' GROUP BY handle`,
      );
      const personaSet = new Set(personas.map((p) => p.handle));
      assert.ok(personas.every((p) => p.n === '1'));
      assert.ok(
        acked.every((a) => personaSet.has(a.handle)),
        'every acknowledged persona is in the read model',
      );
      // The feed, read from each API process: identical, strictly increasing, and gap-free — the
      // sequence numbers 1..N every event of the log, and the feed is exactly its federable part.
      const feeds = await Promise.all(apiPorts.map((p) => readFeed(`http://127.0.0.1:${p}`)));
      assert.ok(feeds[0]!.length > acked.length);
      assert.deepEqual(feeds[1], feeds[0]);
      assert.deepEqual(feeds[2], feeds[0]);
      const { rows: numbering } = await direct.query<{ n: string; min: string; max: string }>(
        'SELECT count(*) AS n, min(seq) AS min, max(seq) AS max FROM event_sequence',
      );
      const events = await count('SELECT count(*) AS n FROM events');
      assert.deepEqual(numbering[0], { n: String(events), min: '1', max: String(events) });
      const { rows: federable } = await direct.query<{ seq: string; id: string }>(
        'SELECT s.seq, e.id FROM event_sequence s JOIN events e ON e.position = s.position WHERE s.feed ORDER BY s.seq',
      );
      assert.deepEqual(
        feeds[0]!.map((e) => [e.sequence, e.id]),
        federable.map((r) => [Number(r.seq), r.id]),
      );
      const ackedFeedIds = new Set(feeds[0]!.map((e) => e.id));
      assert.ok(
        acked.every((a) => a.ids.some((id) => ackedFeedIds.has(id))),
        'every acknowledged persona is on the feed',
      );

      // Each event crossed exactly once, both ways.
      const onPeer = await peer.instance.instance.pool.query<{ id: string; n: string }>(
        'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
        [instanceId],
      );
      const onPeerIds = new Set(onPeer.rows.map((r) => r.id));
      assert.ok(onPeer.rows.every((r) => r.n === '1'));
      const ownNow = (await readFeed(`http://127.0.0.1:${apiPorts[2]}`)).filter(
        (e) => e.origin === instanceId,
      );
      assert.ok(
        ownNow.every((e) => onPeerIds.has(e.id)),
        'every event of our feed reached the peer',
      );
      const { rows: fromPeer } = await direct.query<{ id: string; n: string }>(
        'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
        [peer.id],
      );
      assert.ok(fromPeer.every((r) => r.n === '1'));
      assert.ok(peerFeed.every((e) => fromPeer.some((r) => r.id === e.id)));
      assert.ok(peerHandles.length >= 5);
      // The peer's own push delivered them (through the proxy, to whichever API process answered).
      const { rows: pushed } = await peer.instance.instance.pool.query<{ delivered: string }>(
        `SELECT accepted + duplicates AS delivered FROM federation_sync_cursors
         WHERE peer_id = $1 AND direction = 'push'`,
        [instanceId],
      );
      assert.ok(Number(pushed[0]?.delivered ?? 0) > 0, 'the peer pushed its events in');
      assert.equal(
        await count('SELECT count(*) AS n FROM federation_equivocations'),
        0,
        'no stream version was used twice',
      );

      // Every process stops cleanly; then the read models are compared with a rebuild from the log.
      for (const p of [...apis, ...workers]) p.child.kill('SIGTERM');
      for (const p of [...apis, ...workers]) assert.equal(await p.exited, 0, p.output().slice(-2000));
      const snapshot = async () => {
        const { rows } = await direct.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables
           WHERE table_schema = 'public' AND table_name LIKE 'rm\\_%' ORDER BY table_name`,
        );
        const out: Record<string, string[]> = {};
        for (const { table_name } of rows) {
          const t = await direct.query<{ r: string }>(
            `SELECT to_jsonb(x)::text AS r FROM ${pg.escapeIdentifier(table_name)} x ORDER BY 1`,
          );
          out[table_name] = t.rows.map((r) => r.r);
        }
        return out;
      };
      phase('stopped');
      const before = await snapshot();
      const cliEnv = { BASE_URL: proxy.url, INSTANCE_ROLE: 'global' };
      const rebuild = await runCli({ databaseUrl: db.url, dataDir }, ['projections', 'rebuild'], cliEnv);
      assert.equal(rebuild.code, 0, rebuild.stderr);
      assert.deepEqual(await snapshot(), before);
      const verify = await runCli({ databaseUrl: db.url, dataDir }, ['log', 'verify'], cliEnv);
      assert.equal(verify.code, 0, verify.stderr + verify.stdout);
      assert.match(verify.stdout, /log verify: OK/);
      phase('rebuilt and verified');
      console.warn(
        `scale-out: ${phases.join(', ')}; ${acked.length} writes acknowledged (${unanswered} requests failed while a process was down), ${feeds[0]!.length} feed events, ` +
          `${peerHandles.length} peer writes; proxy connections per API process ${JSON.stringify([...proxy.counts()])}`,
      );
    } finally {
      await direct.end();
    }
  });
});
