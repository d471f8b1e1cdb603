import { isLegacyExpired, isValidScope, LEGACY_UNSCOPED, missingScopes } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const now = new Date('2026-06-01T00:00:00Z');

describe('scopes', () => {
  test('given the grammar, then area read/write, the separate scopes and the legacy marker are valid; nothing else', () => {
    for (const s of [
      'svc.builder.read',
      'svc.builder.write',
      'svc.spatial.read',
      'svc.spatial.write',
      'svc.wallet.spend',
      'svc.wallet.read',
      'svc.account.export',
      'svc.admin',
      LEGACY_UNSCOPED,
    ])
      assert.ok(isValidScope(s), s);
    for (const s of [
      'svc.builder',
      'svc.builder.delete',
      'builder.read',
      'svc.*',
      'svc.wallet.write',
      'svc.Builder.read',
      '',
    ])
      assert.ok(!isValidScope(s), s);
  });

  test('given a read scope, then it never implies write or spend', () => {
    assert.deepEqual(missingScopes(['svc.builder.write'], { scopes: ['svc.builder.read'], now }), [
      'svc.builder.write',
    ]);
    assert.deepEqual(missingScopes(['svc.wallet.spend'], { scopes: ['svc.wallet.read'], now }), [
      'svc.wallet.spend',
    ]);
  });

  test('given an empty grant, then every required scope is missing', () => {
    assert.deepEqual(missingScopes(['svc.profile.read'], { scopes: [], now }), ['svc.profile.read']);
  });

  test('given the legacy marker, then it covers everything before its sunset and nothing after', () => {
    const before = { scopes: [LEGACY_UNSCOPED], legacySunset: new Date('2027-01-01T00:00:00Z'), now };
    assert.deepEqual(missingScopes(['svc.admin', 'svc.wallet.spend'], before), []);
    const after = { ...before, legacySunset: new Date('2026-01-01T00:00:00Z') };
    assert.deepEqual(missingScopes(['svc.profile.read'], after), ['svc.profile.read']);
    assert.equal(isLegacyExpired(after), true);
    assert.equal(isLegacyExpired(before), false);
  });
});
