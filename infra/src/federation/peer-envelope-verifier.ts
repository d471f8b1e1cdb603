// The Verifier port: strict reading of envelopes from peers, and bulk Ed25519 verification. Bulk
// verification uses WebCrypto: each verify runs on libuv's thread pool, so a batch keeps every core
// busy while the event loop goes on parsing (measured here ≈ 2× one core's `crypto.verify` loop).
import type { Verifier } from '@tributary/services';
import { webcrypto } from 'node:crypto';
import { signingInput } from '../signing/envelope-signer.js';
import { splitEventBatch } from '../signing/event-batch.js';
import { parseEnvelopeText } from '../signing/envelope-verifier.js';

const SIGNATURE_TEXT = /^[A-Za-z0-9_-]{86}$/;

export function createPeerEnvelopeVerifier(): Verifier {
  // One imported CryptoKey per public key, for the life of the process.
  const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
  const keyFor = (publicKey: string) => {
    let key = keys.get(publicKey);
    if (!key) {
      key = webcrypto.subtle.importKey(
        'raw',
        Buffer.from(publicKey, 'base64url'),
        { name: 'Ed25519' },
        false,
        ['verify'],
      );
      keys.set(publicKey, key);
      key.catch(() => keys.delete(publicKey));
    }
    return key;
  };
  return {
    splitBatch: splitEventBatch,
    parseEnvelope: parseEnvelopeText,
    async verifyEnvelopes(items) {
      return Promise.all(
        items.map(async ({ envelope, publicKey }) => {
          const signature = decodeSignature(envelope.sig);
          if (!signature) return false;
          let input: Buffer;
          try {
            input = signingInput(envelope);
          } catch {
            return false; // e.g. a lone surrogate: RFC 8785 has no form for it, so nothing signed it
          }
          try {
            return await webcrypto.subtle.verify(
              { name: 'Ed25519' },
              await keyFor(publicKey),
              signature,
              input,
            );
          } catch {
            return false;
          }
        }),
      );
    },
  };
}

/** 64 bytes as unpadded base64url, in its one canonical spelling. */
function decodeSignature(sig: unknown): Buffer | null {
  if (typeof sig !== 'string' || !SIGNATURE_TEXT.test(sig)) return null;
  const bytes = Buffer.from(sig, 'base64url');
  return bytes.length === 64 && bytes.toString('base64url') === sig ? bytes : null;
}
