// A backup holds the log in the order it was written, whatever the table's physical order, and a restore
// that fails part-way through the file ends with its error instead of waiting for ever on the rest of it.
import { appendNewAgents, createTestDatabase, runCli, startTestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, test } from 'vitest';

const MAGIC = Buffer.from('TRIBBAK1'); // infra/src/backup/backup.ts: then 'P' and the gzipped lines

describe('backup order and a restore that fails part-way', () => {
  let a: Awaited<ReturnType<typeof startTestInstance>>;
  let work: string;
  const env = () => ({ BASE_URL: a.url, INSTANCE_ROLE: 'group' });
  beforeAll(async () => {
    a = await startTestInstance({ env: { INSTANCE_ROLE: 'group' } });
    work = await mkdtemp(join(tmpdir(), 'trib-backup-order-'));
  });
  afterAll(async () => {
    await a?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The lines of an unencrypted backup file. */
  const linesOf = async (file: string) => {
    const bytes = await readFile(file);
    assert.equal(String.fromCharCode(bytes[MAGIC.length]!), 'P');
    return gunzipSync(bytes.subarray(MAGIC.length + 1))
      .toString('utf8')
      .split('\n');
  };
  const eventsOf = (lines: string[]) => {
    const from = lines.indexOf('{"table":"events"}');
    const to = lines.indexOf('{"end":"events"}');
    return { from, to, rows: lines.slice(from + 1, to).map((l) => JSON.parse(l) as { position: number }) };
  };

  test('given events whose physical order is not the order they were written, when backed up, then the file holds them by position, and it restores', async () => {
    // An update that moves rows within the table changes its physical order (a new tuple per row at the
    // end): the first event of the log now lies after the others.
    const client = await a.instance.pool.connect();
    try {
      await client.query('ALTER TABLE events DISABLE TRIGGER USER');
      const moved = await client.query(
        'UPDATE events SET envelope = envelope WHERE position IN (SELECT position FROM events ORDER BY position LIMIT 1)',
      );
      assert.equal(moved.rowCount, 1);
    } finally {
      await client.query('ALTER TABLE events ENABLE TRIGGER USER');
      client.release();
    }
    const physical = await a.instance.pool.query<{ position: string }>(
      'SELECT position FROM events ORDER BY ctid',
    );
    const positions = physical.rows.map((r) => Number(r.position));
    assert.notDeepEqual(
      positions,
      [...positions].sort((x, y) => x - y),
      'the table is out of order',
    );
    const file = join(work, 'ordered.backup');
    const backup = await runCli(a, ['backup', file, '--unencrypted'], env());
    assert.equal(backup.code, 0, backup.stderr);
    const { rows } = eventsOf(await linesOf(file));
    assert.deepEqual(
      rows.map((r) => r.position),
      [...positions].sort((x, y) => x - y),
    );
    const fresh = await createTestDatabase();
    const freshDir = await mkdtemp(join(tmpdir(), 'trib-backup-order-restored-'));
    try {
      const restore = await runCli(a, ['restore', file], {
        ...env(),
        DATABASE_URL: fresh.url,
        TRIBUTARY_DATA_DIR: freshDir,
      });
      // No peers to recover from: restored, then recover reports nothing to ask.
      assert.match(restore.stdout, /restored: instance /, restore.stderr);
    } finally {
      await fresh.drop();
      await rm(freshDir, { recursive: true, force: true });
    }
  });

  test('given a backup with a row the log cannot take near the start of the file, when restored, then it ends with an error, nothing restored, instead of waiting for ever', async () => {
    // Larger than the reading pipeline's buffers, so most of the file is still unread when it fails.
    await appendNewAgents(a.instance.services, 3000, 'Filler');
    const file = join(work, 'broken.backup');
    assert.equal((await runCli(a, ['backup', file, '--unencrypted'], env())).code, 0);
    const lines = await linesOf(file);
    const { from } = eventsOf(lines);
    // The log's first row unreadable as a row of the log (its version not a number): the restore fails
    // there, with the rest of the file unread.
    const row = JSON.parse(lines[from + 1]!) as Record<string, unknown>;
    const broken = [...lines];
    broken[from + 1] = JSON.stringify({ ...row, stream_version: 'not a number' });
    await writeFile(file, Buffer.concat([MAGIC, Buffer.from('P'), gzipSync(broken.join('\n'))]));
    const fresh = await createTestDatabase();
    const freshDir = await mkdtemp(join(tmpdir(), 'trib-backup-order-broken-'));
    try {
      const started = Date.now();
      const restore = await runCli(a, ['restore', file], {
        ...env(),
        DATABASE_URL: fresh.url,
        TRIBUTARY_DATA_DIR: freshDir,
      });
      assert.equal(restore.code, 1, restore.stdout + restore.stderr);
      assert.match(restore.stderr, /^tributary: /m);
      assert.ok(Date.now() - started < 60_000);
      const { rows } = await a.instance.pool.query('SELECT 1'); // the instance itself is untouched
      assert.equal(rows.length, 1);
    } finally {
      await fresh.drop();
      await rm(freshDir, { recursive: true, force: true });
    }
  });
});
