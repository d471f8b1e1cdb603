// Seals envelopes with the instance key (docs/architecture.md#envelope): Ed25519 over the UTF-8 bytes of the RFC 8785
// form of every field but `sig`. The KeyObject is created once and reused (the hot path of every write).
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { Envelope, UnsignedEnvelope } from '@tributary/domain';
import type { Signer } from '@tributary/services';
import { canonicalJson, wellFormed } from './canonical-json.js';
import { keyIdFor, publicKeyRaw } from './ed25519-keys.js';
import { createEd25519Sign, type Ed25519Sign } from './ed25519-signing.js';
import { signingTextOf } from './signing-text.js';

interface EnvelopeSignerOptions {
  origin: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The signing function for `privateKey` (ed25519-signing.ts); by default the fastest that loads. */
  sign?: Ed25519Sign;
}

/**
 * The exact bytes the signature covers: canonical JSON of the envelope without `sig`, as UTF-8 — taken
 * from the text it was parsed from when that text was canonical (see signing-text.ts).
 */
export function signingInput(unsigned: UnsignedEnvelope): Buffer {
  return Buffer.from(signingTextOf(unsigned) ?? canonicalUnsignedText(withoutSig(unsigned)), 'utf8');
}

/** Drops a `sig` member if one is present at run time, so re-sealing or verifying signs the same bytes. */
export function withoutSig(envelope: UnsignedEnvelope): UnsignedEnvelope {
  if (!Object.hasOwn(envelope, 'sig')) return envelope;
  const { sig: _sig, ...rest } = envelope as Envelope;
  return rest;
}

/** An unsigned envelope's members in RFC 8785 order (UTF-16 code units: capitals before lower case). */
const UNSIGNED_MEMBERS = [
  'actorId',
  'data',
  'id',
  'keyId',
  'nonce',
  'occurredAt',
  'origin',
  'stream',
  'streamVersion',
  'type',
  'v',
] as const;

const isText = (value: unknown): value is string => typeof value === 'string' && wellFormed(value);

/**
 * The RFC 8785 text of an unsigned envelope. Ours always have exactly these members, of these types,
 * whose order is known: the text is written member by member (a JCS string is JSON.stringify's for a
 * well-formed string), and only `data` goes through the general canonicalizer, instead of sorting and
 * checking the whole object for every event. Anything else takes the general path.
 */
export function canonicalUnsignedText(body: UnsignedEnvelope): string {
  const e = body as unknown as Record<string, unknown>;
  const keys = Object.keys(e);
  if (
    keys.length !== UNSIGNED_MEMBERS.length ||
    !UNSIGNED_MEMBERS.every((k) => Object.hasOwn(e, k)) ||
    !isText(e.actorId) ||
    !isText(e.id) ||
    !isText(e.keyId) ||
    !isText(e.nonce) ||
    !isText(e.occurredAt) ||
    !isText(e.origin) ||
    !isText(e.stream) ||
    !Number.isSafeInteger(e.streamVersion) ||
    !isText(e.type) ||
    e.v !== 1
  )
    return canonicalJson(body);
  return (
    `{"actorId":${JSON.stringify(e.actorId)},"data":${canonicalJson(e.data)},"id":${JSON.stringify(e.id)}` +
    `,"keyId":${JSON.stringify(e.keyId)},"nonce":${JSON.stringify(e.nonce)}` +
    `,"occurredAt":${JSON.stringify(e.occurredAt)},"origin":${JSON.stringify(e.origin)}` +
    `,"stream":${JSON.stringify(e.stream)},"streamVersion":${e.streamVersion as number}` +
    `,"type":${JSON.stringify(e.type)},"v":1}`
  );
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

/**
 * With node:crypto, from this many envelopes on, sealMany signs on the thread pool (measured: below it
 * the hop costs more).
 */
const POOL_SIGNING_MIN = 8;
/** With libsodium, sealMany signs right here, giving the event loop a turn after every this many. */
const SIGNATURES_PER_TURN = 256;

export function createEnvelopeSigner(options: EnvelopeSignerOptions): Signer {
  const { origin, privateKey, publicKey } = options;
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('createEnvelopeSigner: privateKey must be an Ed25519 private KeyObject');
  }
  const raw = publicKeyRaw(publicKey);
  // A mismatched pair would sign envelopes that nobody can verify under the published key.
  if (!Buffer.from(publicKeyRaw(createPublicKey(privateKey))).equals(raw)) {
    throw new Error('createEnvelopeSigner: publicKey does not belong to privateKey');
  }
  const keyId = keyIdFor(raw);
  const signBytes = options.sign ?? createEd25519Sign(privateKey);
  const prepare = (unsigned: UnsignedEnvelope) => {
    // The envelope names who signed it; sealing under another name would never verify.
    if (unsigned.origin !== origin || unsigned.keyId !== keyId) {
      throw new Error(`seal: envelope origin/keyId must be ${origin}/${keyId}`);
    }
    const body = withoutSig(unsigned);
    return { body, unsignedText: canonicalUnsignedText(body) };
  };
  const finish = (body: UnsignedEnvelope, unsignedText: string, sig: string) => ({
    envelope: { ...body, sig } as Envelope,
    text: withSig(unsignedText, body, sig),
  });
  const seal = (unsigned: UnsignedEnvelope) => {
    const { body, unsignedText } = prepare(unsigned);
    return finish(body, unsignedText, signBytes(Buffer.from(unsignedText, 'utf8')).toString('base64url'));
  };
  return {
    origin,
    keyId,
    seal,
    async sealMany(unsigned) {
      // libsodium signs in about the time node:crypto takes on two pool threads, on one core: here.
      if (signBytes.library === 'libsodium') {
        const out: { envelope: Envelope; text: string }[] = [];
        for (let i = 0; i < unsigned.length; i += SIGNATURES_PER_TURN) {
          if (i > 0) await new Promise((resolve) => setImmediate(resolve));
          for (const u of unsigned.slice(i, i + SIGNATURES_PER_TURN)) out.push(seal(u));
        }
        return out;
      }
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
