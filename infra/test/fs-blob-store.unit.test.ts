// The builder's blob store on disk, in a temporary folder: content-addressed paths, the same bytes stored
// once, no temporary files left behind, damaged files refused, names that are not hashes never touch
// the file system, and what was stored is there for a new store over the same folder (a restart).
import { FsBlobStore } from '@tributary/infra';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let root: string;
beforeAll(async () => {
  root = join(await fs.mkdtemp(join(tmpdir(), 'tributary-blobs-')), 'blobs');
});
afterAll(async () => {
  await fs.rm(join(root, '..'), { recursive: true, force: true });
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every file under the folder, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('FsBlobStore', () => {
  it('stores bytes under <aa>/<rest of their SHA-256> and gives them back', async () => {
    const store = new FsBlobStore(root);
    const bytes = Buffer.from('<!doctype html><p>hello</p>');
    const put = await store.put(bytes);
    expect(put).toEqual({ sha256: sha(bytes), length: bytes.length });
    expect(await filesUnder(root)).toEqual([join(put.sha256.slice(0, 2), put.sha256.slice(2))]);
    expect(await store.has(put.sha256)).toBe(true);
    expect((await store.get(put.sha256))?.equals(bytes)).toBe(true);
  });

  it('stores the same bytes once, concurrent writers included, and leaves no temporary file', async () => {
    const store = new FsBlobStore(root);
    const bytes = Buffer.alloc(256 * 1024, 7);
    const before = await filesUnder(root);
    const puts = await Promise.all(Array.from({ length: 8 }, () => store.put(bytes)));
    expect(new Set(puts.map((p) => p.sha256)).size).toBe(1);
    const after = await filesUnder(root);
    expect(after.length).toBe(before.length + 1);
    expect(after.filter((f) => f.includes('.tmp-'))).toEqual([]);
    const file = join(root, puts[0]!.sha256.slice(0, 2), puts[0]!.sha256.slice(2));
    const mtime = (await fs.stat(file)).mtimeMs;
    await store.put(bytes);
    expect((await fs.stat(file)).mtimeMs).toBe(mtime);
  });

  it('stores an empty blob', async () => {
    const store = new FsBlobStore(root);
    const put = await store.put(new Uint8Array());
    expect(put.length).toBe(0);
    expect((await store.get(put.sha256))?.length).toBe(0);
  });

  it('answers absent for unknown hashes and for names that are not hashes, without touching a path', async () => {
    const store = new FsBlobStore(root);
    expect(await store.get('0'.repeat(64))).toBeUndefined();
    expect(await store.has('0'.repeat(64))).toBe(false);
    for (const name of [
      '../../etc/passwd',
      `${'a'.repeat(62)}/x`,
      'A'.repeat(64),
      '',
      `${'a'.repeat(64)}\0`,
    ]) {
      expect(await store.get(name)).toBeUndefined();
      expect(await store.has(name)).toBe(false);
    }
  });

  it('refuses to give back a file whose bytes no longer match its name', async () => {
    const store = new FsBlobStore(root);
    const put = await store.put(Buffer.from('original'));
    await fs.writeFile(join(root, put.sha256.slice(0, 2), put.sha256.slice(2)), 'tampered');
    await expect(store.get(put.sha256)).rejects.toThrow(/damaged/);
  });

  it('keeps what it stored for a new store over the same folder', async () => {
    const bytes = Buffer.from('survives a restart');
    const { sha256 } = await new FsBlobStore(root).put(bytes);
    expect((await new FsBlobStore(root).get(sha256))?.equals(bytes)).toBe(true);
  });
});
