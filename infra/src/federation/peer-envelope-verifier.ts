// The Verifier port: strict reading of envelopes from peers, and bulk Ed25519 verification. Bulk
// verification uses `crypto.verify` with a callback: each verify runs on libuv's thread pool, so a batch
// keeps every core busy while the event loop goes on parsing. (WebCrypto's `subtle.verify` does the same
// on the pool, but its per-call algorithm and argument normalization on the event loop cost more: measured
// here ≈ 25 % fewer verifications per second.)
import type { Verifier } from '@tributary/services';
import { verify, type KeyObject } from 'node:crypto';
import { publicKeyFromBase64url } from '../signing/ed25519-keys.js';
import { signingInput } from '../signing/envelope-signer.js';
import { splitEventBatch, splitExportPage } from '../signing/event-batch.js';
import { parseEnvelopeText } from '../signing/envelope-verifier.js';

const SIGNATURE_TEXT = /^[A-Za-z0-9_-]{86}$/;

export function createPeerEnvelopeVerifier(): Verifier {
  // One KeyObject per public key, for the life of the process; null for a key that is not one.
  const keys = new Map<string, KeyObject | null>();
  const keyFor = (publicKey: string) => {
    let key = keys.get(publicKey);
    if (key === undefined) {
      try {
        key = publicKeyFromBase64url(publicKey);
      } catch {
        key = null;
      }
      keys.set(publicKey, key);
    }
    return key;
  };
  return {
    splitBatch: splitEventBatch,
    splitExportPage,
    parseEnvelope: parseEnvelopeText,
    async verifyEnvelopes(items) {
      return Promise.all(
        items.map(({ envelope, publicKey }) => {
          const signature = decodeSignature(envelope.sig);
          const key = keyFor(publicKey);
          if (!signature || !key) return false;
          let input: Buffer;
          try {
            input = signingInput(envelope);
          } catch {
            return false; // e.g. a lone surrogate: RFC 8785 has no form for it, so nothing signed it
          }
          return new Promise<boolean>((resolve) => {
            try {
              verify(null, input, key, signature, (err, ok) => resolve(!err && ok));
            } catch {
              resolve(false);
            }
          });
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
