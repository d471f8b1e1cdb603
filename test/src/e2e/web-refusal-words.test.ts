// Refusals on the pages beyond the builder, as a person meets them over HTTP: what went wrong and what to
// do in words, the code in small print (docs/web.md#errors) — signing in (a wrong password, then the
// pause after too many), issuing a token with a permission one may not give, revoking another person's
// connected app, and a link to nowhere. Nothing refused is written.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, type Person } from './mcp-helpers.js';
import { authorizeUrl, consent, registeredClient } from './oauth-helpers.js';

/** The notice's words and the code in small print beside them. */
function refusal(html: string): { words: string; code: string } {
  const code = /data-error-code="([^"]+)"/.exec(html)?.[1] ?? '';
  const notice = /<div\s+class="notice notice-error"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  const words = notice
    .replace(/<p class="small muted">[\s\S]*?<\/p>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return { words, code };
}

describe('refusals in words on the account, access and connected-apps pages', () => {
  let t: TestInstance;
  let ada: Person;
  let ben: Person;

  beforeAll(async () => {
    t = await startTestInstance();
    ada = await signUp(t.url, 'ada');
    ben = await signUp(t.url, 'ben');
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** A visitor's sign-in form post: the form's CSRF cookie and field, from the same origin. */
  async function signIn(identifier: string, password: string) {
    const form = await fetch(`${t.url}/signin`);
    const cookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const r = await fetch(`${t.url}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: t.url },
      body: new URLSearchParams({ csrf, identifier, password }),
    });
    return { status: r.status, retryAfter: r.headers.get('retry-after'), html: await r.text() };
  }

  /** A signed-in person's form post from a page (its CSRF field, the session cookie, same origin). */
  async function postFrom(
    person: Person,
    page: string,
    action: string,
    fields: Record<string, string | string[]>,
  ) {
    const html = (await person.browser.get(page)).text;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const body = new URLSearchParams({ csrf });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    const r = await fetch(`${t.url}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: person.browser.cookie,
        origin: t.url,
      },
      body,
    });
    return { status: r.status, html: await r.text() };
  }

  test('given a wrong password, when signing in, then the page says it did not match in words, auth.invalid_credentials in small print', async () => {
    const r = await signIn('ada', 'not the password at all');
    assert.equal(r.status, 401);
    const shown = refusal(r.html);
    assert.equal(shown.code, 'auth.invalid_credentials');
    assert.match(
      shown.words,
      /^That did not match an account here\. Check the handle or email and the password/,
    );
    assert.match(r.html, /name="identifier"[^>]*value="ada"/);
  });

  test('given too many wrong passwords, when signing in again, then 429 with Retry-After and words that say how long to wait', async () => {
    let last = await signIn('cy-nobody', 'wrong wrong wrong');
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await signIn('cy-nobody', 'wrong wrong wrong');
    assert.equal(last.status, 429);
    const wait = Number(last.retryAfter);
    assert.ok(wait > 0, `Retry-After: ${last.retryAfter}`);
    const shown = refusal(last.html);
    assert.equal(shown.code, 'auth.throttled');
    assert.match(
      shown.words,
      /^Too many tries with a wrong password, so trying is paused for a while\. Try again in \d+ (seconds?|minutes)\.$/,
    );
  });

  test('given a person who is not an operator, when they issue a token that may operate the instance, then the page says so in words and no token is issued', async () => {
    const before = (await ben.browser.get('/api/mcp/token')).json;
    const r = await postFrom(ben, '/access', '/access/tokens', {
      label: 'too much',
      preset: 'custom',
      scopes: ['svc.admin'],
      lifetime: String(24 * 3600),
    });
    assert.equal(r.status, 403);
    const shown = refusal(r.html);
    assert.equal(shown.code, 'token.scope_not_grantable');
    assert.match(
      shown.words,
      /^Could not issue the token\. You may not give a token one of the permissions ticked/,
    );
    assert.deepEqual((await ben.browser.get('/api/mcp/token')).json, before);
  });

  test('given ada’s connected app, when ben tries to revoke it from his connected-apps page, then it is refused in words and ada’s app stays', async () => {
    const config = await registeredClient(t.url);
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(t.url, ada, a.url);
    await oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
    const adaApps = (await ada.browser.get('/mcp/apps')).text;
    const family = /name="family" value="([^"]+)"/.exec(adaApps)![1]!;
    const benApps = (await ben.browser.get('/mcp/apps')).text;
    const r = await fetch(`${t.url}/mcp/apps/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: ben.browser.cookie,
        origin: t.url,
      },
      body: new URLSearchParams({ csrf: csrfOf(benApps), family }),
    });
    assert.equal(r.status, 404);
    const shown = refusal(await r.text());
    assert.equal(shown.code, 'oauth.grant_not_found');
    assert.match(shown.words, /^That app is not connected any more/);
    assert.match((await ada.browser.get('/mcp/apps')).text, new RegExp(`name="family" value="${family}"`));
  });

  test('given an agent refused a tool it may not use, when its person opens their home page, then the call reads refused, in words, with its code in small print', async () => {
    const token = await issueToken(ben, { label: 'reader', scopes: ['svc.profile.read'] });
    const client = await mcpClient(t.url, { bearer: token.token });
    try {
      const denied = await client.callTool({ name: 'svc.agent.create_persona', arguments: { name: 'Nope' } });
      assert.equal(errorCodeOf(denied), 'auth.insufficient_scope');
    } finally {
      await client.close();
    }
    const home = (await ben.browser.get('/home')).text;
    const start = home.indexOf('id="provenance"');
    const calls = home.slice(start, home.indexOf('</section>', start));
    assert.match(calls, /svc\.agent\.create_persona/);
    assert.match(calls, /refused<\/span>/);
    assert.match(calls, /The access used here does not allow this\./);
    assert.match(calls, /data-error-code="auth\.insufficient_scope"/);
  });

  test('given a link to nowhere, when a browser opens it, then the page says there is nothing there, route.not_found in small print', async () => {
    const r = await fetch(`${t.url}/no/such/page`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 404);
    const shown = refusal(await r.text());
    assert.equal(shown.code, 'route.not_found');
    assert.match(shown.words, /^There is nothing at this address\./);
  });
});

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
