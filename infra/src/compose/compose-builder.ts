// The site builder's ports. Each part of the builder fills its own here (blob store, DNS resolver,
// media processor, preview signer, …).
import type { BlobStore, BuilderPorts } from '@tributary/services';
import type { Config } from '../config/config.js';

/**
 * Until the file store of rendered versions and media is composed here (the publish part:
 * infra/src/builder/fs-blob-store.ts under TRIBUTARY_DATA_DIR/blobs), no operation stores a blob, and
 * one that tried would fail loudly rather than keep bytes nowhere.
 */
const noBlobStoreYet: BlobStore = {
  put: () => Promise.reject(new Error('no blob store is composed yet')),
  get: () => Promise.reject(new Error('no blob store is composed yet')),
  has: () => Promise.reject(new Error('no blob store is composed yet')),
};

export function composeBuilder(_o: { config: Config }): BuilderPorts {
  return { blobs: noBlobStoreYet };
}
