// The federation-surface ports (query, entity-status, discover, manifests, peer mutations), wired once.
import { createPeerSurfaceClient, type OutboundHttp } from '@tributary/adapters';
import { createFederationSurfaceReadModels } from '@tributary/projections';
import { USER_SEARCH_PER_MINUTE, type Clock, type FederationSurfacePorts } from '@tributary/services';
import type { Pool } from 'pg';
import type { Config } from '../config/config.js';
import type { RequestSigner } from '@tributary/adapters';
import { createRingDocumentSigner } from '../federation/document-signer.js';
import type { KeyRing } from '../signing/key-ring.js';
import { createPgWindowRate } from '../runtime/pg-window-rate.js';
import type { ReadQueryable } from '../postgres/read-replicas.js';

export function composeFederationSurface(o: {
  pool: Pool;
  /** The reads that tolerate lag (a hot standby's when one is fit to serve): the public documents'. */
  readPool?: ReadQueryable;
  /** The instance's keys: documents are signed with the current one (and previous ones on request). */
  ring: KeyRing;
  /** Signs requests to peers with the current key. */
  requestSigner: RequestSigner;
  /** This instance's id (the origin of the mutation envelopes it sends). */
  origin: string;
  clock: Clock;
  config: Pick<Config, 'GLOBAL_URL' | 'MATRIX_HOMESERVER_URL' | 'MATRIX_SERVER'>;
  /** The process's outbound client (address policy on every connection, no redirects). */
  outbound: OutboundHttp;
}): FederationSurfacePorts {
  const { config } = o;
  const documents = createRingDocumentSigner(o.ring);
  const homeserverUrl = config.MATRIX_HOMESERVER_URL?.replace(/\/+$/, '');
  const primary = createFederationSurfaceReadModels(o.pool);
  const lagTolerant = o.readPool ? createFederationSurfaceReadModels(o.readPool) : primary;
  return {
    documents,
    read: {
      ...primary,
      // What anyone may ask of the public surface (the keys in discovery and manifests, the public query,
      // entity status, discovery and user search) may be a moment behind: a standby answers it. A peer's
      // own record (its requests are checked against it right after it registers) and the mutation
      // nonces (a replay check) stay on the primary.
      instanceKeys: lagTolerant.instanceKeys,
      publicEvents: lagTolerant.publicEvents,
      entities: lagTolerant.entities,
      agentByHandle: lagTolerant.agentByHandle,
      agentIdByEmail: lagTolerant.agentIdByEmail,
      searchUsers: lagTolerant.searchUsers,
    },
    userSearchRate: createPgWindowRate(
      o.pool,
      { prefix: 'users-search:', count: USER_SEARCH_PER_MINUTE, windowSeconds: 60 },
      () => o.clock.now(),
    ),
    globalUrl: config.GLOBAL_URL?.replace(/\/+$/, ''),
    matrix:
      homeserverUrl || config.MATRIX_SERVER
        ? { homeserverUrl, server: config.MATRIX_SERVER ?? (homeserverUrl && matrixServerOf(homeserverUrl)) }
        : undefined,
    client: createPeerSurfaceClient({
      origin: o.origin,
      get keyId() {
        return documents.keyId;
      },
      signRequest: (data) => o.requestSigner.sign(data),
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
