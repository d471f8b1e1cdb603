// Configured OAuth lifetimes (OAUTH_*_SECONDS) are what the endpoints answer and enforce: with short
// lifetimes and a movable clock, an expired code, access token, refresh token or device code is refused
// with its protocol error, and a refused exchange writes nothing.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { movableClock, signUp, type Person } from './mcp-helpers.js';
import {
  authorizeUrl,
  consent,
  DEVICE_GRANT,
  formFields,
  mcpPing,
  oauthCode,
  registeredClient,
} from './oauth-helpers.js';

describe('OAuth lifetimes from configuration', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let config: oidc.Configuration;
  const clock = movableClock();

  beforeAll(async () => {
    instance = await startTestInstance({
      clock,
      env: {
        OAUTH_CODE_SECONDS: '30',
        OAUTH_ACCESS_TOKEN_SECONDS: '90',
        OAUTH_REFRESH_TOKEN_SECONDS: '300',
        OAUTH_REFRESH_ABSOLUTE_SECONDS: '600',
        OAUTH_DEVICE_CODE_SECONDS: '120',
      },
    });
    url = instance.url;
    ada = await signUp(url, 'ada');
    config = await registeredClient(url, {
      grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT],
    });
  });
  afterAll(async () => {
    await instance.stop();
  });

  const eventCount = async () =>
    Number(
      (await instance.instance.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n,
    );
  const codeFor = async () => {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, ada, a.url);
    assert.equal(c.status, 303, c.html);
    return { location: new URL(c.location!), verifier: a.verifier, state: a.state };
  };
  const exchange = (c: Awaited<ReturnType<typeof codeFor>>) =>
    oidc.authorizationCodeGrant(config, c.location, { pkceCodeVerifier: c.verifier, expectedState: c.state });

  test('given OAUTH_ACCESS_TOKEN_SECONDS=90, then tokens say expires_in 90 and stop working after it', async () => {
    const tokens = await exchange(await codeFor());
    assert.equal(tokens.expires_in, 90);
    assert.equal(await mcpPing(url, tokens.access_token), 200);
    clock.advance(91_000);
    assert.equal(await mcpPing(url, tokens.access_token), 401);
    // The refresh token (300 s) still works, and answers with the same lifetime.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.equal(refreshed.expires_in, 90);
    assert.equal(await mcpPing(url, refreshed.access_token), 200);
  });

  test('given OAUTH_CODE_SECONDS=30, when a code is exchanged 31 s later, then invalid_grant and nothing is written', async () => {
    const c = await codeFor();
    clock.advance(31_000);
    const before = await eventCount();
    await assert.rejects(exchange(c), (e) => oauthCode(e) === 'invalid_grant');
    assert.equal(await eventCount(), before);
  });

  test('given a code 20 s old, then it is still good', async () => {
    const c = await codeFor();
    clock.advance(20_000);
    assert.ok((await exchange(c)).access_token);
  });

  test('given OAUTH_REFRESH_TOKEN_SECONDS=300, when a refresh token is used 301 s after it was issued, then invalid_grant and nothing is written', async () => {
    const tokens = await exchange(await codeFor());
    clock.advance(280_000);
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    // Each rotation issues a refresh token with a fresh lifetime; let that one lapse.
    clock.advance(301_000);
    const before = await eventCount();
    await assert.rejects(
      oidc.refreshTokenGrant(config, rotated.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );
    assert.equal(await eventCount(), before);
  });

  test('given OAUTH_REFRESH_ABSOLUTE_SECONDS=600, when a family keeps rotating within its idle lifetime, then it still ends 600 s after the grant and the refusal writes nothing', async () => {
    const tokens = await exchange(await codeFor());
    clock.advance(280_000);
    const second = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    clock.advance(280_000); // 560 s after the grant
    const third = await oidc.refreshTokenGrant(config, second.refresh_token!);
    clock.advance(100_000); // 660 s: 100 s idle, well within 300, but past the family's 600
    const before = await eventCount();
    await assert.rejects(oidc.refreshTokenGrant(config, third.refresh_token!), (e) => {
      assert.equal(oauthCode(e), 'invalid_grant');
      return true;
    });
    assert.equal(await eventCount(), before);
  });

  test('given a device grant, then its family ends OAUTH_REFRESH_ABSOLUTE_SECONDS after it too', async () => {
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    const page = await fetch(d.verification_uri_complete!, { headers: { cookie: ada.browser.cookie } });
    const fields = formFields(await page.text(), '/api/mcp/device/approve');
    const approved = await fetch(`${url}/api/mcp/device/approve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ada.browser.cookie,
        origin: url,
      },
      body: new URLSearchParams({ ...fields, decision: 'approve' }),
    });
    assert.equal(approved.status, 200);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...d, interval: 0 });
    let refresh = tokens.refresh_token!;
    for (let i = 0; i < 2; i++) {
      clock.advance(290_000);
      refresh = (await oidc.refreshTokenGrant(config, refresh)).refresh_token!;
    }
    clock.advance(30_000); // 610 s
    const before = await eventCount();
    await assert.rejects(oidc.refreshTokenGrant(config, refresh), (e) => oauthCode(e) === 'invalid_grant');
    assert.equal(await eventCount(), before);
  });

  test('given OAUTH_DEVICE_CODE_SECONDS=120, then expires_in is 120 and a poll 121 s later gets expired_token', async () => {
    const d = await oidc.initiateDeviceAuthorization(config, { scope: 'svc.profile.read' });
    assert.equal(d.expires_in, 120);
    clock.advance(121_000);
    const r = await fetch(`${url}/api/mcp/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: DEVICE_GRANT,
        device_code: d.device_code,
        client_id: config.clientMetadata().client_id,
      }),
    });
    assert.equal(r.status, 400);
    assert.equal(((await r.json()) as { error: string }).error, 'expired_token');
  });
});
