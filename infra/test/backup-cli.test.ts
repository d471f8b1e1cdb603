// `tributary backup` as an operator runs it: the file holds the instance's private keys, so it is
// encrypted unless the operator says otherwise (`--unencrypted`, with a warning), and a file already
// there is one clear error that leaves it as it was.
import { runCli, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';

const MAGIC = 'TRIBBAK1'; // infra/src/backup/backup.ts: then 'P' (plain) or 'E' (encrypted)

describe('tributary backup', () => {
  let instance: TestInstance;
  let work: string;
  const cli = (...args: string[]) => runCli(instance, args, { BASE_URL: instance.url });

  beforeAll(async () => {
    instance = await startTestInstance();
    work = await mkdtemp(join(tmpdir(), 'trib-backup-cli-'));
  });
  afterAll(async () => {
    await instance?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('given neither a passphrase file nor --unencrypted, when backing up, then exit 2 backup.encryption_required and no file is written', async () => {
    const file = join(work, 'refused.backup');
    const r = await cli('backup', file);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^tributary: .+ \(backup\.encryption_required\)$/m);
    assert.equal(existsSync(file), false);
    assert.deepEqual(await readdir(work), []);
  });

  test('given --unencrypted, when backing up, then a plain backup is written and a warning says it holds the keys in clear', async () => {
    const file = join(work, 'plain.backup');
    const r = await cli('backup', file, '--unencrypted');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^tributary: warning: /);
    assert.match(r.stdout, /^backup written: /);
    const bytes = await readFile(file);
    assert.equal(bytes.subarray(0, MAGIC.length + 1).toString('latin1'), `${MAGIC}P`);
  });

  test('given a passphrase file, when backing up, then an encrypted backup is written without a warning', async () => {
    const pass = join(work, 'pass');
    await writeFile(pass, 'a long passphrase for the test\n');
    const file = join(work, 'sealed.backup');
    const r = await cli('backup', file, '--passphrase-file', pass);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const bytes = await readFile(file);
    assert.equal(bytes.subarray(0, MAGIC.length + 1).toString('latin1'), `${MAGIC}E`);
  });

  test('given both --unencrypted and a passphrase file, when backing up, then exit 2 and no file is written', async () => {
    const pass = join(work, 'pass');
    await writeFile(pass, 'a long passphrase for the test\n');
    const file = join(work, 'both.backup');
    const r = await cli('backup', file, '--unencrypted', '--passphrase-file', pass);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^tributary: /);
    assert.equal(existsSync(file), false);
  });

  test('given a file that exists, when backing up to it, then exit 1 backup.file_exists in one line, and the file is unchanged', async () => {
    const file = join(work, 'taken.backup');
    await writeFile(file, 'something precious\n');
    for (const options of [['--unencrypted'], ['--passphrase-file', join(work, 'pass')]]) {
      const r = await cli('backup', file, ...options);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /^tributary: .+ \(backup\.file_exists\)$/m);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.equal(await readFile(file, 'utf8'), 'something precious\n');
    }
  });
});
