// Reads from a PostgreSQL hot standby (DATABASE_READ_URL, docs/operations.md#read-replicas): a primary
// and a standby built here from the binaries at hand (test/src/harness/hot-standby.ts), an instance
// writing to the primary and serving its feed from the standby. Under write load, followers tailing the
// feed never miss an event and never see one before its predecessors; with the standby stopped mid-load
// their reads go on, answered by the primary; restarted, it serves again; its lag is in /metrics.
import {
  browser,
  eventually,
  startHotStandbyPair,
  startTestInstance,
  type HotStandbyPair,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';

interface FeedPage {
  events: { sequence: number; event: { id: string } }[];
  head: number;
  hasMore: boolean;
}

/** The value of one sample of /metrics (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{([^}]*)\})? (\S+)$/i.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('the feed and public reads from a hot standby', () => {
  let pair: HotStandbyPair;
  let instance: TestInstance;
  let dataDir: string;
  let replica: string;

  beforeAll(async () => {
    pair = await startHotStandbyPair();
    dataDir = await mkdtemp(join(tmpdir(), 'trib-replica-instance-'));
    instance = await startTestInstance({
      reuse: { databaseUrl: pair.primaryUrl, dataDir, drop: async () => undefined },
      env: {
        INSTANCE_NAME: 'Replicated',
        // Two followers polling every few ms from one address are far above the public feed's 600/min.
        RATE_LIMIT_FEED: '1000000/min',
        DATABASE_READ_URL: pair.standbyUrl,
        DATABASE_REPLICA_CHECK_MS: '200',
        DATABASE_REPLICA_MAX_LAG_MS: '5000',
      },
    });
    replica = instance.instance.readPool.replicas[0]!.label;
  });
  afterAll(async () => {
    await instance?.stop().catch(() => undefined);
    await pair?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const metrics = async () => (await fetch(`${instance.url}/metrics`)).text();

  test('given the standby, then it is in recovery, takes snapshots, and refuses the sequencer: the feed read there needs no write', async () => {
    const standby = new pg.Client({ connectionString: pair.standbyUrl });
    await standby.connect();
    try {
      // The migrations reach it by replay.
      await eventually('the schema replayed on the standby', async () => {
        const { rows } = await standby.query<{ t: string | null }>(
          `SELECT to_regclass('public.event_sequence')::text AS t`,
        );
        return rows[0]!.t !== null;
      });
      assert.equal((await standby.query('SELECT pg_is_in_recovery() AS r')).rows[0].r, true);
      // The sequencer's horizon can be read on a standby (it runs on the primary only, writing)…
      const xmin = await standby.query<{ x: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x',
      );
      assert.match(xmin.rows[0]!.x, /^\d+$/);
      // …but numbering is a write: refused there as read-only (25006).
      await assert.rejects(standby.query('SELECT tributary_sequence_events()'), { code: '25006' });
    } finally {
      await standby.end();
    }
    await eventually(
      'the standby in use',
      async () => sample(await metrics(), 'tributary_database_replica_up', { replica }) === 1,
    );
    process.stdout.write(`standby made by ${pair.madeBy} from ${pair.binDir}\n`);
  });

  test('given writers on the primary and followers on the standby, when the standby stops and starts mid-load, then no follower errs, skips or reorders, and all catch up', async () => {
    const writers = await Promise.all(
      [0, 1, 2].map(async (w) => {
        const b = browser(instance.url);
        const r = await b.post('/api/auth/signup', {
          handle: `writer_${w}`,
          password: 'replica test password 1',
        });
        assert.equal(r.status, 201, r.text);
        return b;
      }),
    );
    let writing = true;
    const written: number[] = [0, 0, 0];
    const writeFailures: string[] = [];
    const writeLoops = writers.map(async (b, w) => {
      for (let i = 0; writing; i++) {
        const r = await b.post('/api/ops/svc.agent.create_persona', {
          name: `P ${w}.${i}`,
          handle: `p${w}_${i}`,
        });
        if (r.status === 201) written[w]!++;
        else writeFailures.push(`${r.status} ${r.text}`);
      }
    });

    // Followers: each page after its cursor; a complete page (no more) moves the cursor to the head it
    // was read with, as a peer's pull does, so a head read apart from its rows would show as a skip.
    let following = true;
    const readFailures: string[] = [];
    const followers = [0, 1].map(() => ({
      seen: [] as { sequence: number; id: string }[],
      cursor: 0,
      pages: 0,
    }));
    const followLoops = followers.map(async (f) => {
      while (following) {
        const res = await fetch(`${instance.url}/api/federation/events?since=${f.cursor}&limit=40`);
        const text = await res.text();
        if (res.status !== 200) {
          readFailures.push(`${res.status} ${text}`);
          continue;
        }
        const page = JSON.parse(text) as FeedPage;
        f.pages++;
        for (const e of page.events) {
          const last = f.seen.at(-1)?.sequence ?? 0;
          assert.ok(e.sequence > last && e.sequence > f.cursor, `out of order: ${e.sequence} after ${last}`);
          f.seen.push({ sequence: e.sequence, id: e.event.id });
        }
        f.cursor = page.hasMore ? page.events.at(-1)!.sequence : Math.max(f.cursor, page.head);
        if (!page.hasMore) await new Promise((r) => setTimeout(r, 5));
      }
    });

    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // The lag under this load, as /metrics reports it (for docs/scaling.md; asserted only to be there).
    const lags: { seconds: number; bytes: number }[] = [];
    const lagSampling = (async () => {
      while (writing) {
        const m = await metrics();
        const seconds = sample(m, 'tributary_database_replica_lag_seconds', { replica });
        const bytes = sample(m, 'tributary_database_replica_lag_bytes', { replica });
        if (seconds !== undefined && bytes !== undefined) lags.push({ seconds, bytes });
        await pause(250);
      }
    })();
    // Whatever fails below, the loops stop and the standby runs again: the next test needs it, and
    // loops left running would hit the instance after it stops.
    let standbyStopped = false;
    try {
      await pause(3000);
      // Served pages and both lag gauges, however long a loaded machine takes to show them.
      const beforeStop = await eventually(
        'the standby served feed pages',
        async () => {
          const m = await metrics();
          const served = sample(m, 'tributary_database_replica_reads_total', { replica, outcome: 'served' });
          return (served ?? 0) > 0 && m;
        },
        60_000,
      );
      assert.ok((sample(beforeStop, 'tributary_database_replica_lag_seconds', { replica }) ?? -1) >= 0);
      assert.ok((sample(beforeStop, 'tributary_database_replica_lag_bytes', { replica }) ?? -1) >= 0);

      await pair.stopStandby();
      standbyStopped = true;
      await eventually('the stopped standby skipped', async () => {
        const m = await metrics();
        return (
          sample(m, 'tributary_database_replica_up', { replica }) === 0 &&
          sample(m, 'tributary_database_replica_lag_seconds', { replica }) === undefined
        );
      });
      const pagesWhileDown = followers.map((f) => f.pages);
      // Bounded, not timed: on a loaded machine a page can take a while, and any pace shows the point.
      await eventually(
        'followers kept reading from the primary',
        async () => followers.every((f, i) => f.pages > pagesWhileDown[i]! + 5),
        60_000,
      );

      await pair.startStandby();
      standbyStopped = false;
      await eventually(
        'the restarted standby in use again',
        async () => sample(await metrics(), 'tributary_database_replica_up', { replica }) === 1,
        30_000,
      );
      const servedAfterRestart =
        sample(await metrics(), 'tributary_database_replica_reads_total', { replica, outcome: 'served' }) ??
        0;
      await pause(2000);

      writing = false;
      await Promise.all([...writeLoops, lagSampling]);
      assert.ok(lags.length > 5);
      await instance.instance.sequencer.drain();
      // The primary's whole feed, read there.
      const all: { sequence: number; id: string }[] = [];
      for (let since = 0; ;) {
        const { rows, head } = await instance.instance.services.store.readFeedPage({ since, limit: 1000 });
        for (const r of rows)
          all.push({ sequence: r.sequence, id: (JSON.parse(r.text) as { id: string }).id });
        if (rows.length < 1000) {
          assert.ok(all.length === 0 || head >= all.at(-1)!.sequence);
          break;
        }
        since = rows.at(-1)!.sequence;
      }
      const finalHead = (await instance.instance.services.store.readFeedPage({ since: 0, limit: 1 })).head;
      await eventually(
        'every follower at the head',
        async () => followers.every((f) => f.cursor >= finalHead),
        30_000,
      );
      following = false;
      await Promise.all(followLoops);

      assert.deepEqual(writeFailures, []);
      assert.deepEqual(readFailures, []);
      const personas = written.reduce((a, b) => a + b, 0);
      assert.ok(personas >= 20, `only ${personas} personas written`);
      for (const f of followers) assert.deepEqual(f.seen, all);
      const after = await metrics();
      assert.ok(
        (sample(after, 'tributary_database_replica_reads_total', { replica, outcome: 'served' }) ?? 0) >
          servedAfterRestart,
        'the restarted standby served again',
      );
      await eventually(
        'the standby caught up',
        async () => sample(await metrics(), 'tributary_database_replica_lag_bytes', { replica }) === 0,
      );
      process.stdout.write(
        `${personas} personas written, ${all.length} feed events, follower pages ${followers.map((f) => f.pages).join('/')}, ` +
          `standby reads ${sample(after, 'tributary_database_replica_reads_total', { replica, outcome: 'served' })} served, ` +
          `${sample(after, 'tributary_database_replica_reads_total', { replica, outcome: 'fell_back' })} fell back; ` +
          `lag under load over ${lags.length} scrapes: max ${Math.max(...lags.map((l) => l.seconds))} s, ` +
          `${Math.max(...lags.map((l) => l.bytes))} bytes\n`,
      );
    } finally {
      writing = false;
      following = false;
      await Promise.allSettled([...writeLoops, ...followLoops, lagSampling]);
      if (standbyStopped) await pair.startStandby();
    }
  });

  test('given the standby, then the public documents are read there, and with it stopped the primary answers them the same', async () => {
    await eventually(
      'the standby in use',
      async () => sample(await metrics(), 'tributary_database_replica_up', { replica }) === 1,
      30_000,
    );
    const served = async () =>
      sample(await metrics(), 'tributary_database_replica_reads_total', { replica, outcome: 'served' }) ?? 0;
    const keysOf = async () => {
      const res = await fetch(`${instance.url}/api/federation/manifest`);
      assert.equal(res.status, 200);
      return ((await res.json()) as { keys: unknown }).keys;
    };
    const before = await served();
    const fromStandby = await keysOf();
    assert.ok((await served()) > before, 'the manifest keys were read on the standby');
    assert.ok(Array.isArray(fromStandby) && fromStandby.length > 0);
    await pair.stopStandby();
    // Before any check has noticed, and after: the primary answers, with the same keys.
    assert.deepEqual(await keysOf(), fromStandby);
    await eventually(
      'the stopped standby skipped',
      async () => sample(await metrics(), 'tributary_database_replica_up', { replica }) === 0,
    );
    const whileDown = await served();
    assert.deepEqual(await keysOf(), fromStandby);
    assert.equal(await served(), whileDown);
  });
});
