// A bounded least-recently-used cache of file bytes by SHA-256, in front of the BlobStore. A Map keeps
// insertion order, so re-inserting on each hit makes its first key the least recently used.
import type { BlobStore } from '@tributary/services';

export class BlobCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  /** Loads in flight, so a burst of requests for a cold file reads it once. */
  private readonly loading = new Map<string, Promise<Buffer | undefined>>();
  hits = 0;
  misses = 0;

  /**
   * @param maxBytes the cache's size; files larger than an eighth of it are read from the store on
   *   every request rather than evicting everything else.
   */
  constructor(
    private readonly store: BlobStore,
    readonly maxBytes: number,
  ) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The bytes from memory when held (synchronously, for the hot path), else undefined. */
  peek(sha256: string): Buffer | undefined {
    const hit = this.entries.get(sha256);
    if (hit) {
      this.hits++;
      this.entries.delete(sha256);
      this.entries.set(sha256, hit);
    }
    return hit;
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    const hit = this.peek(sha256);
    if (hit) return hit;
    const pending = this.loading.get(sha256);
    if (pending) return pending;
    this.misses++;
    const load = this.store
      .get(sha256)
      .then((bytes) => {
        if (bytes) this.keep(sha256, bytes);
        return bytes;
      })
      .finally(() => this.loading.delete(sha256));
    this.loading.set(sha256, load);
    return load;
  }

  private keep(sha256: string, bytes: Buffer): void {
    if (bytes.length > this.maxBytes / 8 || this.entries.has(sha256)) return;
    this.entries.set(sha256, bytes);
    this.bytes += bytes.length;
    for (const [key, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= value.length;
    }
  }
}
