// The builder's content-addressed file store on disk: `<TRIBUTARY_DATA_DIR>/blobs/<aa>/<rest of hash>`.
// A path is only ever made from a hash this code computed or checked as 64 hex digits, never from a
// request. A blob is written to a temporary file beside its place, fsynced, then renamed into place (and
// the folder fsynced), so after a crash a blob is either whole or absent; the same bytes are stored once.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '@tributary/services';

const SHA256_HEX = /^[0-9a-f]{64}$/;

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** Flushes a folder's entries (the rename) to disk; some file systems refuse, which only costs durability. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // EINVAL/EISDIR on file systems that cannot sync a folder: the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}

export class FsBlobStore implements BlobStore {
  readonly root: string;

  /** `root` is the blobs folder itself: `<TRIBUTARY_DATA_DIR>/blobs`. */
  constructor(root: string) {
    this.root = root;
  }

  private pathOf(sha256: string): { dir: string; file: string } {
    if (!SHA256_HEX.test(sha256)) throw new TypeError('a blob is named by 64 lower-case hex digits');
    const dir = join(this.root, sha256.slice(0, 2));
    return { dir, file: join(dir, sha256.slice(2)) };
  }

  async put(bytes: Uint8Array): Promise<{ sha256: string; length: number }> {
    const sha256 = sha256Hex(bytes);
    const { dir, file } = this.pathOf(sha256);
    const length = bytes.byteLength;
    // Stored already (whole: only a finished rename puts a file there): nothing to write.
    const existing = await fs
      .stat(file)
      .catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)));
    if (existing?.isFile() && existing.size === length) return { sha256, length };
    await fs.mkdir(dir, { recursive: true });
    const temp = join(dir, `.tmp-${sha256.slice(2, 18)}-${randomBytes(8).toString('hex')}`);
    const handle = await fs.open(temp, 'wx', 0o644);
    try {
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // Two writers of the same bytes both rename; the second replaces identical content atomically.
      await fs.rename(temp, file);
    } catch (e) {
      await fs.rm(temp, { force: true });
      throw e;
    }
    await syncFolder(dir);
    return { sha256, length };
  }

  /** The bytes, checked against their name: a damaged file is an error, never served as the blob. */
  async get(sha256: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    const bytes = await fs
      .readFile(this.pathOf(sha256).file)
      .catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)));
    if (bytes === undefined) return undefined;
    if (sha256Hex(bytes) !== sha256)
      throw new Error(`blob ${sha256} is damaged on disk (its bytes hash otherwise)`);
    return bytes;
  }

  async has(sha256: string): Promise<boolean> {
    if (!SHA256_HEX.test(sha256)) return false;
    const stat = await fs
      .stat(this.pathOf(sha256).file)
      .catch((e: unknown) => (isMissing(e) ? undefined : Promise.reject(e)));
    return stat?.isFile() ?? false;
  }
}
