// Single sign-on's pure rules (docs/sso.md): the assertion's shape is strict, its timing bounded, the
// nonce burns once, a revocation raises the credential version, and `next` never leaves the origin.
import {
  decideAcceptAssertion,
  decideLinkAccount,
  decideRecordHome,
  decideRevokeAuthority,
  fold,
  safeNextPath,
  SSO_ASSERTION_MAX_SECONDS,
  SSO_CLOCK_SKEW_SECONDS,
  ssoAssertionSchema,
  ssoAuthorityStream,
  ssoHomeStream,
  ssoLinkStream,
  ssoNonceStream,
  ssoTiming,
  type NewEvent,
  type SsoAuthorityState,
  type SsoNonceState,
  type SsoOnceState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const asStored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const claims = {
  v: 1,
  type: 'tributary:SignOnAssertion',
  sub: '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
  handle: 'ada',
  name: 'Ada',
  home: 'https://global.example',
  iss: { instanceId: '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5c', baseUrl: 'https://global.example' },
  aud: 'https://group.example',
  cv: 0,
  iat: 1_000_000,
  exp: 1_000_120,
  nonce: 'AAAAAAAAAAAAAAAAAAAAAA',
};
const signature = {
  algorithm: 'Ed25519',
  canonicalization: 'JCS-RFC8785',
  keyId: 'ed25519:abc',
  value: 'c2ln',
};
const accept = {
  issuerInstanceId: claims.iss.instanceId,
  nonce: claims.nonce,
  subject: claims.sub,
  agentId: 'local-ada',
  home: claims.home,
  credentialId: 'cred-1',
  credentialVersion: 0,
  expiresAt: '2026-01-01T01:00:00.000Z',
};

describe('single sign-on rules', () => {
  test('given the claims, when parsed, then exactly these members pass: none extra, none missing, a 128-bit nonce', () => {
    assert.equal(ssoAssertionSchema.safeParse({ claims, signature }).success, true);
    assert.equal(
      ssoAssertionSchema.safeParse({ claims: { ...claims, admin: true }, signature }).success,
      false,
    );
    const { handle: _h, ...missing } = claims;
    assert.equal(ssoAssertionSchema.safeParse({ claims: missing, signature }).success, false);
    assert.equal(ssoAssertionSchema.safeParse({ claims, signature, extra: 1 }).success, false);
    assert.equal(
      ssoAssertionSchema.safeParse({ claims: { ...claims, nonce: 'short' }, signature }).success,
      false,
    );
    assert.equal(
      ssoAssertionSchema.safeParse({ claims: { ...claims, aud: 'javascript:x' }, signature }).success,
      false,
    );
  });

  test('given times, then usable only within the lifetime with the bounded skew, and never longer than the max', () => {
    const skew = SSO_CLOCK_SKEW_SECONDS;
    assert.equal(ssoTiming(claims, claims.iat, skew), 'ok');
    assert.equal(ssoTiming(claims, claims.exp + skew - 1, skew), 'ok');
    assert.equal(ssoTiming(claims, claims.exp + skew, skew), 'expired');
    assert.equal(ssoTiming(claims, claims.iat - skew - 1, skew), 'not_yet_valid');
    assert.equal(ssoTiming({ iat: 0, exp: SSO_ASSERTION_MAX_SECONDS + 1 }, 10, skew), 'too_long');
    assert.equal(ssoTiming({ iat: 10, exp: 10 }, 10, skew), 'too_long');
  });

  test('given a nonce, when accepted, then the event burns it on its own stream; a second time is a replay', () => {
    const stream = ssoNonceStream(accept.issuerInstanceId, accept.nonce);
    const first = decideAcceptAssertion(accept, fold<SsoNonceState>(stream, []));
    assert.equal(first.length, 1);
    assert.equal(first[0]!.stream, stream);
    assert.equal(first[0]!.type, 'sso.assertion_accepted');
    const used = fold<SsoNonceState>(stream, asStored(first));
    assert.equal(
      codeOf(() => decideAcceptAssertion(accept, used)),
      'sso.assertion_replayed',
    );
  });

  test('given revocations, then each raises the credential version by one', () => {
    const stream = ssoAuthorityStream('ada');
    const one = decideRevokeAuthority(
      { agentId: 'ada', revokedAt: 'a' },
      fold<SsoAuthorityState>(stream, []),
    );
    assert.deepEqual(one[0]!.data, { credentialVersion: 1, revokedAt: 'a' });
    const two = decideRevokeAuthority(
      { agentId: 'ada', revokedAt: 'b' },
      fold<SsoAuthorityState>(stream, asStored(one)),
    );
    assert.deepEqual(two[0]!.data, { credentialVersion: 2, revokedAt: 'b' });
  });

  test('given a home recorded once, then a second one is kept out and nothing is written', () => {
    const stream = ssoHomeStream('ada');
    const home = { agentId: 'ada', accountId: 'acc', peerId: 'sovereign-1' };
    const first = decideRecordHome(home, fold<SsoOnceState>(stream, []));
    assert.deepEqual(
      first.map((e) => [e.stream, e.type, e.data]),
      [[stream, 'sso.home_recorded', { ...home, via: 'delegated_sign_up' }]],
    );
    const again = decideRecordHome(
      { ...home, peerId: 'sovereign-2' },
      fold<SsoOnceState>(stream, asStored(first)),
    );
    assert.deepEqual(again, []);
  });

  test('given an account linked once, then a second link is a conflict', () => {
    const stream = ssoLinkStream('acc');
    const link = {
      accountId: 'acc',
      agentId: 'local-ada',
      origin: 'global',
      remoteAgentId: 'global-ada',
      via: 'sign_up' as const,
      bound: true,
    };
    const first = decideLinkAccount(link, fold<SsoOnceState>(stream, []));
    assert.deepEqual(
      first.map((e) => [e.stream, e.type, e.data]),
      [[stream, 'sso.account_linked', link]],
    );
    assert.equal(
      codeOf(() =>
        decideLinkAccount({ ...link, remoteAgentId: 'other' }, fold<SsoOnceState>(stream, asStored(first))),
      ),
      'sso.account_already_linked',
    );
  });

  test('given a next, then only a same-origin path is kept; anything else is /', () => {
    for (const ok of ['/', '/a/b?c=d#e', '/welcome?from=sso']) assert.equal(safeNextPath(ok), ok);
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'x',
      '',
      '/a\nb',
      undefined,
      ['/a'],
      `/${'a'.repeat(2001)}`,
    ])
      assert.equal(safeNextPath(bad), '/', String(bad));
  });
});
