// Seals envelopes with the instance key (ARCHITECTURE §6): Ed25519 over the UTF-8 bytes of the RFC 8785
// form of every field but `sig`. The KeyObject is created once and reused (the hot path of every write).
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { Envelope, UnsignedEnvelope } from '@tributary/domain';
import type { Signer } from '@tributary/services';
import { canonicalJson } from './canonical-json.js';
import { keyIdFor, publicKeyRaw } from './ed25519-keys.js';
import { signingTextOf } from './signing-text.js';

export interface EnvelopeSignerOptions {
  origin: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The exact bytes the signature covers: canonical JSON of the envelope without `sig`, as UTF-8 — taken
 * from the text it was parsed from when that text was canonical (see signing-text.ts).
 */
export function signingInput(unsigned: UnsignedEnvelope): Buffer {
  return Buffer.from(signingTextOf(unsigned) ?? canonicalJson(withoutSig(unsigned)), 'utf8');
}

/** Drops a `sig` member if one is present at run time, so re-sealing or verifying signs the same bytes. */
export function withoutSig(envelope: UnsignedEnvelope): UnsignedEnvelope {
  if (!Object.hasOwn(envelope, 'sig')) return envelope;
  const { sig: _sig, ...rest } = envelope as Envelope;
  return rest;
}

/**
 * The canonical text of the signed envelope, made from the unsigned one without canonicalizing twice:
 * keys sort as …, origin, sig, stream, streamVersion, type, v — so `sig` goes right before the last four
 * members, whose canonical form is known (JCS strings are JSON.stringify's for well-formed strings).
 */
function withSig(unsignedText: string, body: UnsignedEnvelope, sig: string): string {
  const tail = `,"stream":${JSON.stringify(body.stream)},"streamVersion":${body.streamVersion},"type":${JSON.stringify(body.type)},"v":${body.v}}`;
  if (!unsignedText.endsWith(tail)) return canonicalJson({ ...body, sig }); // an envelope with extra members
  return `${unsignedText.slice(0, -tail.length)},"sig":"${sig}"${tail}`;
}

/** From this many envelopes on, sealMany signs on the thread pool (measured: below it the hop costs more). */
const POOL_SIGNING_MIN = 8;

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
  const prepare = (unsigned: UnsignedEnvelope) => {
    // The envelope names who signed it; sealing under another name would never verify.
    if (unsigned.origin !== origin || unsigned.keyId !== keyId) {
      throw new Error(`seal: envelope origin/keyId must be ${origin}/${keyId}`);
    }
    const body = withoutSig(unsigned);
    return { body, unsignedText: canonicalJson(body) };
  };
  const finish = (body: UnsignedEnvelope, unsignedText: string, sig: string) => ({
    envelope: { ...body, sig } as Envelope,
    text: withSig(unsignedText, body, sig),
  });
  const seal = (unsigned: UnsignedEnvelope) => {
    const { body, unsignedText } = prepare(unsigned);
    return finish(
      body,
      unsignedText,
      sign(null, Buffer.from(unsignedText, 'utf8'), privateKey).toString('base64url'),
    );
  };
  return {
    origin,
    keyId,
    seal,
    async sealMany(unsigned) {
      // A hop to the thread pool costs more than one signature: small batches sign right here.
      if (unsigned.length < POOL_SIGNING_MIN) return unsigned.map(seal);
      return Promise.all(
        unsigned.map((u) => {
          const { body, unsignedText } = prepare(u);
          return new Promise<{ envelope: Envelope; text: string }>((resolve, reject) =>
            sign(null, Buffer.from(unsignedText, 'utf8'), privateKey, (err, signature) =>
              err ? reject(err) : resolve(finish(body, unsignedText, signature.toString('base64url'))),
            ),
          );
        }),
      );
    },
  };
}
