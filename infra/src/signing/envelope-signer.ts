// Seals envelopes with the instance key (ARCHITECTURE §6): Ed25519 over the UTF-8 bytes of the RFC 8785
// form of every field but `sig`. The KeyObject is created once and reused (the hot path of every write).
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { Envelope, UnsignedEnvelope } from '@tributary/domain';
import type { Signer } from '@tributary/services';
import { canonicalJson } from './canonical-json.js';
import { keyIdFor, publicKeyRaw } from './ed25519-keys.js';

export interface EnvelopeSignerOptions {
  origin: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** The exact bytes the signature covers: canonical JSON of the envelope without `sig`, as UTF-8. */
export function signingInput(unsigned: UnsignedEnvelope): Buffer {
  return Buffer.from(canonicalJson(withoutSig(unsigned)), 'utf8');
}

/** Drops a `sig` member if one is present at run time, so re-sealing or verifying signs the same bytes. */
export function withoutSig(envelope: UnsignedEnvelope): UnsignedEnvelope {
  if (!Object.hasOwn(envelope, 'sig')) return envelope;
  const { sig: _sig, ...rest } = envelope as Envelope;
  return rest;
}

export function createEnvelopeSigner({ origin, privateKey, publicKey }: EnvelopeSignerOptions): Signer {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('createEnvelopeSigner: privateKey must be an Ed25519 private KeyObject');
  }
  const raw = publicKeyRaw(publicKey);
  // A mismatched pair would sign envelopes that nobody can verify under the published key.
  if (!Buffer.from(publicKeyRaw(createPublicKey(privateKey))).equals(raw)) {
    throw new Error('createEnvelopeSigner: publicKey does not belong to privateKey');
  }
  const keyId = keyIdFor(raw);
  return {
    origin,
    keyId,
    seal(unsigned) {
      // The envelope names who signed it; sealing under another name would never verify.
      if (unsigned.origin !== origin || unsigned.keyId !== keyId) {
        throw new Error(`seal: envelope origin/keyId must be ${origin}/${keyId}`);
      }
      const body = withoutSig(unsigned);
      const sig = sign(null, signingInput(body), privateKey).toString('base64url');
      const envelope: Envelope = { ...body, sig };
      return { envelope, text: canonicalJson(envelope) };
    },
  };
}
