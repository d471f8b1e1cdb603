// Verifies envelopes on the bytes as received (docs/architecture.md#envelope): strict parse (no duplicate keys, only
// canonical numbers), shape check, key lookup, then Ed25519 over the RFC 8785 form of all but `sig`.
// The text itself need not be canonical: the signature covers the canonical form of what it says.
import { verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { DomainError, envelopeSchema, type Envelope } from '@tributary/domain';
import { signatureBytes } from './ed25519-keys.js';
import { parseStrictJsonForm } from './strict-json.js';
import { rememberSigningText, withoutMember } from './signing-text.js';
import { signingInput } from './envelope-signer.js';

type KeyLookup = (origin: string, keyId: string) => KeyObject | undefined;

// `sig` only has to be a string here: a badly formed signature is reported as envelope.bad_signature
// by decodeSignature below rather than as a shape error.
const shapeSchema = envelopeSchema.extend({ sig: z.string() });

/** Parses, shape-checks and verifies an envelope's text; returns the parsed envelope. */
export function verifyEnvelopeText(text: string, keyFor: KeyLookup): Envelope {
  const prepared = prepareEnvelopeVerification(text, keyFor);
  if (!verify(null, prepared.input, prepared.key, prepared.signature)) throw badSignature();
  return prepared.envelope;
}

/**
 * Strict parse (no duplicate keys, canonical numbers only) and shape check; the returned object is the
 * strict parser's own, not zod's copy: exactly what the bytes say. When the text is canonical, the
 * envelope comes back frozen with its signing input attached (signing-text.ts).
 */
export function parseEnvelopeText(text: string): Envelope {
  const form = parseStrictJsonForm(text, 'sig');
  const parsed = form.value;
  const shape = shapeSchema.safeParse(parsed);
  if (!shape.success) {
    const issues = shape.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new DomainError(
      'envelope.malformed',
      'invalid',
      `envelope does not have the expected shape: ${issues}`,
    );
  }
  // A canonical text already holds the signing input: itself without `sig`.
  if (form.canonical && form.member)
    rememberSigningText(parsed as Envelope, withoutMember(text, form.member));
  return parsed as Envelope;
}

/** Everything verification needs, checked but for the signature itself. */
interface PreparedVerification {
  envelope: Envelope;
  key: KeyObject;
  input: Buffer;
  signature: Buffer;
}

/**
 * Parse, shape, key and canonical bytes — every check but the Ed25519 one, which bulk callers (the
 * auditor's replay, imports) run with `verifyPreparedAsync` on the thread pool while the next event
 * is prepared here.
 */
export function prepareEnvelopeVerification(text: string, keyFor: KeyLookup): PreparedVerification {
  const envelope = parseEnvelopeText(text);
  const key = keyFor(envelope.origin, envelope.keyId);
  if (!key) {
    throw new DomainError(
      'envelope.unknown_key',
      'invalid',
      `no key ${envelope.keyId} known for ${envelope.origin}`,
      {
        origin: envelope.origin,
        keyId: envelope.keyId,
      },
    );
  }
  return { envelope, key, ...signedParts(envelope, key) };
}

/** Ed25519 verification on libuv's thread pool (both cores), for prepared envelopes. */
export function verifyPreparedAsync(p: PreparedVerification): Promise<boolean> {
  return new Promise((resolve, reject) =>
    verify(null, p.input, p.key, p.signature, (err, ok) => (err ? reject(err) : resolve(ok))),
  );
}

const badSignature = () =>
  new DomainError('envelope.bad_signature', 'invalid', 'envelope signature does not verify');

/** Verifies the signature of an already parsed envelope under `key`; throws a DomainError if it fails. */
export function verifyEnvelope(envelope: Envelope, key: KeyObject): void {
  const { input, signature } = signedParts(envelope, key);
  if (!verify(null, input, key, signature)) throw badSignature();
}

function signedParts(envelope: Envelope, key: KeyObject): { input: Buffer; signature: Buffer } {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new TypeError('verifyEnvelope: expected an Ed25519 KeyObject');
  const signature = decodeSignature(envelope.sig);
  let input: Buffer;
  try {
    input = signingInput(envelope);
  } catch (error) {
    // E.g. a lone surrogate: RFC 8785 has no canonical form for it, so nothing can have signed it.
    throw new DomainError(
      'envelope.malformed',
      'invalid',
      `envelope cannot be canonicalized: ${(error as Error).message}`,
    );
  }
  return { input, signature };
}

/** The signature's 64 bytes; envelope.bad_signature unless it is their canonical base64url text. */
function decodeSignature(sig: unknown): Buffer {
  const bytes = signatureBytes(sig);
  if (bytes) return bytes;
  throw new DomainError(
    'envelope.bad_signature',
    'invalid',
    'envelope signature is not 64 bytes of base64url',
  );
}
