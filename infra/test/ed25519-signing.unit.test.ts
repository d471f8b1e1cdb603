// The instance's Ed25519 signing function (libsodium or node:crypto) and the envelope's canonical text.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, verify } from 'node:crypto';
import type { UnsignedEnvelope } from '@tributary/domain';
import {
  canonicalJson,
  canonicalUnsignedText,
  createEd25519Sign,
  createEnvelopeSigner,
  generateSigningKey,
  loadConfig,
  nodeIds,
  verifyEnvelopeText,
} from '../src/index.js';

describe('Ed25519 signing function', () => {
  it('given random keys and messages, when libsodium and node:crypto sign, then the signatures are the same bytes and verify', () => {
    for (let k = 0; k < 8; k++) {
      const { privateKey, publicKey } = generateSigningKey();
      const sodium = createEd25519Sign(privateKey, 'libsodium');
      const openssl = createEd25519Sign(privateKey, 'node-crypto');
      assert.equal(sodium.library, 'libsodium');
      assert.equal(openssl.library, 'node-crypto');
      for (const size of [0, 1, 31, 64, 500, 4096]) {
        const message = randomBytes(size);
        const signature = sodium(message);
        assert.equal(signature.length, 64);
        assert.deepEqual(signature, openssl(message), `key ${k}, ${size}-byte message`);
        assert.ok(verify(null, message, publicKey, signature));
      }
    }
  });

  it('given the default choice, when a signer is made on this platform, then it is libsodium (its prebuilt binary loads here)', () => {
    // linux-x64 and the other platforms sodium-native ships binaries for; elsewhere `auto` falls back.
    const { privateKey } = generateSigningKey();
    assert.equal(createEd25519Sign(privateKey).library, 'libsodium');
    assert.equal(createEd25519Sign(privateKey, 'auto').library, 'libsodium');
  });

  it('given SIGNING_LIBRARY, when the configuration is loaded, then it defaults to auto and refuses other values', () => {
    assert.equal(loadConfig({}).SIGNING_LIBRARY, 'auto');
    assert.equal(loadConfig({ SIGNING_LIBRARY: 'node-crypto' }).SIGNING_LIBRARY, 'node-crypto');
    assert.throws(() => loadConfig({ SIGNING_LIBRARY: 'openssl' }), /SIGNING_LIBRARY/);
  });

  it('given a key that is not an Ed25519 private key, when a signing function is asked for, then it is refused', () => {
    const { publicKey } = generateSigningKey();
    assert.throws(() => createEd25519Sign(publicKey), TypeError);
    const x25519 = createPrivateKey({
      key: { kty: 'OKP', crv: 'X25519', d: randomBytes(32).toString('base64url'), x: 'A'.repeat(43) },
      format: 'jwk',
    });
    assert.throws(() => createEd25519Sign(x25519), TypeError);
  });

  it('given either library, when envelopes are sealed one by one and with sealMany, then texts are the same and verify', async () => {
    const pair = generateSigningKey();
    const origin = 'https://alpha.example';
    const signers = (['libsodium', 'node-crypto'] as const).map((library) =>
      createEnvelopeSigner({ origin, ...pair, sign: createEd25519Sign(pair.privateKey, library) }),
    );
    // More than one event-loop turn's worth for the libsodium path (it yields every 256 signatures).
    const unsigned = Array.from({ length: 300 }, (_, i) => envelope(origin, signers[0]!.keyId, i));
    const [sodiumMany, opensslMany] = await Promise.all(signers.map((s) => s.sealMany(unsigned)));
    assert.deepEqual(sodiumMany, opensslMany);
    assert.deepEqual(
      sodiumMany,
      unsigned.map((u) => signers[1]!.seal(u)),
    );
    for (const { text, envelope: e } of sodiumMany.slice(0, 20))
      assert.deepEqual(
        verifyEnvelopeText(text, () => pair.publicKey),
        e,
      );
  });
});

describe('canonicalUnsignedText', () => {
  const base = envelope('https://alpha.example', 'ed25519:key', 3);
  const cases: [string, Record<string, unknown>][] = [
    ['an envelope as the pipeline builds it', { ...base }],
    ['members in any order', Object.fromEntries(Object.entries(base).reverse())],
    [
      'strings that need escaping',
      { ...base, stream: 'agent-"x"\\\u2028', id: 'é😀', data: { 'z"': 1, a: [] } },
    ],
    ['unsorted data', { ...base, data: { z: { b: 1, a: 2 }, a: 'x', B: null, é: true } }],
    ['an extra member', { ...base, extra: 1 }],
    ['a missing member', Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'nonce'))],
    ['a fractional stream version', { ...base, streamVersion: 1.5 }],
    ['another format version', { ...base, v: 2 }],
    ['a number where a string belongs', { ...base, actorId: 7 }],
  ];
  for (const [name, value] of cases)
    it(`given ${name}, when written, then it is exactly the general RFC 8785 text`, () => {
      assert.equal(canonicalUnsignedText(value as unknown as UnsignedEnvelope), canonicalJson(value));
    });

  it('given a lone surrogate in a member, when written, then it is refused as the general path refuses it', () => {
    const bad = { ...base, actorId: 'a\ud800' };
    assert.throws(() => canonicalJson(bad), TypeError);
    assert.throws(() => canonicalUnsignedText(bad), TypeError);
  });
});

function envelope(origin: string, keyId: string, i: number): UnsignedEnvelope {
  return {
    v: 1,
    id: nodeIds.eventId(),
    type: 'agent.profile_updated',
    origin,
    keyId,
    stream: `agent-${i % 7}`,
    streamVersion: i + 1,
    actorId: 'a',
    occurredAt: '2026-01-01T00:00:00.000Z',
    nonce: nodeIds.nonce(),
    data: { bio: `bio ${i}`, name: 'Ada' },
  };
}
