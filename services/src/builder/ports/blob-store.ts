/**
 * Content-addressed file storage for the builder (rendered versions, media): each distinct content is
 * stored once, under its SHA-256, in the data folder — never at a path taken from a request. A stored
 * blob is never changed or removed while a version or media item refers to it.
 */
export interface BlobStore {
  /** Stores the bytes (once per hash; writing the same bytes again is a no-op) and returns their hash. */
  put(bytes: Uint8Array): Promise<{ sha256: string; length: number }>;
  /** The bytes stored under this hash (lower-case hex), or undefined. */
  get(sha256: string): Promise<Buffer | undefined>;
  has(sha256: string): Promise<boolean>;
}
