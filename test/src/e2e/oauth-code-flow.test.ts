// The authorization-code flow end to end, driven by openid-client: consent through the real HTML form,
// PKCE S256, refresh rotation with reuse detection, single-use codes, and the bad input of the issue
// (each gets the protocol's error and writes nothing).
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import {
  actsAs,
  createPersona,
  deletePersona,
  mcpClient,
  signUp,
  structured,
  type Person,
} from './mcp-helpers.js';
import {
  authorizeUrl,
  consent,
  formFields,
  mcpPing,
  oauthCode,
  REDIRECT,
  registeredClient,
} from './oauth-helpers.js';

describe('OAuth authorization code flow', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let config: oidc.Configuration;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
    config = await registeredClient(url);
  });
  afterAll(async () => {
    await instance.stop();
  });

  const ping = (bearer: string) => mcpPing(url, bearer);
  const eventCount = async () =>
    Number(
      (await instance.instance.pool.query<{ n: string }>(`SELECT count(*) AS n FROM events`)).rows[0]!.n,
    );

  /** A full consent + code exchange; returns the tokens. */
  async function tokensFor(person: Person, scope = 'svc.profile.read', extra: Record<string, string> = {}) {
    const a = await authorizeUrl(config, scope, extra);
    const c = await consent(url, person, a.url);
    assert.equal(c.status, 303, c.html);
    const location = new URL(c.location!);
    const tokens = await oidc.authorizationCodeGrant(config, location, {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    return { tokens, location, verifier: a.verifier };
  }

  test('given a registered client and a signed-in person, when openid-client runs the code flow with PKCE through the consent form, then its access token calls a tool as that person', async () => {
    const { tokens, location } = await tokensFor(ada, 'svc.profile.read', { resource: `${url}/api/mcp` });
    assert.equal(location.searchParams.get('iss'), url);
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.ok(tokens.refresh_token);
    assert.equal(tokens.scope, 'svc.profile.read');
    const client = await mcpClient(url, { bearer: tokens.access_token });
    const profile = structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
    assert.equal(profile.agentId ?? profile.agent?.agentId ?? ada.agentId, ada.agentId);
    await client.close();

    // The same token record as a direct issue: listed, and revoked by jti like any other.
    const list = await ada.browser.get('/api/mcp/token');
    const record = list.json.tokens.find((t: { label: string }) => t.label === 'OAuth: Test Agent');
    assert.ok(record);
    assert.equal(record.audience, `${url}/api/mcp`);
    assert.equal((await ada.browser.post('/api/mcp/token/revoke', { jti: record.jti })).status, 200);
    assert.equal(await ping(tokens.access_token), 401);
  });

  test('given an authorization request with no scope, when openid-client runs the code flow, then the grant holds the default the 401 challenge names, and its token calls those tools', async () => {
    const bare = await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    const challenged = /scope="([^"]*)"/.exec(bare.headers.get('www-authenticate') ?? '')?.[1];
    assert.equal(challenged, 'svc.agent.read svc.instance.read svc.profile.read');
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    assert.equal(authUrl.searchParams.get('scope'), null);
    const c = await consent(url, ada, authUrl);
    assert.equal(c.status, 303, c.html);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, challenged);
    const client = await mcpClient(url, { bearer: tokens.access_token });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('svc.profile.read') && names.includes('svc.instance.context'), names.join());
    assert.ok(structured(await client.callTool({ name: 'svc.instance.context', arguments: {} })));
    await client.close();
  });

  test('given a refresh token, when it is rotated and the old one is presented again, then the whole family is revoked', async () => {
    const { tokens } = await tokensFor(ada);
    const first = tokens.refresh_token!;
    const second = await oidc.refreshTokenGrant(config, first);
    assert.notEqual(second.refresh_token, first);
    assert.equal(await ping(second.access_token), 200);
    await assert.rejects(oidc.refreshTokenGrant(config, first), (e) => oauthCode(e) === 'invalid_grant');
    // Reuse means theft: the current refresh token and every access token of the family stop working.
    await assert.rejects(
      oidc.refreshTokenGrant(config, second.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );
    assert.equal(await ping(second.access_token), 401);
    assert.equal(await ping(tokens.access_token), 401);
  });

  test('given one refresh token, when it is presented concurrently, then exactly one refresh wins and the others get invalid_grant', async () => {
    const { tokens } = await tokensFor(ada);
    // Rotate a few times first, so the family has history: the check runs against its read model.
    let refresh = tokens.refresh_token!;
    for (let i = 0; i < 3; i++) refresh = (await oidc.refreshTokenGrant(config, refresh)).refresh_token!;
    const post = () =>
      fetch(`${url}/api/mcp/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: config.clientMetadata().client_id,
          refresh_token: refresh,
        }),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, string> }));
    const maxPosition = async () =>
      Number(
        (
          await instance.instance.pool.query<{ p: string }>(
            `SELECT coalesce(max(position), 0) AS p FROM events`,
          )
        ).rows[0]!.p,
      );
    const before = await maxPosition();
    const results = await Promise.all([post(), post(), post(), post(), post()]);
    const winners = results.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(results));
    for (const r of results.filter((r) => r.status !== 200)) assert.equal(r.json.error, 'invalid_grant');
    // Exactly one rotation was written. (A loser that read after it saw a used token: the theft
    // response revokes the family, which is the point of reuse detection.)
    const { rows } = await instance.instance.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM events WHERE position > $1 AND type = 'oauth_refresh.issued'`,
      [before],
    );
    assert.equal(Number(rows[0]!.n), 1);
  });

  test('given a refresh, when it asks for wider scopes, then it gets invalid_scope; narrower scopes are granted', async () => {
    const { tokens } = await tokensFor(ada, 'svc.profile.read svc.audit.read');
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'svc.profile.read svc.profile.write' }),
      (e) => oauthCode(e) === 'invalid_scope',
    );
    const narrowed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'svc.audit.read' });
    assert.equal(narrowed.scope, 'svc.audit.read');
  });

  test('given a redeemed code, when it is presented again, then it is refused and the tokens it minted are revoked', async () => {
    const { tokens, location, verifier } = await tokensFor(ada);
    assert.equal(await ping(tokens.access_token), 200);
    await assert.rejects(
      oidc.authorizationCodeGrant(config, location, {
        pkceCodeVerifier: verifier,
        expectedState: location.searchParams.get('state')!,
      }),
      (e) => oauthCode(e) === 'invalid_grant',
    );
    assert.equal(await ping(tokens.access_token), 401);
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );
  });

  test('given one code, when it is redeemed concurrently, then exactly one redemption wins', async () => {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, ada, a.url);
    const code = new URL(c.location!).searchParams.get('code')!;
    const redeem = () =>
      fetch(`${url}/api/mcp/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: config.clientMetadata().client_id,
          code,
          redirect_uri: REDIRECT,
          code_verifier: a.verifier,
        }),
      }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as Record<string, string>,
        cache: r.headers.get('cache-control'),
      }));
    const results = await Promise.all([redeem(), redeem(), redeem(), redeem()]);
    assert.equal(results.filter((r) => r.status === 200).length, 1, JSON.stringify(results));
    for (const r of results) assert.equal(r.cache, 'no-store');
    for (const r of results.filter((r) => r.status !== 200)) assert.equal(r.json.error, 'invalid_grant');
  });

  test('given a code, when the verifier is wrong or missing or the client is unknown, then the token endpoint answers the RFC error', async () => {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, ada, a.url);
    const code = new URL(c.location!).searchParams.get('code')!;
    const post = (fields: Record<string, string>) =>
      fetch(`${url}/api/mcp/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }).then(async (r) => ({ status: r.status, error: ((await r.json()) as { error: string }).error }));
    const base = {
      grant_type: 'authorization_code',
      client_id: config.clientMetadata().client_id,
      code,
      redirect_uri: REDIRECT,
    };
    assert.deepEqual(await post({ ...base, code_verifier: oidc.randomPKCECodeVerifier() }), {
      status: 400,
      error: 'invalid_grant',
    });
    assert.deepEqual(await post(base), { status: 400, error: 'invalid_request' });
    assert.deepEqual(
      await post({ ...base, code_verifier: a.verifier, redirect_uri: 'http://127.0.0.1:9999/other' }),
      { status: 400, error: 'invalid_grant' },
    );
    assert.deepEqual(await post({ ...base, code_verifier: a.verifier, client_id: 'nobody' }), {
      status: 401,
      error: 'invalid_client',
    });
    assert.deepEqual(await post({ ...base, grant_type: 'password' }), {
      status: 400,
      error: 'unsupported_grant_type',
    });
    // None of the failures used the code up.
    assert.equal((await post({ ...base, code_verifier: a.verifier })).status, 200);
  });

  test('given bad redirect URIs or an unknown client, when the consent page is asked for, then it shows an error and redirects nowhere', async () => {
    const client = config.clientMetadata().client_id;
    const variants = [
      'https://evil.example/callback',
      'http://127.0.0.1:9999/other',
      'http://127.0.0.1:9999/callback?extra=1',
      'http://127.0.0.1:9999/callback#frag',
      'http://evil.example:9999/callback',
    ];
    for (const redirect of variants) {
      const u = new URL(`${url}/mcp/oauth/authorize`);
      u.search = new URLSearchParams({
        response_type: 'code',
        client_id: client,
        redirect_uri: redirect,
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      }).toString();
      const r = await fetch(u, { headers: { cookie: ada.browser.cookie }, redirect: 'manual' });
      assert.equal(r.status, 400, redirect);
      assert.equal(r.headers.get('location'), null);
    }
    const r = await fetch(
      `${url}/mcp/oauth/authorize?client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      { redirect: 'manual' },
    );
    assert.equal(r.status, 400);
    // A loopback redirect may use another port (RFC 8252).
    const a = await authorizeUrl(config, 'svc.profile.read', {
      redirect_uri: 'http://127.0.0.1:4242/callback',
    });
    const c = await consent(url, ada, a.url);
    assert.ok(c.location!.startsWith('http://127.0.0.1:4242/callback?'));
  });

  test('given missing or plain PKCE, when the consent page is asked for, then it redirects back with invalid_request', async () => {
    const client = config.clientMetadata().client_id;
    const variants: Record<string, string>[] = [
      {},
      { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' },
      { code_challenge: 'x'.repeat(43) },
    ];
    for (const pkce of variants) {
      const u = new URL(`${url}/mcp/oauth/authorize`);
      u.search = new URLSearchParams({
        response_type: 'code',
        client_id: client,
        redirect_uri: REDIRECT,
        state: 's1',
        ...pkce,
      }).toString();
      const r = await fetch(u, { headers: { cookie: ada.browser.cookie }, redirect: 'manual' });
      assert.equal(r.status, 303);
      const back = new URL(r.headers.get('location')!);
      assert.equal(back.searchParams.get('error'), 'invalid_request');
      assert.equal(back.searchParams.get('state'), 's1');
      assert.equal(back.searchParams.get('iss'), url);
    }
  });

  test('given a consent POST without the CSRF token or from another origin, when it arrives, then it is refused and nothing is written', async () => {
    const before = await eventCount();
    const a = await authorizeUrl(config, 'svc.profile.read');
    const noCsrf = await consent(url, ada, a.url, { override: { csrf: '' } });
    assert.equal(noCsrf.status, 403);
    const crossOrigin = await consent(url, ada, a.url, { headers: { origin: 'https://evil.example' } });
    assert.equal(crossOrigin.status, 403);
    assert.equal(await eventCount(), before);
  });

  test('given the consent page, when the person denies, then the client gets access_denied with state and iss', async () => {
    const before = await eventCount();
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, ada, a.url, { decision: 'deny' });
    const back = new URL(c.location!);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), a.state);
    assert.equal(back.searchParams.get('iss'), url);
    assert.equal(await eventCount(), before);
  });

  test('given no session, when the consent page is opened, then it shows the sign-in form, and signing in leads to consent', async () => {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const page = await fetch(a.url, { redirect: 'manual' });
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const fields = formFields(html, '/mcp/oauth/signin');
    const csrfCookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const signIn = await fetch(`${url}/mcp/oauth/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie, origin: url },
      body: new URLSearchParams({ ...fields, identifier: 'ada', password: 'correct horse battery staple' }),
    });
    assert.equal(signIn.status, 303);
    const session = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const next = await fetch(new URL(signIn.headers.get('location')!, url), { headers: { cookie: session } });
    assert.match(await next.text(), /Allow Test Agent\?/);
  });

  test('given a grant to act as a persona, when the persona is deleted, then its access token is refused and a refresh gets invalid_grant', async () => {
    const cal = await signUp(url, 'cal');
    const personaId = await createPersona(cal, 'Cal sails');
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, cal, a.url, { override: { persona: personaId } });
    assert.equal(c.status, 303, c.html);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    assert.equal(await actsAs(url, tokens.access_token), personaId);

    await deletePersona(cal, personaId);
    assert.equal(await ping(tokens.access_token), 401);
    const before = await eventCount();
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );
    assert.equal(await eventCount(), before, 'the refused refresh wrote nothing');
  });
});
