// The instance's own key changes (docs/operations.md#rotating-the-signing-key) as the catalogue operations
// svc.instance.rotate_key and svc.instance.revoke_key, on the real pipeline over the in-memory log: a
// rotation names the new key and closes the current one's window after the overlap; a revocation disowns
// a key that is no longer current. Over REST and MCP, with key files: test/src/e2e/instance-keys.test.ts.
import { instanceKeys } from '@tributary/services';

import { keyIdFor, publicKeyBase64url, publicKeyRaw, generateSigningKey } from '@tributary/infra';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

const ROTATE = 'svc.instance.rotate_key';
const REVOKE = 'svc.instance.revoke_key';

const newKey = () => {
  const { publicKey } = generateSigningKey();
  return { keyId: keyIdFor(publicKeyRaw(publicKey)), publicKey: publicKeyBase64url(publicKey) };
};

/** An instance whose key folder hands out `keys` in turn (the operation asks it for the new key). */
async function instanceWithKeys(...keys: { keyId: string; publicKey: string }[]) {
  const t = await unitInstance({ role: 'group' });
  const created: string[] = [];
  t.services.instanceKeys = {
    create() {
      const key = keys.shift();
      if (!key) throw new Error('no more keys for this test');
      created.push(key.keyId);
      return key;
    },
  };
  const operator = await t.signUp('ada');
  return { t, operator, created };
}

interface Rotated {
  keyId: string;
  previousKeyId: string;
  validFrom: string;
  previousValidUntil: string;
}

describe('the instance key', () => {
  test('given an instance, when its key is rotated, then instance.key_rotated names the new key and closes the current one after the overlap', async () => {
    const next = newKey();
    const { t, operator } = await instanceWithKeys(next);
    const first = t.services.signer.keyId;
    const r = (await t.when<Rotated>(ROTATE, { overlapSeconds: 3600 }, operator.principal)).thenEvents([
      { type: 'instance.key_rotated', data: { keyId: next.keyId, previousKeyId: first } },
    ]);
    assert.equal(r.keyId, next.keyId);
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

  test('given a rotation, when the overlap is too short or the key is already known, then instance.bad_key_window (before any key is made) or instance.key_exists and nothing is written', async () => {
    const { t, operator, created } = await instanceWithKeys();
    const known = (await instanceKeys(t.services))[0]!;
    (await t.when(ROTATE, { overlapSeconds: 30 }, operator.principal)).thenError('instance.bad_key_window');
    assert.deepEqual(created, [], 'no key is made for a refused window');
    t.services.instanceKeys = { create: () => ({ keyId: known.keyId, publicKey: known.publicKey }) };
    (await t.when(ROTATE, { overlapSeconds: 3600 }, operator.principal)).thenError('instance.key_exists');
    assert.deepEqual(await instanceKeys(t.services), [known]);
  });

  test('given a rotated key, when revoked after a time, then instance.key_revoked; the current key, an unknown one or a second revocation are refused', async () => {
    const next = newKey();
    const { t, operator } = await instanceWithKeys(next);
    const first = t.services.signer.keyId;
    (await t.when(ROTATE, { overlapSeconds: 3600 }, operator.principal)).thenEvents([
      { type: 'instance.key_rotated' },
    ]);
    (await t.when(REVOKE, { keyId: next.keyId }, operator.principal)).thenError('instance.key_is_current');
    (await t.when(REVOKE, { keyId: 'ed25519:unknown' }, operator.principal)).thenError(
      'instance.key_unknown',
    );
    const after = '2026-01-01T00:00:00.000Z';
    const r = (await t.when(REVOKE, { keyId: first, after }, operator.principal)).thenEvents([
      { type: 'instance.key_revoked', data: { keyId: first, revokedAfter: after } },
    ]);
    assert.deepEqual(r, { keyId: first, revokedAfter: after });
    assert.deepEqual(t.store.all().at(-1)!.data, { keyId: first, revokedAfter: after });
    assert.equal((await instanceKeys(t.services))[0]!.revokedAfter, after);
    (await t.when(REVOKE, { keyId: first, after }, operator.principal)).thenError(
      'instance.key_already_revoked',
    );
  });
});
