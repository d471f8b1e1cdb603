// The Verifier port: strict reading of envelopes from peers, and bulk Ed25519 verification. Bulk
// verification gives OpenSSL's verdict at libsodium's cost (ed25519-verification.ts): libsodium checks
// each signature on the event loop, and only those it refuses go to node:crypto on libuv's thread pool.
// With SIGNING_LIBRARY=node-crypto (or no sodium-native binary), every one goes to the thread pool.
//
// A verdict asked to be remembered (a pull checking its next page ahead, docs/federation.md#pull) is kept
// on the envelope object itself, by identity, and only for an envelope that is deep-frozen (every one
// parsed from a peer's text is, with the exact bytes its signature covers): what was verified cannot
// change afterwards, so asking again about the same object and key has the same answer. Kept in a
// WeakMap, it goes when the envelope does: nothing accumulates however long a catch-up runs.
import { LruMap } from '@tributary/domain';
import type { Verifier } from '@tributary/services';
import { publicKeyFromBase64url, signatureBytes } from '../signing/ed25519-keys.js';
import type { SigningLibraryChoice } from '../signing/ed25519-signing.js';
import { createEd25519BulkVerify, type Ed25519PublicKey } from '../signing/ed25519-verification.js';
import { signingInput } from '../signing/envelope-signer.js';
import { splitEventBatch, splitExportPage } from '../signing/event-batch.js';
import { parseEnvelopeText } from '../signing/envelope-verifier.js';

/**
 * Parsed public keys kept at once. A relay verifies events of every origin it carries (a hundred
 * thousand, in docs/scaling.md's plan): the most recently used are kept, the others parsed again when
 * next needed, so memory stays bounded by this, not by the origins.
 */
export const ENVELOPE_KEY_CACHE_MAX = 10_000;

export function createPeerEnvelopeVerifier(
  library: SigningLibraryChoice = 'auto',
  o: { keyCacheMax?: number } = {},
): Verifier & { cachedKeys(): number } {
  const verifyAll = createEd25519BulkVerify(library);
  // One parsed key per public key text (null for a text that is not one), the least recently used dropped.
  const keys = new LruMap<string, Ed25519PublicKey | null>(o.keyCacheMax ?? ENVELOPE_KEY_CACHE_MAX);
  const keyFor = (publicKey: string) =>
    keys.getOrSet(publicKey, () => {
      try {
        return { object: publicKeyFromBase64url(publicKey), raw: Buffer.from(publicKey, 'base64url') };
      } catch {
        return null;
      }
    });
  /** Good signatures remembered: frozen envelope → the public keys it verified under. */
  const remembered = new WeakMap<object, Set<string>>();
  return {
    cachedKeys: () => keys.size,
    splitBatch: splitEventBatch,
    splitExportPage,
    parseEnvelope: parseEnvelopeText,
    async verifyEnvelopes(items, options) {
      const verdicts: boolean[] = Array.from({ length: items.length }, () => false);
      const checkable: number[] = [];
      const work = items.flatMap(({ envelope, publicKey }, i) => {
        if (remembered.get(envelope)?.has(publicKey)) {
          verdicts[i] = true;
          return [];
        }
        const signature = signatureBytes(envelope.sig);
        const key = keyFor(publicKey);
        if (!signature || !key) return [];
        let message: Buffer;
        try {
          message = signingInput(envelope);
        } catch {
          return []; // e.g. a lone surrogate: RFC 8785 has no form for it, so nothing signed it
        }
        checkable.push(i);
        return [{ message, signature, key }];
      });
      // Checked ahead, nobody waits on it yet: off the event loop, which the page committing needs.
      const results = await verifyAll(work, { offLoop: !!options?.remember });
      checkable.forEach((i, k) => (verdicts[i] = results[k]!));
      if (options?.remember)
        for (const i of checkable) {
          const { envelope, publicKey } = items[i]!;
          if (!verdicts[i] || !Object.isFrozen(envelope)) continue;
          const keys = remembered.get(envelope);
          if (keys) keys.add(publicKey);
          else remembered.set(envelope, new Set([publicKey]));
        }
      return verdicts;
    },
  };
}
