// The federation ports, wired once for the composition root.
import { createPeerClient, createUrlGuard, type OutboundHttp, type RequestSigner } from '@tributary/adapters';
import { createFederationReadModels } from '@tributary/projections';
import type { Clock, FederationServices, Signer } from '@tributary/services';
import type { Pool } from 'pg';
import type { PgEventStore } from '../postgres/pg-event-store.js';
import type { SigningLibraryChoice } from '../signing/ed25519-signing.js';
import { createPeerEnvelopeVerifier } from '../federation/peer-envelope-verifier.js';
import { peerKeyCodec } from '../federation/peer-key-codec.js';
import { createPgFederationStore } from '../federation/pg-federation-store.js';
import { createPgSyncCursors } from '../federation/pg-sync-cursors.js';
import { createOriginManifestSource } from '../federation/origin-manifests.js';

export function composeFederation(o: {
  pool: Pool;
  store: PgEventStore;
  clock: Clock;
  signer: Signer;
  /** Signs requests to peers with the instance's current key (and a previous one while it overlaps). */
  requestSigner: RequestSigner;
  /** Which Ed25519 library verifies peers' events (SIGNING_LIBRARY). */
  ed25519Library?: SigningLibraryChoice;
  /** The process's outbound client: its address policy checks peer URLs at registration and on every call. */
  outbound: OutboundHttp;
  onAppended?: () => void;
  /** A peer's signed request verified (after its cursors were brought forward). */
  onPeerSpoke?: (peerId: string) => void;
}): FederationServices {
  const urls = createUrlGuard(o.outbound);
  const now = () => o.clock.now();
  const cursors = createPgSyncCursors(o.pool);
  return {
    cursors,
    peerSpoke(peerId) {
      cursors
        .peerAnswered(peerId, now())
        .then(() => o.onPeerSpoke?.(peerId))
        .catch(() => undefined); // best effort: the sweep retries on its own schedule anyway
    },
    read: createFederationReadModels(o.pool),
    verifier: createPeerEnvelopeVerifier(o.ed25519Library),
    store: createPgFederationStore(o.pool, o.store, {
      now,
      ...(o.onAppended && { onAppended: o.onAppended }),
    }),
    keys: peerKeyCodec,
    urls,
    manifests: createOriginManifestSource(o.outbound, now),
    client: createPeerClient({
      signer: o.requestSigner,
      now,
      outbound: o.outbound,
    }),
  };
}
