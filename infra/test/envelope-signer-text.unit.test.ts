import {
  canonicalJson,
  createEnvelopeSigner,
  generateSigningKey,
  verifyEnvelopeText,
} from '@tributary/infra';
import assert from 'node:assert/strict';
import { test } from 'vitest';

test('given envelopes with awkward strings and data, when sealed, then the stored text is exactly the canonical JSON of the signed envelope and verifies', () => {
  const key = generateSigningKey();
  const signer = createEnvelopeSigner({ origin: 'origin-"1"', ...key });
  const cases: [string, Record<string, unknown>][] = [
    ['plain', {}],
    ['escapes', { a: 'x"y\u2028\\', n: -1.5, e: '\u00e9\ud83d\ude00' }],
    ['members named like envelope keys', { stream: 'fake', sig: 'x', v: 2, z: [1, { b: 2 }] }],
  ];
  for (const [name, data] of cases) {
    const { envelope, text } = signer.seal({
      v: 1,
      id: `id-${name}`,
      type: 'agent.profile_updated',
      origin: 'origin-"1"',
      keyId: signer.keyId,
      stream: 'agent-"x"',
      streamVersion: 12,
      actorId: 'a',
      occurredAt: '2026-01-01T00:00:00.000Z',
      nonce: 'n'.repeat(22),
      data,
    });
    assert.equal(text, canonicalJson(envelope), name);
    assert.deepEqual(
      verifyEnvelopeText(text, () => key.publicKey),
      envelope,
    );
  }
});

test('given many envelopes, when sealed on the thread pool with sealMany, then each result equals seal’s, in order', async () => {
  const key = generateSigningKey();
  const signer = createEnvelopeSigner({ origin: 'o', ...key });
  const unsigned = Array.from({ length: 40 }, (_, i) => ({
    v: 1 as const,
    id: `id-${i}`,
    type: 'agent.profile_updated',
    origin: 'o',
    keyId: signer.keyId,
    stream: `agent-${i % 3}`,
    streamVersion: i + 1,
    actorId: 'a',
    occurredAt: '2026-01-01T00:00:00.000Z',
    nonce: `${'n'.repeat(21)}${i % 10}`,
    data: { bio: `bio ${i}` },
  }));
  const many = await signer.sealMany(unsigned);
  assert.deepEqual(
    many,
    unsigned.map((u) => signer.seal(u)),
  );
});
