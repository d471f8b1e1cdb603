// The peer envelope verifier's remembered verdicts (a pull checks its next page ahead): a remembered
// answer is only ever given for the very same frozen envelope under the very same key; anything else is
// verified anew, so remembering can never make a signature pass that does not verify. And the parsed keys it
// keeps are bounded (an LRU), however many origins' keys it has seen.
import {
  createEnvelopeSigner,
  createPeerEnvelopeVerifier,
  generateSigningKey,
  publicKeyBase64url,
} from '@tributary/infra';
import assert from 'node:assert/strict';
import { test } from 'vitest';

function sealedTexts(n: number) {
  const key = generateSigningKey();
  const signer = createEnvelopeSigner({ origin: 'origin-a', ...key });
  const texts = Array.from(
    { length: n },
    (_, i) =>
      signer.seal({
        v: 1,
        id: `id-${i}`,
        type: 'agent.profile_updated',
        origin: 'origin-a',
        keyId: signer.keyId,
        stream: `agent-${i}`,
        streamVersion: 1,
        actorId: `agent-${i}`,
        occurredAt: '2026-01-01T00:00:00.000Z',
        nonce: `${'n'.repeat(20)}${String(i).padStart(2, '0')}`,
        data: { bio: `bio ${i}` },
      }).text,
  );
  return { texts, publicKey: publicKeyBase64url(key.publicKey) };
}

test('given signatures checked with remember, when the same envelopes are asked about again, then good ones are good under that key only and bad ones stay bad', async () => {
  const verifier = createPeerEnvelopeVerifier();
  const { texts, publicKey } = sealedTexts(80);
  const other = publicKeyBase64url(generateSigningKey().publicKey);
  // Every fourth text is spoiled in its data (the signature no longer covers it).
  const envelopes = texts.map((t, i) =>
    verifier.parseEnvelope(i % 4 === 1 ? t.replace('"bio ', '"BIO ') : t),
  );
  assert.ok(
    envelopes.every((e) => Object.isFrozen(e)),
    'canonical texts parse to frozen envelopes',
  );
  const first = await verifier.verifyEnvelopes(
    envelopes.map((envelope) => ({ envelope, publicKey })),
    { remember: true },
  );
  assert.deepEqual(
    first,
    envelopes.map((_, i) => i % 4 !== 1),
  );
  // Asked again: the same answers; under another key, none verifies.
  assert.deepEqual(
    await verifier.verifyEnvelopes(envelopes.map((envelope) => ({ envelope, publicKey }))),
    first,
  );
  assert.deepEqual(
    await verifier.verifyEnvelopes(envelopes.map((envelope) => ({ envelope, publicKey: other }))),
    envelopes.map(() => false),
  );
});

test('given a remembered good envelope, when another object carries its signature over other content, then that one is verified anew and refused', async () => {
  const verifier = createPeerEnvelopeVerifier();
  const { texts, publicKey } = sealedTexts(1);
  const good = verifier.parseEnvelope(texts[0]!);
  assert.deepEqual(await verifier.verifyEnvelopes([{ envelope: good, publicKey }], { remember: true }), [
    true,
  ]);
  // Same id, nonce and signature; other data: an unfrozen copy, and one parsed from altered text.
  const copy = { ...good, data: { bio: 'forged' } };
  const reparsed = verifier.parseEnvelope(texts[0]!.replace('"bio 0"', '"bio 1"'));
  assert.deepEqual(
    await verifier.verifyEnvelopes([
      { envelope: copy, publicKey },
      { envelope: reparsed, publicKey },
      { envelope: good, publicKey },
    ]),
    [false, false, true],
  );
});

test('given a thousand origins each signing with its own key, when all their events are verified, then every good one verifies and the parsed keys kept stay within the cache bound', async () => {
  const verifier = createPeerEnvelopeVerifier('auto', { keyCacheMax: 100 });
  const origins = Array.from({ length: 1000 }, () => sealedTexts(1));
  const items = origins.map(({ texts, publicKey }) => ({
    envelope: verifier.parseEnvelope(texts[0]!),
    publicKey,
  }));
  assert.deepEqual(
    await verifier.verifyEnvelopes(items),
    items.map(() => true),
  );
  assert.equal(verifier.cachedKeys(), 100, 'at most keyCacheMax parsed keys are kept');
  // A key dropped from the cache is parsed again: the first origin's event still verifies, once the
  // last ones pushed it out.
  assert.deepEqual(await verifier.verifyEnvelopes([items[0]!]), [true]);
  assert.equal(verifier.cachedKeys(), 100);
});
