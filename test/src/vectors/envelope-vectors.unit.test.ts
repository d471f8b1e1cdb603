// Golden envelope vectors (docs/architecture.md#envelope): our canonical bytes and signatures must match the file, and
// a second, independent Ed25519 implementation (@noble/ed25519, strict RFC 8032 with zip215: false)
// must accept exactly those signatures.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as ed from '@noble/ed25519';
import {
  canonicalJson,
  createEd25519Sign,
  createEnvelopeSigner,
  parseStrictJson,
  signingInput,
} from '@tributary/infra';
import {
  buildEnvelopeVectors,
  renderEnvelopeVectors,
  TEST_SEED,
  testSigningKey,
  VECTORS_PATH,
  type EnvelopeVectorFile,
} from './generate-envelope-vectors.js';

// noble v3 needs a SHA-512 for its synchronous API; node:crypto's is independent of its curve code.
ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash('sha512').update(message).digest());

const fileText = readFileSync(VECTORS_PATH, 'utf8');
const file = JSON.parse(fileText) as EnvelopeVectorFile;
const publicKey = new Uint8Array(Buffer.from(file.publicKey, 'base64url'));
const strict = { zip215: false };

describe('envelope golden vectors', () => {
  it('given the vectors file, when it is rebuilt from the code, then the text is identical', () => {
    assert.equal(renderEnvelopeVectors(buildEnvelopeVectors()), fileText);
  });

  it('given the fixed test seed, when noble derives the public key, then it matches the file', () => {
    assert.deepEqual(ed.getPublicKey(TEST_SEED), publicKey);
    assert.ok(file.vectors.length >= 4);
  });

  it('given a hand-written expectation, when the unicode vector is canonicalized, then keys sort by UTF-16 units', () => {
    const vector = file.vectors.find((v) => v.name === 'unicode-and-escapes');
    assert.ok(vector);
    assert.ok(
      vector.canonical.includes(
        '"keys":{"":"empty","A":"A","z":"z","é":"U+00E9","😀":"U+1F600","ﬀ":"U+FB00"}',
      ),
    );
    assert.ok(vector.canonical.includes('nul \\u0000 us \\u001f del \u007f"'));
    assert.ok(vector.canonical.includes('line\u2028separator\u2029paragraph'));
  });

  for (const vector of file.vectors) {
    describe(vector.name, () => {
      const message = new Uint8Array(Buffer.from(vector.signingInputHex, 'hex'));
      const signature = new Uint8Array(Buffer.from(vector.sig, 'base64url'));

      it('given the input, when canonicalized, then it equals the canonical text and signing input', () => {
        assert.equal(canonicalJson(vector.input), vector.canonical);
        assert.equal(signingInput(vector.input).toString('hex'), vector.signingInputHex);
        assert.equal(Buffer.from(vector.canonical, 'utf8').toString('hex'), vector.signingInputHex);
        assert.deepEqual(parseStrictJson(vector.canonical), vector.input);
      });

      for (const library of ['libsodium', 'node-crypto'] as const)
        it(`given the test key, when our signer seals the input with ${library}, then sig and text are the golden ones`, () => {
          const { privateKey, publicKey: pub } = testSigningKey();
          const signer = createEnvelopeSigner({
            origin: vector.input.origin,
            privateKey,
            publicKey: pub,
            sign: createEd25519Sign(privateKey, library),
          });
          assert.equal(signer.keyId, file.keyId);
          const { envelope, text } = signer.seal(vector.input);
          assert.equal(envelope.sig, vector.sig);
          assert.equal(text, vector.envelopeText);
        });

      it('given noble in strict mode, when it verifies the golden signature, then it accepts it', () => {
        assert.equal(signature.length, 64);
        assert.equal(ed.verify(signature, message, publicKey, strict), true);
      });

      it('given noble in strict mode, when one bit of the signature or message is flipped, then it rejects', () => {
        for (const bit of [0, 7, 255, 256, 511]) {
          const flipped = signature.slice();
          flipped[bit >> 3]! ^= 1 << (bit & 7);
          assert.equal(ed.verify(flipped, message, publicKey, strict), false, `signature bit ${bit}`);
        }
        const tampered = message.slice();
        tampered[tampered.length - 2]! ^= 1;
        assert.equal(ed.verify(signature, tampered, publicKey, strict), false, 'message bit');
      });
    });
  }
});
