// The peer principal (docs/architecture.md#principals): a request signed per RFC 9421 by a registered, unblocked peer
// key. Headers are checked first, so an unknown or blocked peer is refused before its body is read,
// let alone parsed. Nothing in a header or body naming a node, signer or actor counts: the key does.
import {
  CLOCK_SKEW_SECONDS,
  DomainError,
  forbidden,
  LruMap,
  unauthenticated,
  type CodeOfKind,
} from '@tributary/domain';
import { composedFor, federationComposed, type Services } from '@tributary/services';
import type { Request, RequestHandler, Response } from 'express';
import { createHash, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import { readSignatureHeaders, signatureBase } from './http-signature.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The exact body bytes of a peer-signed request, read (and digest-checked) by peerAuthentication. */
    rawBody?: Buffer;
  }
}

const badSignature = (message: string) => unauthenticated('federation.bad_signature', message);

interface PeerAuthOptions {
  services: Services;
  /** This instance's public base URL: the only `@target-uri` prefix a signature may cover. */
  baseUrl: string;
  /** Bodies above this are refused with 413 `tooLargeCode` before they are read in full. */
  maxBodyBytes: number;
  tooLargeCode?: CodeOfKind<'too_large'>;
}

/**
 * Parsed peer keys kept at once: the keys in use by this many peers are parsed once each; past it the
 * least recently used is parsed again when it next signs (microseconds), so memory stays bounded however
 * many peers and rotations there are (docs/scaling.md#a-thousand-peers).
 */
export const PEER_KEY_CACHE_MAX = 4096;

export function peerAuthentication(o: PeerAuthOptions): RequestHandler {
  const keys = new LruMap<string, KeyObject>(PEER_KEY_CACHE_MAX);
  const keyObject = (publicKey: string) =>
    keys.getOrSet(publicKey, () =>
      createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' }),
    );
  const tooLarge = () =>
    new DomainError(o.tooLargeCode ?? 'request.too_large', 'too_large', `at most ${o.maxBodyBytes} bytes`, {
      maxBytes: o.maxBodyBytes,
    });

  return async (req, res, next) => {
    const fed = composedFor(o.services, federationComposed).federation;
    const now = o.services.clock.now();
    // 1. The signature headers, and the key they name: before any byte of the body.
    const received = readSignatureHeaders(header(req, 'signature-input'), header(req, 'signature'));
    if (received === 'missing')
      throw unauthenticated(
        'federation.signature_required',
        'sign the request (RFC 9421, see docs/federation.md)',
      );
    if (received === 'malformed')
      throw badSignature('the Signature-Input or Signature field is not our profile');
    const { params } = received;
    const holder = await fed.read.peerByKeyId(params.keyid);
    if (!holder) throw unauthenticated('federation.unknown_peer', 'no registered peer holds that key');
    if (holder.peer.blocked) throw forbidden('federation.peer_blocked', 'that peer is blocked here');
    if (holder.key.revokedAfter && now.getTime() >= Date.parse(holder.key.revokedAfter))
      throw unauthenticated('federation.key_revoked', 'that key was revoked; sign with the current one');
    if (holder.key.validUntil && now.getTime() >= Date.parse(holder.key.validUntil))
      throw unauthenticated('federation.key_retired', 'that key was rotated out; sign with the current one');
    // 2. Fresh: created within the clock-skew window, and not expired.
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (Math.abs(nowSeconds - params.created) > CLOCK_SKEW_SECONDS)
      throw unauthenticated(
        'federation.stale_request',
        `created must be within ${CLOCK_SKEW_SECONDS} s of now`,
        {
          serverTime: nowSeconds,
        },
      );
    if (params.expires !== undefined && params.expires < nowSeconds)
      throw unauthenticated('federation.stale_request', 'the signature has expired', {
        serverTime: nowSeconds,
      });

    // 3. The body, bounded, then its digest, then the signature over method, target URI and digest.
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > o.maxBodyBytes) {
      res.setHeader('Connection', 'close');
      throw tooLarge();
    }
    const body = await readBody(req, res, o.maxBodyBytes, tooLarge);
    const digestField = header(req, 'content-digest');
    if (!digestField) throw badSignature('Content-Digest is required');
    if (!sameDigest(digestField, body))
      throw unauthenticated('federation.digest_mismatch', 'Content-Digest does not match the body');
    const targetUri = new URL(req.originalUrl, `${o.baseUrl}/`).href;
    const base = signatureBase({ method: req.method, targetUri, contentDigest: digestField }, received.list);
    if (!verify(null, Buffer.from(base, 'utf8'), keyObject(holder.key.publicKey), received.signature))
      throw badSignature('the request signature does not verify under the peer’s key');
    // 4. Once only: the nonce is remembered for as long as the request could still be fresh.
    const until = new Date((params.created + 2 * CLOCK_SKEW_SECONDS) * 1000);
    if (!(await fed.store.rememberRequestNonce(holder.peer.peerId, params.nonce, until)))
      throw unauthenticated('federation.replayed_request', 'that request was already received');

    req.principal = { kind: 'peer', peerId: holder.peer.peerId, agentId: holder.peer.agentId };
    req.rawBody = body;
    // A peer that speaks is up: sync towards it need not wait out its backoff.
    fed.peerSpoke?.(holder.peer.peerId);
    next();
  };
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The sha-256 member of a Content-Digest field (RFC 9530) equals the body's digest. */
function sameDigest(field: string, body: Buffer): boolean {
  let member;
  try {
    member = parseDictionary(field).get('sha-256');
  } catch {
    return false;
  }
  const value = member?.[0];
  if (!(value instanceof ArrayBuffer)) return false;
  const ours = createHash('sha256').update(body).digest();
  return value.byteLength === ours.length && timingSafeEqual(Buffer.from(value), ours);
}

/**
 * The body, at most `limit` bytes. Past the limit it stops reading and rejects with `tooLarge`; the
 * connection is marked to close after the answer, so the rest is never read. A client that goes away
 * mid-body rejects too. Nothing here destroys the socket: the 413 must still reach the client.
 */
function readBody(req: Request, res: Response, limit: number, tooLarge: () => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      res.setHeader('Connection', 'close');
      settle(() => reject(tooLarge()));
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onError = (err: Error) => settle(() => reject(aborted(err)));
    const onClose = () => settle(() => reject(aborted()));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

// Nobody reads this answer (the client is gone); the code names what happened for the access log.
const aborted = (cause?: Error) =>
  new DomainError('request.aborted', 'invalid', 'the request body did not arrive whole', {
    reason: cause?.message ?? 'closed',
  });
