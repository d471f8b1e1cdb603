// The OAuth server's boundaries, driven by openid-client and plain HTTP against a running instance:
// revocation authenticates the client and revokes only its own tokens (RFC 7009 §2.1); granted scopes
// stay within scopes_supported and the client's registered scope; an authorization code is locked after
// a few wrong PKCE verifiers; a dynamically registered client is marked unverified on the consent and
// device pages. Every refusal answers its OAuth error code and writes nothing.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { signUp, type Person } from './mcp-helpers.js';
import {
  authorizeUrl,
  consent,
  DEVICE_GRANT,
  formFields,
  mcpPing,
  oauthCode,
  REDIRECT,
  registeredClient,
} from './oauth-helpers.js';

describe('OAuth hardening', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let appA: oidc.Configuration;
  let appB: oidc.Configuration;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
    appA = await registeredClient(url, { client_name: 'App A' });
    appB = await registeredClient(url, { client_name: 'App B' });
  });
  afterAll(async () => {
    await instance.stop();
  });

  /** The log's head: its size and newest position. Equal before and after = nothing was written. */
  const head = async () =>
    (
      await instance.instance.pool.query<{ n: string; p: string }>(
        `SELECT count(*) AS n, coalesce(max(position), 0) AS p FROM events`,
      )
    ).rows[0]!;
  const idOf = (config: oidc.Configuration) => config.clientMetadata().client_id;

  async function connect(config: oidc.Configuration, scope = 'svc.profile.read') {
    const a = await authorizeUrl(config, scope);
    const c = await consent(url, ada, a.url);
    assert.equal(c.status, 303, c.html);
    return oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
  }
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    }).then(async (r) => {
      const text = await r.text();
      return { status: r.status, error: text ? (JSON.parse(text) as { error?: string }).error : undefined };
    });

  describe('revocation (RFC 7009)', () => {
    test("given client A's tokens, when client B revokes them by value, then invalid_grant, nothing is written and they keep working", async () => {
      const a = await connect(appA);
      const before = await head();
      await assert.rejects(oidc.tokenRevocation(appB, a.access_token), (e) => {
        assert.equal(oauthCode(e), 'invalid_grant');
        return true;
      });
      await assert.rejects(oidc.tokenRevocation(appB, a.refresh_token!), (e) => {
        assert.equal(oauthCode(e), 'invalid_grant');
        return true;
      });
      assert.deepEqual(await head(), before);
      assert.equal(await mcpPing(url, a.access_token), 200);
      const refreshed = await oidc.refreshTokenGrant(appA, a.refresh_token!);
      // Its own client revokes them: the grant and its tokens stop working.
      await oidc.tokenRevocation(appA, refreshed.refresh_token!);
      assert.equal(await mcpPing(url, refreshed.access_token), 401);
    });

    test('given a client secret (wrong, as every one is here), an unknown or a missing client_id, then invalid_client or invalid_request and nothing is revoked', async () => {
      const a = await connect(appA);
      const before = await head();
      const basic = `Basic ${Buffer.from(`${encodeURIComponent(idOf(appA))}:wrong-secret`).toString('base64')}`;
      const revoke = '/api/mcp/token/revoke';
      assert.deepEqual(
        await post(revoke, { token: a.access_token, client_id: idOf(appA) }, { authorization: basic }),
        { status: 401, error: 'invalid_client' },
      );
      assert.deepEqual(await post(revoke, { token: a.access_token }, { authorization: basic }), {
        status: 401,
        error: 'invalid_client',
      });
      assert.deepEqual(
        await post(revoke, { token: a.refresh_token!, client_id: idOf(appA), client_secret: 'wrong' }),
        { status: 401, error: 'invalid_client' },
      );
      assert.deepEqual(await post(revoke, { token: a.access_token, client_id: 'nobody' }), {
        status: 401,
        error: 'invalid_client',
      });
      assert.deepEqual(await post(revoke, { token: a.access_token }), {
        status: 400,
        error: 'invalid_request',
      });
      // The token endpoint refuses a secret the same way.
      assert.deepEqual(
        await post('/api/mcp/oauth/token', {
          grant_type: 'refresh_token',
          client_id: idOf(appA),
          client_secret: 'wrong',
          refresh_token: a.refresh_token!,
        }),
        { status: 401, error: 'invalid_client' },
      );
      assert.deepEqual(await head(), before);
      assert.equal(await mcpPing(url, a.access_token), 200);
      // An unknown token from a known client is still the plain 200 (§2.2).
      assert.deepEqual(await post(revoke, { token: 'not-a-token', client_id: idOf(appA) }), {
        status: 200,
        error: undefined,
      });
    });
  });

  describe('scope bounds', () => {
    test('given a registration naming a scope this instance does not support, then invalid_client_metadata and nothing is written', async () => {
      const before = await head();
      const r = await fetch(`${url}/api/mcp/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], scope: 'svc.profile.read svc.bogus.read' }),
      });
      assert.equal(r.status, 400);
      assert.equal(((await r.json()) as { error: string }).error, 'invalid_client_metadata');
      assert.deepEqual(await head(), before);
    });

    test('given consent asked for a scope outside scopes_supported or outside the registered scope, then invalid_scope and nothing is written', async () => {
      const narrow = await registeredClient(url, { scope: 'svc.profile.read' });
      assert.equal(narrow.clientMetadata().scope, 'svc.profile.read');
      const before = await head();
      for (const [config, scope] of [
        [appA, 'svc.profile.read svc.bogus.read'],
        [narrow, 'svc.profile.read svc.audit.read'],
      ] as const) {
        const a = await authorizeUrl(config, scope);
        const page = await fetch(a.url, { headers: { cookie: ada.browser.cookie }, redirect: 'manual' });
        assert.equal(page.status, 303, scope);
        assert.equal(new URL(page.headers.get('location')!).searchParams.get('error'), 'invalid_scope');
        // The consent form posted with that scope anyway (bypassing the page): refused the same way.
        const ok = await authorizeUrl(config, 'svc.profile.read');
        const c = await consent(url, ada, ok.url, { override: { scope } });
        assert.equal(c.status, 303);
        assert.equal(new URL(c.location!).searchParams.get('error'), 'invalid_scope', scope);
      }
      assert.deepEqual(await head(), before);
      // Within the bound, consent works.
      assert.equal((await connect(narrow)).scope, 'svc.profile.read');
    });

    test('given a device request for a scope outside the bound, then invalid_scope and nothing is written', async () => {
      const device = await registeredClient(url, {
        grant_types: [DEVICE_GRANT],
        redirect_uris: [],
        scope: 'svc.profile.read',
      });
      const open = await registeredClient(url, { grant_types: [DEVICE_GRANT], redirect_uris: [] });
      const before = await head();
      for (const [config, scope] of [
        [open, 'svc.bogus.read'],
        [device, 'svc.profile.read svc.audit.read'],
      ] as const)
        await assert.rejects(oidc.initiateDeviceAuthorization(config, { scope }), (e) => {
          assert.equal(oauthCode(e), 'invalid_scope', scope);
          return true;
        });
      assert.deepEqual(await head(), before);
      assert.ok((await oidc.initiateDeviceAuthorization(device, { scope: 'svc.profile.read' })).device_code);
    });
  });

  describe('PKCE verifier attempts', () => {
    test('given three wrong code_verifiers, when the right one follows, then invalid_grant and nothing is written', async () => {
      const a = await authorizeUrl(appA, 'svc.profile.read');
      const c = await consent(url, ada, a.url);
      const code = new URL(c.location!).searchParams.get('code')!;
      const exchange = (verifier: string) =>
        post('/api/mcp/oauth/token', {
          grant_type: 'authorization_code',
          client_id: idOf(appA),
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        });
      for (let i = 0; i < 3; i++)
        assert.deepEqual(await exchange(oidc.randomPKCECodeVerifier()), {
          status: 400,
          error: 'invalid_grant',
        });
      const before = await head();
      assert.deepEqual(await exchange(a.verifier), { status: 400, error: 'invalid_grant' });
      assert.deepEqual(await exchange(oidc.randomPKCECodeVerifier()), {
        status: 400,
        error: 'invalid_grant',
      });
      assert.deepEqual(await head(), before);
    });

    test('given two wrong code_verifiers, then the right one still redeems the code', async () => {
      const a = await authorizeUrl(appA, 'svc.profile.read');
      const c = await consent(url, ada, a.url);
      const location = new URL(c.location!);
      for (let i = 0; i < 2; i++)
        await assert.rejects(
          oidc.authorizationCodeGrant(appA, location, {
            pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
            expectedState: a.state,
          }),
          (e) => oauthCode(e) === 'invalid_grant',
        );
      const tokens = await oidc.authorizationCodeGrant(appA, location, {
        pkceCodeVerifier: a.verifier,
        expectedState: a.state,
      });
      assert.equal(await mcpPing(url, tokens.access_token), 200);
    });
  });

  describe('unverified clients', () => {
    test('given a dynamically registered client, then the consent and device pages mark it unverified', async () => {
      const a = await authorizeUrl(appA, 'svc.profile.read');
      const page = await (await fetch(a.url, { headers: { cookie: ada.browser.cookie } })).text();
      assert.match(
        page,
        /<p class="unverified" role="note" data-unverified-client><strong>Unverified app\.<\/strong>/,
      );
      assert.ok(page.indexOf('data-unverified-client') < page.indexOf('<form'), 'before the form');
      assert.ok(formFields(page, '/api/mcp/oauth/authorize').csrf);

      const device = await registeredClient(url, { grant_types: [DEVICE_GRANT], redirect_uris: [] });
      const d = await oidc.initiateDeviceAuthorization(device, { scope: 'svc.profile.read' });
      const devicePage = await (
        await fetch(d.verification_uri_complete!, { headers: { cookie: ada.browser.cookie } })
      ).text();
      assert.match(devicePage, /data-unverified-client><strong>Unverified app\.<\/strong>/);
    });
  });
});
