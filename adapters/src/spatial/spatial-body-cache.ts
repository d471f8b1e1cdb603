// The serialized bodies of GET /wow/spatial/<id> (docs/spatial.md#caching). A graph is the large
// document (a 1,000-node graph is ~300 kB of JSON): it is read and serialized once, then served as bytes.
// A body older than SPATIAL_BODY_CHECK_MS is still served while one background check per graph asks the
// read model whether its world changed (a one-row lookup), replacing the body when it did and dropping
// it when the graph is no longer public. Readers never wait on a check, so an edit shows within about
// that interval plus one check.
export const SPATIAL_BODY_CHECK_MS = 1000;
const MAX_ENTRIES = 256;

export interface SpatialBody {
  body: Buffer;
  etag: string;
}

interface Entry extends SpatialBody {
  updatedAt: string;
  checkedAt: number;
  checking: boolean;
}

export interface SpatialBodySource {
  /** The document's text and the time of the change it reflects (throws the route's errors). */
  load(id: string): Promise<{ text: string; revision: number; updatedAt: string }>;
  /** When the graph last changed, or null when it is no longer served. */
  version(id: string): Promise<string | null>;
}

export function createSpatialBodyCache(source: SpatialBodySource, now = () => performance.now()) {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();

  const load = (id: string): Promise<Entry> => {
    const pending = loading.get(id);
    if (pending) return pending;
    const p = source
      .load(id)
      .then((doc) => {
        const entry: Entry = {
          body: Buffer.from(doc.text),
          etag: `"${id}-${doc.revision}-${Date.parse(doc.updatedAt)}"`,
          updatedAt: doc.updatedAt,
          checkedAt: now(),
          checking: false,
        };
        entries.delete(id);
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(id, entry);
        return entry;
      })
      .finally(() => loading.delete(id));
    loading.set(id, p);
    return p;
  };

  const check = (id: string, entry: Entry) => {
    entry.checking = true;
    source
      .version(id)
      .then(async (updatedAt) => {
        if (updatedAt === null) entries.delete(id);
        else if (updatedAt !== entry.updatedAt) await load(id);
        else entry.checkedAt = now();
      })
      // A failed check leaves the body as it was; the next request after the interval checks again.
      .catch(() => undefined)
      .finally(() => {
        entry.checking = false;
      });
  };

  return {
    /** The body as cached (checked in the background when due), or loaded now. */
    async get(id: string): Promise<SpatialBody> {
      const entry = entries.get(id);
      if (!entry) return load(id);
      if (!entry.checking && now() - entry.checkedAt >= SPATIAL_BODY_CHECK_MS) check(id, entry);
      return entry;
    },
    /** The body when cached, without any I/O (the fast path's question). */
    peek(id: string): SpatialBody | undefined {
      const entry = entries.get(id);
      if (entry && !entry.checking && now() - entry.checkedAt >= SPATIAL_BODY_CHECK_MS) check(id, entry);
      return entry;
    },
  };
}
export type SpatialBodyCache = ReturnType<typeof createSpatialBodyCache>;
