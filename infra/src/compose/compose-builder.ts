// The site builder's ports. Each part of the builder fills its own here (blob store, DNS resolver,
// media processor, preview signer, …).
import type { BuilderPorts } from '@tributary/services';
import { join } from 'node:path';
import { FsBlobStore } from '../builder/fs-blob-store.js';
import type { Config } from '../config/config.js';

export function composeBuilder(o: { config: Config }): BuilderPorts {
  // Rendered versions and media, content-addressed under the data folder (docs/builder.md).
  return { blobs: new FsBlobStore(join(o.config.TRIBUTARY_DATA_DIR, 'blobs')) };
}
