// A credential change ends every credential of the account in the same commit, and says how many: a
// password reset, and an operator disabling the account (REST, MCP, the /operator/accounts page). Ended
// means the browser sessions, the MCP tokens, the OAuth access tokens and the OAuth refresh tokens.
import {
  browser,
  startTestInstance,
  startTestSmtpServer,
  type TestInstance,
  type TestSmtpServer,
} from '@tributary/test';
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { issueToken, mcpClient, password, signUp, structured, type Person } from './mcp-helpers.js';
import { authorizeUrl, consent, formFields, mcpPing, oauthCode, registeredClient } from './oauth-helpers.js';

describe('a credential change ends every credential', () => {
  let smtp: TestSmtpServer;
  let t: TestInstance;
  let operator: Person;
  let config: oidc.Configuration;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await startTestInstance({
      env: {
        INSTANCE_ROLE: 'group',
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: '100',
        MAIL_FROM: 'no-reply@inst.test',
      },
    });
    operator = await signUp(t.url, 'opal');
    config = await registeredClient(t.url);
  });
  afterAll(async () => {
    await t?.destroy();
    await smtp?.close();
  });

  /** An OAuth grant of `person` for the registered client: an access token and a refresh token. */
  async function connect(person: Person) {
    const a = await authorizeUrl(config, 'svc.profile.read');
    const c = await consent(t.url, person, a.url);
    return oidc.authorizationCodeGrant(config, new URL(c.location!), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
    });
  }

  /** A person with two sessions, a direct MCP token and an OAuth grant, each shown to work. */
  async function withEveryCredential(handle: string, email?: string) {
    const b = browser(t.url);
    const made = await b.post('/api/auth/signup', { handle, password, ...(email && { email }) });
    assert.equal(made.status, 201, made.text);
    const person: Person = { browser: b, accountId: made.json.accountId, agentId: made.json.agentId };
    const second = browser(t.url);
    assert.equal((await second.post('/api/auth/signin', { identifier: handle, password })).status, 200);
    const direct = await issueToken(person, { scopes: ['svc.profile.read'] });
    const oauth = await connect(person);
    for (const bearer of [direct.token, oauth.access_token]) assert.equal(await mcpPing(t.url, bearer), 200);
    assert.equal((await b.get('/api/auth/me')).status, 200);
    return { person, browsers: [b, second], direct, oauth };
  }

  /** Every credential listed is refused now. */
  async function allEnded(c: Awaited<ReturnType<typeof withEveryCredential>>) {
    for (const b of c.browsers) assert.equal((await b.get('/api/auth/me')).status, 401, 'a session survived');
    assert.equal(await mcpPing(t.url, c.direct.token), 401, 'the MCP token survived');
    assert.equal(await mcpPing(t.url, c.oauth.access_token), 401, 'the OAuth access token survived');
    await assert.rejects(
      oidc.refreshTokenGrant(config, c.oauth.refresh_token!),
      (e) => oauthCode(e) === 'invalid_grant',
      'the refresh token survived',
    );
  }

  test('given a person with sessions, an MCP token and an OAuth grant, when they reset their password, then all of them end and the answer says how many', async () => {
    const c = await withEveryCredential('bob', 'bob@example.org');
    assert.equal(
      (await browser(t.url).post('/api/auth/password-reset', { email: 'bob@example.org' })).status,
      202,
    );
    await smtp.waitFor((m) => m.some((x) => x.to.includes('bob@example.org')));
    const mail = smtp.messages.find((x) => x.to.includes('bob@example.org'))!;
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1]!;
    const done = await browser(t.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'a whole new password',
    });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(done.json.result, { reset: true, sessionsEnded: 2, tokensRevoked: 2, grantsRevoked: 1 });
    await allEnded(c);
    const signIn = await browser(t.url).post('/api/auth/signin', {
      identifier: 'bob',
      password: 'a whole new password',
    });
    assert.equal(signIn.status, 200, 'the new password signs in');
  });

  test('given an operator, when they disable an account over REST, then it cannot sign in, every credential it held ended in the same commit, and enabling it lets the password in again', async () => {
    const c = await withEveryCredential('cyd');
    const disabled = await operator.browser.post('/api/ops/svc.admin.disable_account', {
      account: 'cyd',
      reason: 'reported for abuse',
    });
    assert.equal(disabled.status, 201, disabled.text);
    assert.deepEqual(disabled.json.result, {
      accountId: c.person.accountId,
      disabled: true,
      alreadyDisabled: false,
      sessionsEnded: 2,
      tokensRevoked: 2,
      grantsRevoked: 1,
    });
    await allEnded(c);
    // One commit: the account's change and every ending were written in one transaction.
    const { rows } = await t.instance.pool.query<{ type: string; n: string }>(
      `SELECT type, count(*) AS n FROM events
        WHERE xmin = (SELECT xmin FROM events WHERE type = 'account.disabled' AND stream = $1)
        GROUP BY type ORDER BY type`,
      [`account-${c.person.accountId}`],
    );
    assert.deepEqual(
      Object.fromEntries(
        rows.filter((r) => r.type !== 'provenance.recorded').map((r) => [r.type, Number(r.n)]),
      ),
      {
        'account.disabled': 1,
        'mcp_token.revoked': 2,
        'oauth_family.revoked': 1,
        'session.ended': 2,
        'sso.authority_revoked': 1,
      },
    );

    const refused = await browser(t.url).post('/api/auth/signin', { identifier: 'cyd', password });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.code, 'account.disabled');
    assert.deepEqual(refused.headers.getSetCookie(), [], 'no session');
    const wrong = await browser(t.url).post('/api/auth/signin', {
      identifier: 'cyd',
      password: 'wrong password!!',
    });
    assert.equal(
      wrong.json.code,
      'auth.invalid_credentials',
      'only the right password learns it is disabled',
    );
    const again = await operator.browser.post('/api/ops/svc.admin.disable_account', { account: 'cyd' });
    assert.equal(again.json.result.alreadyDisabled, true);

    const enabled = await operator.browser.post('/api/ops/svc.admin.enable_account', { account: 'cyd' });
    assert.equal(enabled.status, 201, enabled.text);
    assert.equal(
      (await browser(t.url).post('/api/auth/signin', { identifier: 'cyd', password })).status,
      200,
    );
    // Nothing it held before comes back.
    assert.equal(await mcpPing(t.url, c.direct.token), 401);
  });

  test('given refusals, then a non-operator, an operator’s account and an unknown account are refused with codes and nothing is written', async () => {
    const dee = await signUp(t.url, 'dee');
    await t.instance.sequencer.drain();
    const count = async () =>
      Number((await t.instance.pool.query('SELECT count(*) AS n FROM events')).rows[0].n);
    const before = await count();
    const notOperator = await dee.browser.post('/api/ops/svc.admin.disable_account', { account: 'opal' });
    assert.equal(notOperator.status, 403, notOperator.text);
    assert.equal(notOperator.json.code, 'auth.controller_only');
    const ofOperator = await operator.browser.post('/api/ops/svc.admin.disable_account', { account: 'opal' });
    assert.equal(ofOperator.status, 409, ofOperator.text);
    assert.equal(ofOperator.json.code, 'account.is_operator');
    const unknown = await operator.browser.post('/api/ops/svc.admin.disable_account', { account: 'nobody' });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.json.code, 'account.not_found');
    await t.instance.sequencer.drain();
    assert.equal(await count(), before, 'nothing was written');
    assert.equal((await dee.browser.get('/api/auth/me')).status, 200);
  });

  test('given an operator’s MCP token, when svc.admin.disable_account is called as a tool, then the account’s credentials end and the result says how many', async () => {
    const c = await withEveryCredential('eve');
    const { token } = await issueToken(operator, { scopes: ['svc.admin'] });
    const client = await mcpClient(t.url, { bearer: token });
    try {
      const result = await client.callTool({
        name: 'svc.admin.disable_account',
        arguments: { account: 'eve' },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const out = structured(result);
      assert.deepEqual(
        [out.sessionsEnded, out.tokensRevoked, out.grantsRevoked, out.alreadyDisabled],
        [2, 2, 1, false],
      );
    } finally {
      await client.close();
    }
    await allEnded(c);
  });

  test('given the operator’s accounts page, when the operator disables an account there, then the page says how many credentials ended', async () => {
    const c = await withEveryCredential('fay');
    const page = await fetch(`${t.url}/operator/accounts`, { headers: { cookie: operator.browser.cookie } });
    const pageHtml = await page.text();
    assert.equal(page.status, 200, pageHtml);
    const fields = formFields(pageHtml, '/operator/accounts/disable');
    const posted = await fetch(`${t.url}/operator/accounts/disable`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: operator.browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: t.url,
      },
      body: new URLSearchParams({ ...fields, account: 'fay', reason: 'test' }),
    });
    assert.equal(posted.status, 303, await posted.text());
    const shown = await fetch(new URL(posted.headers.get('location')!, t.url), {
      headers: { cookie: operator.browser.cookie },
    });
    const shownHtml = await shown.text();
    assert.match(shownHtml, /2 sessions, 2 tokens and 1 app connection ended/);
    await allEnded(c);
  });
});
