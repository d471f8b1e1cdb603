// The federation-surface ports (query, entity-status, discover, manifests, peer mutations), wired once.
import { createPeerSurfaceClient, type OutboundHttp } from '@tributary/adapters';
import { createFederationSurfaceReadModels } from '@tributary/projections';
import type { Clock, FederationSurfaceServices } from '@tributary/services';
import type { KeyObject } from 'node:crypto';
import type { Pool } from 'pg';
import type { Config } from '../config/config.js';
import type { Ed25519Sign } from '../signing/ed25519-signing.js';
import { createDocumentSigner } from '../federation/document-signer.js';

export function composeFederationSurface(o: {
  pool: Pool;
  key: { privateKey: KeyObject; publicKey: KeyObject };
  /** The instance's signing function, for documents and requests. */
  sign: Ed25519Sign;
  /** This instance's id (the origin of the mutation envelopes it sends). */
  origin: string;
  clock: Clock;
  config: Pick<Config, 'GLOBAL_URL' | 'MATRIX_HOMESERVER_URL' | 'MATRIX_SERVER'>;
  /** The process's outbound client (address policy on every connection, no redirects). */
  outbound: OutboundHttp;
}): FederationSurfaceServices {
  const { config } = o;
  const documents = createDocumentSigner({ ...o.key, sign: o.sign });
  const homeserverUrl = config.MATRIX_HOMESERVER_URL?.replace(/\/+$/, '');
  return {
    documents,
    read: createFederationSurfaceReadModels(o.pool),
    globalUrl: config.GLOBAL_URL?.replace(/\/+$/, ''),
    matrix:
      homeserverUrl || config.MATRIX_SERVER
        ? { homeserverUrl, server: config.MATRIX_SERVER ?? (homeserverUrl && matrixServerOf(homeserverUrl)) }
        : undefined,
    client: createPeerSurfaceClient({
      origin: o.origin,
      keyId: documents.keyId,
      signRequest: o.sign,
      signDocument: (document) => documents.sign(document),
      now: () => o.clock.now(),
      outbound: o.outbound,
    }),
  };
}

/** The homeserver URL's host with its port, or 443 (the Matrix server-server default for delegation). */
function matrixServerOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'http:' ? 80 : 443)}`; // IPv6 hosts keep their brackets
}
