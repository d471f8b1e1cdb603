// The outbound side of peer mutations and entity-status probes: what this instance sends a peer, signed
// twice — the mutation envelope with our key (JCS + Ed25519, docs/federation.md), the request per
// RFC 9421 by the PeerClient. A refusal comes back as a DomainError carrying the peer's own code.
import { DomainError, type ErrorKind } from '@tributary/domain';
import type { PeerSurfaceClient, UrlGuard } from '@tributary/services';
import { randomBytes, randomUUID } from 'node:crypto';
import { createPeerClient } from './peer-client.js';

export interface PeerSurfaceClientOptions {
  /** This instance's id: the envelope's origin. */
  origin: string;
  /** Our key id, as peers registered it. */
  keyId: string;
  /** Ed25519 over raw bytes (the request signature base). */
  signRequest(data: Buffer): Uint8Array;
  /** base64url Ed25519 over the RFC 8785 form of a document (the mutation envelope without `sig`). */
  signDocument(document: Record<string, unknown>): string;
  now?: () => Date;
  urls?: UrlGuard;
  fetch?: typeof fetch;
}

const KIND_BY_STATUS: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
};

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const p = (body ?? {}) as { code?: string; title?: string };
    throw new DomainError(
      p.code ?? 'federation.peer_error',
      KIND_BY_STATUS[res.status] ?? 'unavailable',
      `peer answered ${res.status}: ${p.title ?? text.slice(0, 200)}`,
      { status: res.status },
    );
  }
  return body as T;
}

export function createPeerSurfaceClient(o: PeerSurfaceClientOptions): PeerSurfaceClient {
  const now = o.now ?? (() => new Date());
  const { post } = createPeerClient({
    signer: { keyId: o.keyId, sign: o.signRequest },
    now,
    ...(o.urls && { urls: o.urls }),
    ...(o.fetch && { fetch: o.fetch }),
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
      return answer(await post(baseUrl, '/api/federation/mutations', body));
    },
    async entityStatus(baseUrl, entities) {
      return answer(await post(baseUrl, '/api/federation/entity-status', JSON.stringify({ entities })));
    },
  };
}
