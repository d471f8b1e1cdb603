// The federation-surface ports (query, entity-status, discover, manifests, peer mutations), wired once.
import { createFederationSurfaceReadModels } from '@tributary/projections';
import type { FederationSurfaceServices } from '@tributary/services';
import type { KeyObject } from 'node:crypto';
import type { Pool } from 'pg';
import type { Config } from '../config/config.js';
import { createDocumentSigner } from './document-signer.js';

export function composeFederationSurface(o: {
  pool: Pool;
  key: { privateKey: KeyObject; publicKey: KeyObject };
  config: Pick<Config, 'GLOBAL_URL' | 'MATRIX_HOMESERVER_URL' | 'MATRIX_SERVER'>;
}): FederationSurfaceServices {
  const { config } = o;
  const homeserverUrl = config.MATRIX_HOMESERVER_URL?.replace(/\/+$/, '');
  return {
    documents: createDocumentSigner(o.key),
    read: createFederationSurfaceReadModels(o.pool),
    globalUrl: config.GLOBAL_URL?.replace(/\/+$/, ''),
    matrix:
      homeserverUrl || config.MATRIX_SERVER
        ? { homeserverUrl, server: config.MATRIX_SERVER ?? (homeserverUrl && matrixServerOf(homeserverUrl)) }
        : undefined,
  };
}

/** The homeserver URL's host with its port, or 443 (the Matrix server-server default for delegation). */
function matrixServerOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'http:' ? 80 : 443)}`; // IPv6 hosts keep their brackets
}
