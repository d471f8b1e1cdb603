// The outbound side of peer mutations and entity-status probes: what this instance sends a peer, signed
// twice — the mutation envelope with our key (JCS + Ed25519, docs/federation.md), the request per
// RFC 9421 by the PeerClient. A refusal comes back as a DomainError carrying the peer's own code.
import type { PeerSurfaceClient } from '@tributary/services';
import { randomBytes, randomUUID } from 'node:crypto';
import type { OutboundHttp } from '../outbound/index.js';
import { createPeerClient, peerAnswerJson } from './peer-client.js';

interface PeerSurfaceClientOptions {
  /** This instance's id: the envelope's origin. */
  origin: string;
  /** Our key id, as peers registered it. */
  keyId: string;
  /** Ed25519 over raw bytes (the request signature base). */
  signRequest(data: Buffer): Uint8Array;
  /** base64url Ed25519 over the RFC 8785 form of a document (the mutation envelope without `sig`). */
  signDocument(document: Record<string, unknown>): string;
  now?: () => Date;
  /** The one outbound client (address policy on every connection, no redirects). */
  outbound: OutboundHttp;
}

export function createPeerSurfaceClient(o: PeerSurfaceClientOptions): PeerSurfaceClient {
  const now = o.now ?? (() => new Date());
  const { post } = createPeerClient({
    signer: {
      // Read at each request: the instance's key may rotate while it runs.
      get keyId() {
        return o.keyId;
      },
      sign: o.signRequest,
    },
    now,
    outbound: o.outbound,
  });
  return {
    async mutate(baseUrl, { operation, input }) {
      const unsigned = {
        v: 1,
        id: randomUUID(),
        origin: o.origin,
        keyId: o.keyId,
        operation,
        input,
        issuedAt: now().toISOString(),
        nonce: randomBytes(16).toString('base64url'),
      };
      const body = JSON.stringify({ ...unsigned, sig: o.signDocument(unsigned) });
      return peerAnswerJson(await post(baseUrl, '/api/federation/mutations', body));
    },
    async entityStatus(baseUrl, entities) {
      return peerAnswerJson(
        await post(baseUrl, '/api/federation/entity-status', JSON.stringify({ entities })),
      );
    },
  };
}
