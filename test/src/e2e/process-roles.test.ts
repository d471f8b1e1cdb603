// `tributary start --role api|worker` (docs/operations.md#process-roles): real processes on one database.
// An api process serves HTTP and runs none of the background loops, so what it writes reaches the feed
// (numbered by the sequencer) only once a worker runs; the worker listens on no port of its own.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tributary/test';
import { ready, startProcess, startReporting, waitForLine, type StartedProcess } from './start-helpers.js';

interface FeedPage {
  events: { sequence: number; event: { type: string; stream: string; actorId: string } }[];
  head: number;
}

describe('process roles: an api process and a worker on one database', () => {
  let db: TestDatabase;
  let dataDir: string;
  let port: number;
  let client: pg.Client;
  const started: StartedProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-roles-'));
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    for (const p of started) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await client?.end();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const feed = async (): Promise<FeedPage> => {
    const r = await fetch(`http://127.0.0.1:${port}/api/federation/events?since=0&limit=500`);
    assert.equal(r.status, 200);
    return (await r.json()) as FeedPage;
  };
  const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);

  test('given an api process alone, when it takes a write, then the feed shows it only once a worker runs', async () => {
    // Both processes share the data folder (the signing key) and the database, as replicas would.
    const api = startReporting(
      { DATABASE_URL: db.url, TRIBUTARY_DATA_DIR: dataDir },
      { args: ['--role', 'api'] },
    );
    started.push(api);
    const at = await api.address();
    port = at.port!;
    const env = {
      DATABASE_URL: db.url,
      TRIBUTARY_DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: at.baseUrl!,
    };
    await ready(port, api);
    const line = await waitForLine(api, 'tributary is ready');
    assert.equal(line.role, 'api');

    // It tells the workers of its appends on a NOTIFY channel (the workers' timer is the fallback).
    const notices: string[] = [];
    client.on('notification', (m) => notices.push(m.channel));
    await client.query('LISTEN tributary_appended');
    const signup = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'roles', password: 'correct horse battery' }),
    });
    assert.equal(signup.status, 201);
    const written = await count('SELECT count(*) AS n FROM events');
    assert.ok(written > 0, 'the write is in the log');
    const noticeUntil = Date.now() + 5_000;
    while (!notices.includes('tributary_appended')) {
      assert.ok(Date.now() < noticeUntil, 'the api process sent an append notice');
      await new Promise((r) => setTimeout(r, 20));
    }

    // Several of a sequencer's intervals (250 ms): nobody numbers the events, so the feed stays empty,
    // and no async projection moves. /readyz does not depend on the loops the process does not run.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await count('SELECT count(*) AS n FROM event_sequence'), 0);
    const before = await feed();
    assert.equal(before.events.length, 0);
    assert.equal(before.head, 0);
    assert.equal(await count('SELECT count(*) AS n FROM projection_checkpoints WHERE seq > 0'), 0);
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    // It syncs nothing itself, but the instance does (its workers): the status says what they run.
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/federation/status`)).json()) as {
      sync: string;
    };
    assert.equal(status.sync, process.env.REDIS_URL ? 'bullmq' : 'in-process');

    // The worker on the same PORT: it listens on none, so the api process keeps the port to itself.
    // Its only listener is METRICS_PORT's, for the gauges that concern it.
    const worker = startReporting({ ...env, METRICS_PORT: '0' }, { args: ['--role', 'worker'] });
    started.push(worker);
    const workerAt = await worker.address();
    assert.equal(workerAt.url, null);
    const metricsPort = workerAt.metricsPort!;
    const workerLine = await waitForLine(worker, 'tributary worker is ready', 120_000);
    assert.equal(workerLine.role, 'worker');
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(scrape.status, 200);
    assert.match(await scrape.text(), /^tributary_sequencer_head /m);
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status, 404);
    // The worker listens for the api process's append notices on a connection of its own.
    const listenUntil = Date.now() + 10_000;
    while (
      (await count(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()
           AND query = 'LISTEN tributary_appended' AND pid <> pg_backend_pid()`,
      )) === 0
    ) {
      assert.ok(Date.now() < listenUntil, 'the worker LISTENs for append notices');
      await new Promise((r) => setTimeout(r, 50));
    }

    // The sequencer's timer finds appends made by other processes: every event written gets numbered,
    // and the feed (the federated subset of the log) shows the new account's agent.
    const until = Date.now() + 20_000;
    while ((await count('SELECT count(*) AS n FROM event_sequence')) < written) {
      assert.ok(Date.now() < until, 'the worker sequenced every event written through the api process');
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = await feed();
    assert.ok(after.events.length > 0 && after.head > 0);
    assert.deepEqual(
      after.events.map((e) => e.sequence),
      [...after.events.map((e) => e.sequence)].sort((a, b) => a - b),
    );
    const { agentId } = (await signup.json()) as { agentId: string };
    assert.ok(
      after.events.some((e) => e.event.actorId === agentId),
      `the signup's agent is in the feed: ${JSON.stringify(after.events.map((e) => [e.event.type, e.event.actorId]))}`,
    );
    // The worker folds the async projections too: their checkpoints reach the head.
    const asyncUntil = Date.now() + 20_000;
    for (;;) {
      const behind = await count(
        `SELECT count(*) AS n FROM projection_checkpoints WHERE seq < (SELECT max(seq) FROM event_sequence)`,
      );
      const folded = await count('SELECT count(*) AS n FROM projection_checkpoints');
      if (behind === 0 && folded > 0) break;
      assert.ok(Date.now() < asyncUntil, 'async projections caught up in the worker');
      await new Promise((r) => setTimeout(r, 100));
    }

    // A write while both run appears without further help.
    const second = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'roles2', password: 'correct horse battery' }),
    });
    assert.equal(second.status, 201);
    const { agentId: secondAgent } = (await second.json()) as { agentId: string };
    const until2 = Date.now() + 10_000;
    while (!(await feed()).events.some((e) => e.event.actorId === secondAgent)) {
      assert.ok(Date.now() < until2, 'the second write reached the feed');
      await new Promise((r) => setTimeout(r, 100));
    }

    worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
    assert.equal(await api.exited, 0, api.output());
  });

  test('given --role with a bad value, when started, then it exits 2 with one clear line and starts nothing', async () => {
    const bad = startProcess({ TRIBUTARY_DATA_DIR: dataDir, PORT: '0' }, { args: ['--role', 'web'] });
    assert.equal(await bad.exited, 2);
    assert.match(bad.stderr(), /tributary: --role must be one of all, api, worker, not "web"/);
    assert.doesNotMatch(bad.stdout(), /ready/);
  });

  test('given PROCESS_ROLE with a bad value, when started, then it exits 1 naming the variable', async () => {
    const bad = startProcess({ TRIBUTARY_DATA_DIR: dataDir, PORT: '0', PROCESS_ROLE: 'both' });
    assert.equal(await bad.exited, 1);
    assert.match(bad.stderr(), /tributary: configuration: PROCESS_ROLE: must be one of all, api, worker/);
  });
});
