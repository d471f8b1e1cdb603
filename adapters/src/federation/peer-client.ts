// The outbound PeerClient: every request to a peer is signed per RFC 9421 with this instance's key
// (see http-signature.ts), with a fresh nonce and Content-Digest. Problems come back as DomainErrors
// carrying the peer's own code, so callers (sync loops, the CLI) can tell a retry from a refusal.
// Requests go through the outbound client (address policy on every connection, no redirects: a signed
// request is for the URL it signs, and a peer answering 3xx gets `outbound.redirect_refused`).
import {
  DomainError,
  IMPORT_MAX_EVENTS,
  isDomainError,
  type DomainErrorCode,
  type ErrorKind,
} from '@tributary/domain';
import type { PeerClient } from '@tributary/services';
import { randomBytes } from 'node:crypto';
import type { OutboundHttp, OutboundResponse } from '../outbound/index.js';
import { contentDigest, SIGNATURE_ALGORITHM, signatureHeaders } from './http-signature.js';

export interface RequestSigner {
  /** The key id peers registered for us (`ed25519:…`). */
  keyId: string;
  sign(data: Buffer): Uint8Array;
  /**
   * A previous key still in its overlap after a rotation (docs/operations.md#rotating-the-signing-key):
   * a request the peer refuses as signed by a key it does not know (401 `federation.unknown_peer`: it has
   * not heard of the new key yet) is sent once more, signed with this one.
   */
  previous?(): { keyId: string; sign(data: Buffer): Uint8Array } | undefined;
}

interface PeerClientOptions {
  signer: RequestSigner;
  outbound: OutboundHttp;
  now?: () => Date;
}

const KIND_BY_STATUS: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  413: 'too_large',
  429: 'rate_limited',
};

/** The body of a peer's 2xx answer; a refusal becomes a DomainError carrying the peer's own code. */
function peerAnswerText(res: OutboundResponse): string {
  const body = res.text();
  if (res.status < 200 || res.status > 299) {
    let p: { code?: string; title?: string } = {};
    try {
      p = (JSON.parse(body) ?? {}) as typeof p;
    } catch {
      /* not a problem document */
    }
    throw new DomainError(
      // A peer's own code is relayed as it answered it: a peer runs this software, whose codes are these
      // lists, though another version may answer one this version does not list.
      (p.code as DomainErrorCode | undefined) ?? 'federation.peer_error',
      KIND_BY_STATUS[res.status] ?? 'unavailable',
      `peer answered ${res.status}: ${p.title ?? body.slice(0, 200)}`,
      { remoteStatus: res.status, retryAfter: Number(res.header('retry-after')) || undefined },
    );
  }
  return body;
}

/** A peer's 2xx JSON answer, parsed; refusals as in `peerAnswerText`. */
export function peerAnswerJson<T>(res: OutboundResponse): T {
  const body = peerAnswerText(res);
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new DomainError('federation.peer_error', 'unavailable', 'the peer answered with invalid JSON');
  }
}

function problemCode(res: OutboundResponse): string | undefined {
  try {
    return (JSON.parse(res.text()) as { code?: string } | null)?.code;
  } catch {
    return undefined;
  }
}

interface SignedPost {
  (baseUrl: string, path: string, body: string): Promise<OutboundResponse>;
}

export function createPeerClient(o: PeerClientOptions): PeerClient & { post: SignedPost } {
  const now = o.now ?? (() => new Date());
  const send = async (url: string, body: string, signer: Pick<RequestSigner, 'keyId' | 'sign'>) => {
    const headers = signatureHeaders(
      { method: 'POST', targetUri: url, contentDigest: contentDigest(body) },
      {
        created: Math.floor(now().getTime() / 1000),
        nonce: randomBytes(16).toString('base64url'),
        keyid: signer.keyId,
        alg: SIGNATURE_ALGORITHM,
      },
      (base) => signer.sign(base),
    );
    return o.outbound.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      // Each federation POST is safe to repeat: imports keep an event once, the rest only read, and
      // the same signed request seen twice is refused as a replay.
      idempotent: true,
    });
  };
  const post: SignedPost = async (baseUrl, path, body) => {
    const url = new URL(path, `${baseUrl.replace(/\/+$/, '')}/`).href;
    try {
      const res = await send(url, body, o.signer);
      const previous = res.status === 401 ? o.signer.previous?.() : undefined;
      if (previous && problemCode(res) === 'federation.unknown_peer') return await send(url, body, previous);
      return res;
    } catch (e) {
      // A peer that cannot be reached keeps the code operators and the sync loop know.
      if (isDomainError(e) && e.code === 'outbound.unreachable')
        throw new DomainError(
          'federation.peer_unreachable',
          'unavailable',
          `${url}: ${String(e.details?.reason ?? e.message)}`,
        );
      throw e;
    }
  };
  return {
    post,
    async importEvents(baseUrl, eventTexts, range) {
      if (eventTexts.length > IMPORT_MAX_EVENTS)
        throw new Error(`at most ${IMPORT_MAX_EVENTS} events per batch`);
      // The batch's range of our feed rides in the query, which the signature covers (@target-uri).
      const path = range
        ? `/api/federation/events/import?after=${range.after}&through=${range.through}`
        : '/api/federation/events/import';
      // The events go as the exact texts we hold; only the frame around them is ours.
      return peerAnswerJson(await post(baseUrl, path, `{"events":[${eventTexts.join(',')}]}`));
    },
    async heldEvents(baseUrl, query) {
      return peerAnswerJson(await post(baseUrl, '/api/federation/events/held', JSON.stringify(query)));
    },
    async exportEventsText(baseUrl, query) {
      return peerAnswerText(await post(baseUrl, '/api/federation/events/export', JSON.stringify(query)));
    },
    async setRelayFollowing(baseUrl, following) {
      peerAnswerJson(await post(baseUrl, '/api/federation/relay/following', JSON.stringify(following)));
    },
    async exportEvents(baseUrl, query) {
      return peerAnswerJson(await post(baseUrl, '/api/federation/events/export', JSON.stringify(query)));
    },
  };
}
