// Keys of origins known through a relay, given/when/then: the first manifest's keys are pinned; later
// ones change them only under a pinned key's signature, and never a pinned key's bytes; a relayed event
// takes the key valid when it occurred; a gap is the run of versions an event skips.
import {
  chainGap,
  chainRefusal,
  importRefusal,
  originKeyAdoption,
  originKeyFor,
  type Envelope,
  type OriginKey,
  type OriginManifest,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const ORIGIN = '6f1c0b4e-2d3a-4b5c-8d9e-0f1a2b3c4d5e';
const key = (n: number, validUntil: string | null = null): OriginKey => ({
  keyId: `ed25519:k${n}`,
  publicKey: String(n).repeat(43).slice(0, 43),
  validFrom: '2026-01-01T00:00:00.000Z',
  validUntil,
});
const manifest = (keys: OriginKey[], signedBy: string[], instanceId = ORIGIN): OriginManifest => ({
  instanceId,
  role: 'person',
  name: 'Origin',
  baseUrl: 'https://origin.example',
  keys,
  signedBy,
});
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'no error';
};

describe('origin keys learned from manifests', () => {
  test('given nothing pinned, when a manifest signed by a key it lists arrives, then all its keys are pinned first_seen', () => {
    const d = originKeyAdoption(ORIGIN, [], manifest([key(1)], [key(1).keyId]));
    assert.deepEqual(d, { keys: [key(1)], source: 'first_seen' });
  });

  test('given a manifest of another instance, or signed by no key it lists, then federation.bad_manifest', () => {
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [], manifest([key(1)], [key(1).keyId], 'other'))),
      'federation.bad_manifest',
    );
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [], manifest([key(1)], []))),
      'federation.bad_manifest',
    );
  });

  test('given key 1 pinned, when a manifest signed by key 1 announces key 2 and retires key 1, then both are recorded announced', () => {
    const retired = key(1, '2026-06-01T00:00:00.000Z');
    const d = originKeyAdoption(ORIGIN, [key(1)], manifest([retired, key(2)], [key(1).keyId, key(2).keyId]));
    assert.deepEqual(d, { keys: [retired, key(2)], source: 'announced' });
  });

  test('given key 1 pinned, when a manifest announcing key 2 is signed by key 2 only, then federation.key_not_announced', () => {
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [key(1)], manifest([key(1), key(2)], [key(2).keyId]))),
      'federation.key_not_announced',
    );
  });

  test('given key 1 pinned, when a manifest signed by key 1 gives key 1 other bytes, then federation.key_not_announced', () => {
    const other = { ...key(1), publicKey: 'x'.repeat(43) };
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [key(1)], manifest([other], [other.keyId]))),
      'federation.key_not_announced',
    );
  });

  test('given key 1 pinned, when a manifest signed by key 2 (announced under key 1) revokes key 1, then the revocation is recorded', () => {
    const revoked = { ...key(1, '2026-06-01T00:00:00.000Z'), revokedAfter: '2026-05-01T00:00:00.000Z' };
    const d = originKeyAdoption(
      ORIGIN,
      [key(1, '2026-06-01T00:00:00.000Z'), key(2)],
      manifest([revoked, key(2)], [key(2).keyId]),
    );
    assert.deepEqual(d, { keys: [revoked], source: 'announced' });
  });

  test('given key 1 pinned and revoked, when a manifest signed by key 1 announces key 3, then federation.key_not_announced', () => {
    const revoked = { ...key(1), revokedAfter: '2026-05-01T00:00:00.000Z' };
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [revoked, key(2)], manifest([key(1), key(3)], [key(1).keyId]))),
      'federation.key_not_announced',
    );
    // Nor when the manifest itself lists the signing key as revoked.
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [key(1)], manifest([revoked, key(3)], [key(1).keyId]))),
      'federation.key_not_announced',
    );
  });

  test('given nothing pinned, when a manifest is signed only by a key it lists as revoked, then federation.bad_manifest', () => {
    const revoked = { ...key(1), revokedAfter: '2026-05-01T00:00:00.000Z' };
    assert.equal(
      code(() => originKeyAdoption(ORIGIN, [], manifest([revoked, key(2)], [key(1).keyId]))),
      'federation.bad_manifest',
    );
  });

  test('given the pinned keys again, then nothing is to be recorded', () => {
    assert.deepEqual(originKeyAdoption(ORIGIN, [key(1)], manifest([key(1)], [key(1).keyId])).keys, []);
  });

  test('given a retired key, then it verifies only events that occurred before it was retired', () => {
    const keys = [key(1, '2026-06-01T00:00:00.000Z')];
    assert.deepEqual(originKeyFor(keys, key(1).keyId, '2026-05-01T00:00:00.000Z'), {
      publicKey: key(1).publicKey,
    });
    const late = originKeyFor(keys, key(1).keyId, '2026-07-01T00:00:00.000Z');
    assert.equal(late && 'refusal' in late ? late.refusal.code : null, 'federation.key_retired');
    assert.equal(originKeyFor(keys, 'ed25519:none', '2026-05-01T00:00:00.000Z'), null);
  });

  test('given a revoked key, then it verifies only events that occurred before its revocation', () => {
    const keys = [{ ...key(1), revokedAfter: '2026-05-01T00:00:00.000Z' }];
    assert.deepEqual(originKeyFor(keys, key(1).keyId, '2026-04-30T23:59:59.999Z'), {
      publicKey: key(1).publicKey,
    });
    for (const at of ['2026-05-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']) {
      const late = originKeyFor(keys, key(1).keyId, at);
      assert.equal(late && 'refusal' in late ? late.refusal.code : null, 'federation.key_revoked');
    }
  });
});

describe('relayed events and chains', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');
  const envelope = (origin: string, streamVersion = 1) =>
    ({
      v: 1,
      id: 'e1',
      type: 'agent.profile_updated',
      origin,
      keyId: 'ed25519:k1',
      stream: 'agent-x',
      streamVersion,
      actorId: 'x',
      occurredAt: now.toISOString(),
      nonce: 'n'.repeat(22),
      data: { name: 'X' },
      sig: '',
    }) as Envelope;

  test('given another origin’s event, then a relay may deliver it and any other peer may not', () => {
    assert.equal(importRefusal(envelope(ORIGIN), { peerId: 'relay', relay: true, self: 'us', now }), null);
    assert.equal(
      importRefusal(envelope(ORIGIN), { peerId: 'peer', now })?.code,
      'federation.origin_mismatch',
    );
  });

  test('given our own event handed back by a relay, then federation.own_event', () => {
    assert.equal(
      importRefusal(envelope('us'), { peerId: 'relay', relay: true, self: 'us', now })?.code,
      'federation.own_event',
    );
  });

  test('given head 1, when version 4 arrives, then versions 2–3 are a gap; version 2 then fills it unless held', () => {
    assert.deepEqual(chainGap(envelope(ORIGIN, 4), 1), { fromVersion: 2, toVersion: 3 });
    assert.equal(chainGap(envelope(ORIGIN, 2), 1), null);
    assert.equal(chainRefusal(envelope(ORIGIN, 2), 4, undefined, true), null);
    assert.equal(chainRefusal(envelope(ORIGIN, 2), 4, undefined, false)?.code, 'federation.out_of_order');
    assert.equal(chainRefusal(envelope(ORIGIN, 2), 4, 'other', true)?.code, 'federation.equivocation');
  });
});
