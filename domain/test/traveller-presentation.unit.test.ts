// Traveller presentations and admissions, given/when/then: the lifetime rules, the key a signature
// names, and once-only admission per (issuer, nonce).
import {
  decideAdmitTraveller,
  fold,
  keyIdOf,
  presentationStream,
  presentationTiming,
  PRESENTATION_MAX_SECONDS,
  type Presentation,
  type PresentationUseState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
const now = new Date(at(0));

describe('presentation timing', () => {
  test('given a presentation within its lifetime, then ok', () => {
    assert.equal(presentationTiming({ issuedAt: at(-10), expiresAt: at(290) }, now, 300), 'ok');
  });
  test('given one past expiresAt (or exactly at it), then expired', () => {
    assert.equal(presentationTiming({ issuedAt: at(-400), expiresAt: at(-100) }, now, 300), 'expired');
    assert.equal(presentationTiming({ issuedAt: at(-300), expiresAt: at(0) }, now, 300), 'expired');
  });
  test('given one issued beyond the clock skew in the future, then not yet valid; within it, ok', () => {
    assert.equal(presentationTiming({ issuedAt: at(400), expiresAt: at(600) }, now, 300), 'not_yet_valid');
    assert.equal(presentationTiming({ issuedAt: at(200), expiresAt: at(400) }, now, 300), 'ok');
  });
  test('given one living longer than the maximum, or ending before it starts, then too long', () => {
    const tooLong = { issuedAt: at(0), expiresAt: at(PRESENTATION_MAX_SECONDS + 1) };
    assert.equal(presentationTiming(tooLong, now, 300), 'too_long');
    assert.equal(presentationTiming({ issuedAt: at(10), expiresAt: at(10) }, now, 300), 'too_long');
  });
});

describe('the key a presentation names', () => {
  const p = (keyRef: string, baseUrl = 'https://home.example') =>
    ({ issuer: { instanceId: 'x', baseUrl }, signature: { keyRef } }) as unknown as Presentation;
  test('given a keyRef at the issuer’s manifest, then its fragment', () => {
    assert.equal(keyIdOf(p('https://home.example/api/federation/manifest#ed25519:abc')), 'ed25519:abc');
    assert.equal(keyIdOf(p('https://home.example/api/federation/manifest#k', 'https://home.example/')), 'k');
  });
  test('given a keyRef elsewhere or without a key id, then none', () => {
    assert.equal(keyIdOf(p('https://evil.example/api/federation/manifest#k')), null);
    assert.equal(keyIdOf(p('https://home.example/api/federation/manifest#')), null);
  });
});

describe('admission', () => {
  const cmd = {
    receiptId: 'r1',
    worldId: 'w1',
    subject: 'urn:uuid:s',
    issuerInstanceId: 'i1',
    issuerBaseUrl: 'https://home.example',
    presentationId: 'urn:uuid:p',
    nonce: 'n'.repeat(22),
    content: { name: 'Ada' },
    renewal: false,
    expiresAt: at(900),
  };
  const stream = presentationStream('i1', 'n'.repeat(22));
  test('given a presentation never presented, then one presence.admitted on its own stream', () => {
    const events = decideAdmitTraveller(cmd, { used: false });
    assert.deepEqual(events, [{ stream, type: 'presence.admitted', data: cmd }]);
    const state = fold<PresentationUseState>(
      stream,
      events.map((e, i) => ({ ...e, streamVersion: i + 1 })),
    );
    assert.deepEqual(state, { used: true });
  });
  test('given it was presented before, then spatial.presentation_replayed', () => {
    assert.equal(
      codeOf(() => decideAdmitTraveller(cmd, { used: true })),
      'spatial.presentation_replayed',
    );
  });
});
