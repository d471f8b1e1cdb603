// The outbound PeerClient: every request to a peer is signed per RFC 9421 with this instance's key
// (see http-signature.ts), with a fresh nonce and Content-Digest. Problems come back as DomainErrors
// carrying the peer's own code, so callers (sync loops, the CLI) can tell a retry from a refusal.
import { DomainError, IMPORT_MAX_EVENTS, type ErrorKind } from '@tributary/domain';
import type { PeerClient, UrlGuard } from '@tributary/services';
import { randomBytes } from 'node:crypto';
import { contentDigest, SIGNATURE_ALGORITHM, signatureHeaders } from './http-signature.js';

export interface RequestSigner {
  /** The key id peers registered for us (`ed25519:…`). */
  keyId: string;
  sign(data: Buffer): Uint8Array;
}

export interface PeerClientOptions {
  signer: RequestSigner;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Re-checked before each call (a name can change what it resolves to after registration). */
  urls?: UrlGuard;
  timeoutMs?: number;
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

/** The body of a peer's 2xx answer; a refusal becomes a DomainError carrying the peer's own code. */
export async function peerAnswerText(res: Response): Promise<string> {
  const body = await res.text();
  if (!res.ok) {
    let p: { code?: string; title?: string } = {};
    try {
      p = (JSON.parse(body) ?? {}) as typeof p;
    } catch {
      /* not a problem document */
    }
    throw new DomainError(
      p.code ?? 'federation.peer_error',
      KIND_BY_STATUS[res.status] ?? 'unavailable',
      `peer answered ${res.status}: ${p.title ?? body.slice(0, 200)}`,
      { status: res.status, retryAfter: Number(res.headers.get('retry-after')) || undefined },
    );
  }
  return body;
}

/** A peer's 2xx JSON answer, parsed; refusals as in `peerAnswerText`. */
export async function peerAnswerJson<T>(res: Response): Promise<T> {
  const body = await peerAnswerText(res);
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new DomainError('federation.peer_error', 'unavailable', 'the peer answered with invalid JSON');
  }
}

export interface SignedPost {
  (baseUrl: string, path: string, body: string): Promise<Response>;
}

export function createPeerClient(o: PeerClientOptions): PeerClient & { post: SignedPost } {
  const doFetch = o.fetch ?? fetch;
  const now = o.now ?? (() => new Date());
  const post: SignedPost = async (baseUrl, path, body) => {
    const url = new URL(path, `${baseUrl.replace(/\/+$/, '')}/`).href;
    await o.urls?.checkPeerUrl(url);
    const headers = signatureHeaders(
      { method: 'POST', targetUri: url, contentDigest: contentDigest(body) },
      {
        created: Math.floor(now().getTime() / 1000),
        nonce: randomBytes(16).toString('base64url'),
        keyid: o.signer.keyId,
        alg: SIGNATURE_ALGORITHM,
      },
      (base) => o.signer.sign(base),
    );
    try {
      return await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
      });
    } catch (e) {
      // fetch hides the reason (refused, reset, timeout) in `cause`; the operator needs it.
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const reason =
        err.name === 'TimeoutError' ? 'timed out' : (err.cause?.code ?? err.cause?.message ?? err.message);
      throw new DomainError('federation.peer_unreachable', 'unavailable', `${url}: ${reason}`);
    }
  };
  return {
    post,
    async importEvents(baseUrl, eventTexts) {
      if (eventTexts.length > IMPORT_MAX_EVENTS)
        throw new Error(`at most ${IMPORT_MAX_EVENTS} events per batch`);
      // The events go as the exact texts we hold; only the frame around them is ours.
      return peerAnswerJson(
        await post(baseUrl, '/api/federation/events/import', `{"events":[${eventTexts.join(',')}]}`),
      );
    },
    async exportEventsText(baseUrl, query) {
      return peerAnswerText(await post(baseUrl, '/api/federation/events/export', JSON.stringify(query)));
    },
    async exportEvents(baseUrl, query) {
      return peerAnswerJson(await post(baseUrl, '/api/federation/events/export', JSON.stringify(query)));
    },
  };
}
