// Backing up an instance under write load and restoring it into an empty database and data folder,
// through the real CLI, with a peer syncing both ways: the restored log verifies; the events A wrote
// after the backup (held by its peer B) come back at their own versions before A writes again; A and B
// resume from their cursors, and every event of either is on the other exactly once.
import {
  createTestDatabase,
  eventuallyWithin,
  runCli,
  startTestInstance,
  type TestInstance,
} from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startProcess } from '../e2e/start-helpers.js';
import {
  register,
  startNode,
  SYNC_ENV as BASE_SYNC_ENV,
  type Loose,
  type Node,
} from './federation-helpers.js';

const SYNC_ENV = { ...BASE_SYNC_ENV, FEDERATION_QUEUE: 'in-process' };

const eventually = eventuallyWithin(60_000);

/** How many times each event of `origin` is in `instance`'s log. */
async function copies(instance: TestInstance, origin: string): Promise<Map<string, number>> {
  const { rows } = await instance.instance.pool.query<{ id: string; n: string }>(
    'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
    [origin],
  );
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** The ids of `node`'s own public events (its feed). */
async function feedIds(url: string): Promise<string[]> {
  const ids: string[] = [];
  let since = 0;
  for (;;) {
    const r = (await (await fetch(`${url}/api/federation/events?since=${since}&limit=500`)).json()) as Loose;
    for (const e of r.events as Loose[]) ids.push(e.event.id as string);
    if (!r.hasMore) return ids;
    since = (r.events as Loose[]).at(-1)!.sequence as number;
  }
}

async function persona(node: { operator: Node['operator'] }, handle: string): Promise<void> {
  const r = await node.operator.post('/api/ops/svc.agent.create_persona', { name: handle, handle });
  assert.equal(r.status, 201, r.text);
}

describe('backup and restore with a syncing peer', () => {
  let a: Node;
  let b: Node;
  let restored: TestInstance | undefined;
  let fresh: { url: string; drop: () => Promise<void> } | undefined;
  let freshDir: string | undefined;
  let work: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startNode('group', 'Riverside', SYNC_ENV),
      startNode('person', 'Ada', SYNC_ENV),
    ]);
    await register(a, b);
    await register(b, a);
    work = await mkdtemp(join(tmpdir(), 'trib-backup-'));
  });
  afterAll(async () => {
    await restored?.destroy();
    if (!restored) {
      await fresh?.drop();
      if (freshDir) await rm(freshDir, { recursive: true, force: true });
    }
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('given A and B writing and syncing, when A is backed up under load, wiped and restored, then its log verifies, what it lost comes back from B, and both resume with every event once on each side', async () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      runCli(a.instance, args, { BASE_URL: a.url, INSTANCE_ROLE: 'group', ...env });
    const file = join(work, 'a.backup');
    const pass = join(work, 'pass');
    await writeFile(pass, 'correct horse battery staple backup\n');

    // Writes on both sides while the backup runs.
    let writing = true;
    let n = 0;
    const load = (async () => {
      while (writing) {
        n++;
        await Promise.all([persona(a, `a_load_${n}`), persona(b, `b_load_${n}`)]);
      }
    })();
    await eventually('a few writes before the backup', async () => n >= 3);
    // The blob store goes into the backup too: one blob larger than a chunk of the file, one empty.
    const media = randomBytes(200_000);
    const blobs = [
      await a.instance.instance.services.builder.blobs.put(media),
      await a.instance.instance.services.builder.blobs.put(new Uint8Array(0)),
    ];
    const backup = await cli(['backup', file, '--passphrase-file', pass]);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /backup written: .*, 2 blobs of 200000 bytes, encrypted\)/);
    // A keeps writing after the snapshot: those events are lost to A by the restore, but not to B.
    const stopAt = n + 3;
    await eventually('writes after the backup', async () => n >= stopAt);
    writing = false;
    await load;
    await persona(a, 'a_after_backup');

    // B holds all of A's feed, and A all of B's, before A goes away.
    const aFeed = await feedIds(a.url);
    const bFeed = await feedIds(b.url);
    await eventually('B to hold A’s feed', async () => {
      const held = await copies(b.instance, a.id);
      return aFeed.every((id) => held.has(id));
    });
    await eventually('A to hold B’s feed', async () => {
      const held = await copies(a.instance, b.id);
      return bFeed.every((id) => held.has(id));
    });

    // A restore never goes into a database that holds an instance.
    const intoLive = await cli(['restore', file, '--passphrase-file', pass]);
    assert.equal(intoLive.code, 1);
    assert.match(intoLive.stderr, /^tributary: .+ \(backup\.target_not_empty\)$/m);

    // Wipe: A stops; an empty database and an empty data folder take its place.
    await a.instance.stop();
    fresh = await createTestDatabase();
    freshDir = await mkdtemp(join(tmpdir(), 'trib-restored-'));
    const onFresh = { DATABASE_URL: fresh.url, TRIBUTARY_DATA_DIR: freshDir };
    const wrong = join(work, 'wrong');
    await writeFile(wrong, 'not the passphrase\n');
    const refused = await cli(['restore', file, '--passphrase-file', wrong], onFresh);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^tributary: .+ \(backup\.wrong_passphrase\)$/m);

    // B is down while A is restored: the data comes back, but what A lost cannot be asked for yet.
    await b.instance.stop();
    const restore = await cli(['restore', file, '--passphrase-file', pass], onFresh);
    assert.equal(restore.code, 1, restore.stderr + restore.stdout);
    assert.match(restore.stdout, new RegExp(`restored: instance ${a.id}: .*, 2 blobs`));
    for (const blob of blobs) {
      const path = join(freshDir, 'blobs', blob.sha256.slice(0, 2), blob.sha256.slice(2));
      assert.deepEqual(await readFile(path), blob.length === 0 ? Buffer.alloc(0) : media);
    }
    assert.deepEqual(
      (await readdir(join(freshDir, 'blobs'))).filter((n) => n.startsWith('.')),
      [],
      'nothing staged is left',
    );
    assert.match(restore.stderr, /^tributary: .+ \(backup\.recovery_incomplete\)$/m);
    // Until a recovery completes, the instance refuses to start: it would re-use versions B has seen.
    const port = new URL(a.url).port;
    const early = startProcess(
      { NODE_ENV: 'test', ...onFresh, PORT: port, BASE_URL: a.url, INSTANCE_ROLE: 'group' },
      { args: ['--role', 'all'] },
    );
    const runaway = setTimeout(() => early.child.kill('SIGKILL'), 120_000); // a start that is not refused
    assert.equal(await early.exited, 1, early.output());
    clearTimeout(runaway);
    assert.match(
      early.stderr(),
      /^tributary: this instance was restored from a backup .* run `tributary recover` until it completes, then start \(the last recover: could not ask .*\(backup\.recovery_pending\)$/m,
    );
    assert.doesNotMatch(early.stdout(), /is ready/);
    b = { ...b, instance: await b.instance.startAgain() };
    const recover = await cli(['recover'], onFresh);
    assert.equal(recover.code, 0, recover.stderr + recover.stdout);
    const recovered = Number(/recovered (\d+) events/.exec(recover.stdout)![1]);
    assert.ok(recovered > 0, 'the events written after the backup came back from B');
    const verify = await cli(['log', 'verify'], onFresh);
    assert.equal(verify.code, 0, verify.stderr);
    assert.match(verify.stdout, /log verify: OK/);

    // A starts again on the restored database and key, at its address; both resume.
    restored = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Riverside', ...SYNC_ENV, PORT: new URL(a.url).port },
      reuse: { databaseUrl: fresh.url, dataDir: freshDir, drop: fresh.drop },
    });
    assert.equal(restored.instance.instanceId, a.id);
    const ownNow = await copies(restored, a.id);
    assert.ok(
      aFeed.every((id) => ownNow.get(id) === 1),
      'every event A had put on its feed is back, once',
    );

    await persona(a, 'a_after_restore'); // the operator's session came back with the database
    await persona(b, 'b_after_restore');
    const aFeedNow = await feedIds(a.url);
    const bFeedNow = await feedIds(b.url);
    await eventually('B to hold all of A’s feed once', async () => {
      const held = await copies(b.instance, a.id);
      return aFeedNow.every((id) => held.get(id) === 1) && [...held.values()].every((c) => c === 1);
    });
    await eventually('A to hold all of B’s feed once', async () => {
      const held = await copies(restored!, b.id);
      return bFeedNow.every((id) => held.get(id) === 1) && [...held.values()].every((c) => c === 1);
    });
    // No version of A's streams was used twice: B saw no equivocation.
    const { rows } = await b.instance.instance.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM federation_equivocations',
    );
    assert.equal(Number(rows[0]!.n), 0);
    const verifyB = await runCli(b.instance, ['log', 'verify'], { BASE_URL: b.url, INSTANCE_ROLE: 'person' });
    assert.equal(verifyB.code, 0, verifyB.stderr);
  });
});
