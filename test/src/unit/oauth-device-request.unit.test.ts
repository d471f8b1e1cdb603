// The device authorization request (RFC 8628 §3.1) on the real pipeline over the in-memory log: the
// client must be registered for the device grant, and the scopes it asks for stay within its bound.
import { normalizeUserCode } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, type UnitInstance } from './given-when-then.js';
import { UNIT_BASE_URL } from './memory-services.js';

const UNIT_BASE_URL_MCP = `${UNIT_BASE_URL}/api/mcp`;

const anonymous = { kind: 'anonymous' } as const;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const REQUEST = 'svc.oauth.device.request';

async function registered(t: UnitInstance, metadata: Record<string, unknown>): Promise<string> {
  return (await t.when<{ client_id: string }>('svc.oauth.register', metadata, anonymous)).result.client_id;
}

/** Two scopes this instance supports, in sorted order. */
const twoScopes = (t: UnitInstance) => {
  const supported = [...t.services.config.scopesSupported].sort();
  assert.ok(supported.length >= 3, 'the instance supports scopes');
  return supported as [string, string, string, ...string[]];
};

describe('svc.oauth.device.request', () => {
  test('given a device client, when it asks for supported scopes, then oauth_device.requested with the scopes sorted once each, for the MCP endpoint, expiring after the configured lifetime', async () => {
    const t = await unitInstance();
    const clientId = await registered(t, { grant_types: [DEVICE_GRANT] });
    const [a, b] = twoScopes(t);
    const lifetimeMs = t.services.config.oauth.deviceCodeSeconds * 1000;
    const before = t.clock.now().getTime();
    const answer = (
      await t.when<{ deviceCode: string; userCode: string; expiresIn: number }>(
        REQUEST,
        { clientId, scopes: [b, a, b], resource: UNIT_BASE_URL_MCP },
        anonymous,
      )
    ).thenEvents([
      {
        type: 'oauth_device.requested',
        data: {
          clientId,
          scopes: [a, b],
          resource: UNIT_BASE_URL_MCP,
        },
      },
    ]);
    assert.equal(answer.expiresIn, t.services.config.oauth.deviceCodeSeconds);
    const event = t.store.all().at(-1)!;
    const expiresAt = Date.parse(String(event.data.expiresAt));
    assert.ok(
      expiresAt >= before + lifetimeMs && expiresAt <= t.clock.now().getTime() + lifetimeMs,
      'it expires deviceCodeSeconds after the request',
    );
    assert.equal(normalizeUserCode(answer.userCode), answer.userCode, 'the user code is in canonical form');
    // Only digests are kept: the codes themselves live in the client's and the person's hands.
    assert.equal(event.data.deviceDigest, t.services.ids.sha256(answer.deviceCode));
    assert.equal(event.data.userCodeDigest, t.services.ids.sha256(`user-code:${answer.userCode}`));
    assert.ok(!JSON.stringify(event.data).includes(answer.deviceCode));
  });

  test('given an unknown client, then oauth.invalid_client; given a client registered without the device grant, oauth.unauthorized_client', async () => {
    const t = await unitInstance();
    (await t.when(REQUEST, { clientId: 'no-such-client', scopes: [] }, anonymous)).thenError(
      'oauth.invalid_client',
    );
    const webClient = await registered(t, { redirect_uris: ['https://notes.example/cb'] });
    (await t.when(REQUEST, { clientId: webClient, scopes: [] }, anonymous)).thenError(
      'oauth.unauthorized_client',
    );
  });

  test('given a client that registered a scope, then a scope outside it is oauth.invalid_scope; without one, only unsupported scopes are', async () => {
    const t = await unitInstance();
    const [a, b, c] = twoScopes(t);
    const narrow = await registered(t, { grant_types: [DEVICE_GRANT], scope: `${a} ${b}` });
    (await t.when(REQUEST, { clientId: narrow, scopes: [a, c] }, anonymous)).thenError('oauth.invalid_scope');
    (await t.when(REQUEST, { clientId: narrow, scopes: [b] }, anonymous)).thenEvents([
      { type: 'oauth_device.requested', data: { scopes: [b] } },
    ]);
    const open = await registered(t, { grant_types: [DEVICE_GRANT] });
    (await t.when(REQUEST, { clientId: open, scopes: [c] }, anonymous)).thenEvents([
      { type: 'oauth_device.requested', data: { scopes: [c] } },
    ]);
    (await t.when(REQUEST, { clientId: open, scopes: ['svc.nothing.write'] }, anonymous)).thenError(
      'oauth.invalid_scope',
    );
  });

  test('given a resource other than the MCP endpoint, then oauth.invalid_target; input past the schema bounds, input.invalid', async () => {
    const t = await unitInstance();
    const clientId = await registered(t, { grant_types: [DEVICE_GRANT] });
    (
      await t.when(
        REQUEST,
        { clientId, scopes: [], resource: 'https://elsewhere.example/api/mcp' },
        anonymous,
      )
    ).thenError('oauth.invalid_target');
    for (const input of [
      { clientId, scopes: Array.from({ length: 65 }, () => 'svc.profile.read') },
      { clientId, scopes: ['s'.repeat(101)] },
      { clientId },
      { scopes: [] },
    ])
      (await t.when(REQUEST, input, anonymous)).thenError('input.invalid');
  });
});
