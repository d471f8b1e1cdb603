// Connected apps: a person sees their OAuth grants and tokens and revokes any one; a client revokes its
// own tokens by value (RFC 7009, driven by openid-client).
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import * as oidc from 'openid-client';
import { issueToken, signUp, type Person } from './mcp-helpers.js';
import { authorizeUrl, consent, formFields, mcpPing, oauthCode, registeredClient } from './oauth-helpers.js';

describe('connected apps and token revocation', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let ben: Person;
  let config: oidc.Configuration;

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
    ben = await signUp(url, 'ben');
    config = await registeredClient(url);
  });
  afterAll(async () => {
    await instance.stop();
  });

  const ping = (bearer: string) => mcpPing(url, bearer);
  async function connect(person: Person) {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(url, person, a.url);
    return oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
  }
  const appsPage = (person: Person) =>
    fetch(`${url}/mcp/apps`, { headers: { cookie: person.browser.cookie } }).then(async (r) => ({
      status: r.status,
      html: await r.text(),
    }));
  const revokeForm = (person: Person, fields: Record<string, string>, origin = url) =>
    fetch(`${url}/mcp/apps/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: person.browser.cookie, origin },
      body: new URLSearchParams(fields),
    }).then((r) => r.status);

  test('given an OAuth grant and a direct token, when the person revokes each on the connected-apps page, then each stops working', async () => {
    const tokens = await connect(ada);
    const direct = await issueToken(ada, { label: 'my laptop', scopes: ['svc.profile.read'] });
    const page = await appsPage(ada);
    assert.equal(page.status, 200);
    assert.match(page.html, /Test Agent/);
    assert.match(page.html, /my laptop/);
    assert.match(page.html, /svc\.profile\.read/);
    const csrf = formFields(page.html, '/mcp/apps/revoke').csrf!;
    const family = /name="family" value="([^"]+)"/.exec(page.html)![1]!;

    assert.equal(await revokeForm(ada, { family }), 403, 'no CSRF token');
    assert.equal(await revokeForm(ada, { csrf, family }, 'https://evil.example'), 403, 'cross-origin');
    assert.equal(await revokeForm(ben, { csrf, family }), 403, "someone else's form");
    assert.equal(await ping(tokens.access_token), 200);

    assert.equal(await revokeForm(ada, { csrf, family }), 303);
    assert.equal(await ping(tokens.access_token), 401);
    await assert.rejects(
      oidc.refreshTokenGrant(config, tokens.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );

    assert.equal(await revokeForm(ada, { csrf, jti: direct.jti }), 303);
    assert.equal(await ping(direct.token), 401);
    assert.match((await appsPage(ada)).html, /revoked/);
  });

  test("given someone else's grant, when a person tries to revoke it, then it is not found and keeps working", async () => {
    const tokens = await connect(ada);
    const family = /name="family" value="([^"]+)"/.exec((await appsPage(ada)).html)![1]!;
    const csrf = formFields((await appsPage(ben)).html, '/signout').csrf!;
    assert.equal(await revokeForm(ben, { csrf, family }), 404);
    assert.equal(await ping(tokens.access_token), 200);
  });

  test('given a client, when it revokes its refresh token or access token by value (RFC 7009), then that grant or token stops working', async () => {
    const a = await connect(ada);
    await oidc.tokenRevocation(config, a.refresh_token!);
    await assert.rejects(
      oidc.refreshTokenGrant(config, a.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
    );
    assert.equal(await ping(a.access_token), 401);

    const b = await connect(ada);
    await oidc.tokenRevocation(config, b.access_token);
    assert.equal(await ping(b.access_token), 401);
    // An unknown token gets the same answer (RFC 7009 §2.2).
    await oidc.tokenRevocation(config, 'not-a-token');
  });

  test('given no session, when the connected-apps page is opened, then it shows the sign-in form', async () => {
    const r = await fetch(`${url}/mcp/apps`);
    assert.match(await r.text(), /action="\/mcp\/oauth\/signin"/);
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
  });
});
