// The instance's own key changes (docs/operations.md#rotating-the-signing-key) on the real pipeline over
// the in-memory log: a rotation names the new key and closes the current one's window after the overlap;
// a revocation disowns a key that is no longer current.
import { instanceKeys, revokeInstanceKey, rotateInstanceKey } from '@tributary/services';
import { generateKeyPairSync } from 'node:crypto';
import { keyIdFor, publicKeyBase64url, publicKeyRaw } from '@tributary/infra';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

const newKey = () => {
  const { publicKey } = generateKeyPairSync('ed25519');
  return { keyId: keyIdFor(publicKeyRaw(publicKey)), publicKey: publicKeyBase64url(publicKey) };
};
const code = (c: string) => (e: { code?: string }) => e.code === c;

describe('the instance key', () => {
  test('given an instance, when its key is rotated, then instance.key_rotated names the new key and closes the current one after the overlap', async () => {
    const t = await unitInstance({ role: 'group' });
    const first = t.services.signer.keyId;
    const next = newKey();
    const r = await rotateInstanceKey(t.services, { ...next, overlapSeconds: 3600 });
    assert.equal(r.previousKeyId, first);
    assert.equal(Date.parse(r.previousValidUntil) - Date.parse(r.validFrom), 3600_000);
    const last = t.store.all().at(-1)!;
    assert.equal(last.type, 'instance.key_rotated');
    assert.equal(last.envelope.keyId, first, 'announced under the key it retires');
    const keys = await instanceKeys(t.services);
    assert.deepEqual(
      keys.map((k) => [k.keyId, k.validUntil ?? null]),
      [
        [first, r.previousValidUntil],
        [next.keyId, null],
      ],
    );
  });

  test('given a rotation, when the overlap is too short or the key is already known, then instance.bad_key_window or instance.key_exists and nothing is written', async () => {
    const t = await unitInstance({ role: 'group' });
    const before = t.store.all().length;
    await assert.rejects(
      rotateInstanceKey(t.services, { ...newKey(), overlapSeconds: 30 }),
      code('instance.bad_key_window'),
    );
    const known = (await instanceKeys(t.services))[0]!;
    await assert.rejects(
      rotateInstanceKey(t.services, { keyId: known.keyId, publicKey: known.publicKey, overlapSeconds: 3600 }),
      code('instance.key_exists'),
    );
    assert.equal(t.store.all().length, before);
  });

  test('given a rotated key, when revoked after a time, then instance.key_revoked; the current key, an unknown one or a second revocation are refused', async () => {
    const t = await unitInstance({ role: 'group' });
    const first = t.services.signer.keyId;
    const next = newKey();
    await rotateInstanceKey(t.services, { ...next, overlapSeconds: 3600 });
    await assert.rejects(
      revokeInstanceKey(t.services, { keyId: next.keyId, revokedAfter: new Date() }),
      code('instance.key_is_current'),
    );
    await assert.rejects(
      revokeInstanceKey(t.services, { keyId: 'ed25519:unknown', revokedAfter: new Date() }),
      code('instance.key_unknown'),
    );
    const after = new Date('2026-01-01T00:00:00.000Z');
    await revokeInstanceKey(t.services, { keyId: first, revokedAfter: after });
    const last = t.store.all().at(-1)!;
    assert.equal(last.type, 'instance.key_revoked');
    assert.deepEqual(last.data, { keyId: first, revokedAfter: after.toISOString() });
    assert.equal((await instanceKeys(t.services))[0]!.revokedAfter, after.toISOString());
    await assert.rejects(
      revokeInstanceKey(t.services, { keyId: first, revokedAfter: after }),
      code('instance.key_already_revoked'),
    );
  });
});
