// A map that holds at most `max` entries, dropping the least recently used: for what a process keeps per
// peer or per key (parsed public keys), so that a thousand peers — or a relay's hundred thousand origins —
// cost a bounded amount of memory however long the process runs. Map keeps insertion order, so the
// oldest entry is the first; a hit moves its entry to the end.
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('an LruMap holds at least one entry');
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  /** The value for `key`, made by `make` (and kept) on a miss. */
  getOrSet(key: K, make: () => V): V {
    if (this.#entries.has(key)) return this.get(key) as V;
    const value = make();
    this.set(key, value);
    return value;
  }
}
