// A password reset on a delegating sovereign (docs/sso.md#password-reset, docs/mail.md#accounts), through
// a global and a person instance on loopback and a real SMTP server: an account linked to its global
// agent has its password checked at the global instance, so asking for a reset mails a link to the global
// instance's own reset page (no local token), and a local token issued before the link is refused
// 409 sso.password_held_at_home with nothing changed; an unlinked local account still resets here.
import { browser, chromiumAvailable, startTestSmtpServer, type TestSmtpServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { launchBrowser } from '../e2e/web-kit.js';
import { register, startNode, type Node } from './federation-helpers.js';

const SYNC_ENV = {
  FEDERATION_SYNC: 'on',
  FEDERATION_SWEEP_MS: '50',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
  FEDERATION_QUEUE: 'in-process',
  RATE_LIMIT_SSO: '10000/min',
  RATE_LIMIT_AUTH: '10000/min',
};

describe('password reset on a delegating sovereign', () => {
  let smtp: TestSmtpServer;
  let g: Node;
  let p: Node;
  let oldToken: string;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    const mailEnv = { SMTP_URL: smtp.url, MAIL_POLL_MS: '100' };
    [g, p] = await Promise.all([
      startNode('global', 'Global', { ...SYNC_ENV, ...mailEnv }),
      startNode('person', 'Fay’s place', { ...SYNC_ENV, ...mailEnv, SSO_DELEGATION: 'on' }),
    ]);
    // Older local accounts, made before this instance knew the global one.
    for (const email of ['old@example.org', 'un@example.org'])
      assert.equal(
        (await browser(p.url).post('/api/auth/signup', { email, password: 'a local password' })).status,
        201,
      );
    // Old asks for a reset while still unlinked: a local link, kept for later.
    assert.equal(
      (await browser(p.url).post('/api/auth/password-reset', { email: 'old@example.org' })).status,
      202,
    );
    oldToken = tokenIn(await mailTo('old@example.org', 1), p.url);
    await register(g, p);
    await register(p, g);
    // Old's first delegated sign-in links the account to the global person of that address.
    assert.equal(
      (
        await browser(g.url).post('/api/auth/signup', {
          email: 'old@example.org',
          password: 'old global password',
        })
      ).status,
      201,
    );
    const signin = await browser(p.url).post('/api/auth/signin', {
      identifier: 'old@example.org',
      password: 'old global password',
    });
    assert.equal(signin.status, 200, signin.text);
    // Lin signs up through the sovereign: made at the global instance, linked here.
    const lin = await browser(p.url).post('/api/auth/signup', {
      email: 'lin@example.org',
      password: 'lin global password',
    });
    assert.equal(lin.status, 201, lin.text);
    const links = await p.instance.instance.pool.query<{ email: string }>(
      `SELECT a.email FROM rm_sso_account_links l JOIN rm_accounts a USING (account_id) ORDER BY a.email`,
    );
    assert.deepEqual(
      links.rows.map((r) => r.email),
      ['lin@example.org', 'old@example.org'],
    );
  }, 180_000);
  afterAll(async () => {
    await p?.instance.destroy();
    await g?.instance.destroy();
    await smtp?.close();
  });

  const mailTo = async (address: string, n: number) => {
    await smtp.waitFor((m) => m.filter((x) => x.to.includes(address)).length >= n);
    return smtp.messages.filter((x) => x.to.includes(address))[n - 1]!.parsed.text ?? '';
  };
  const tokenIn = (text: string, base: string) => {
    const link = /https?:\/\/\S+token=([A-Za-z0-9_-]+)/.exec(text);
    assert.ok(link, text);
    assert.ok(link[0].startsWith(`${base}/account/reset-password`), link[0]);
    return link[1]!;
  };
  const count = async (sql: string, values: unknown[] = []) =>
    Number((await p.instance.instance.pool.query<{ n: string }>(sql, values)).rows[0]!.n);
  const tokensFor = (email: string) =>
    count(
      `SELECT count(*) AS n FROM events WHERE type = 'mail.token_issued' AND envelope::jsonb -> 'data' ->> 'email' = $1`,
      [email],
    );

  test('given a linked account, when a reset is asked for, then the mail points at the global instance’s forgot-password page and no local token is issued', async () => {
    for (const [email, n] of [
      ['lin@example.org', 1],
      ['old@example.org', 2],
    ] as const) {
      const tokensBefore = await tokensFor(email);
      const r = await browser(p.url).post('/api/auth/password-reset', { email });
      assert.equal(r.status, 202, r.text);
      assert.deepEqual(r.json.result ?? r.json, { accepted: true });
      const text = await mailTo(email, n);
      assert.ok(text.includes(`${g.url}/account/forgot-password`), text);
      assert.ok(!text.includes('token='), text);
      assert.ok(!text.includes(p.url), 'no link to the sovereign');
      assert.equal(await tokensFor(email), tokensBefore, 'no local reset token');
    }
    // The link in the mail is a real page on the global instance, where the reset happens.
    const page = await browser(g.url).get('/account/forgot-password');
    assert.equal(page.status, 200);
    // The same answer for an address nobody has.
    const nobody = await browser(p.url).post('/api/auth/password-reset', { email: 'nobody@example.org' });
    assert.equal(nobody.status, 202);
  });

  test('given a local token issued before the link, when it is redeemed, then 409 sso.password_held_at_home, nothing changes, and the global password still signs in', async () => {
    const changes = await count(`SELECT count(*) AS n FROM events WHERE type = 'account.password_changed'`);
    const r = await browser(p.url).post('/api/auth/password-reset/confirm', {
      token: oldToken,
      password: 'a brand new password',
    });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.code, 'sso.password_held_at_home');
    assert.equal(r.json.forgotPasswordUrl, `${g.url}/account/forgot-password`);
    assert.equal(
      await count(`SELECT count(*) AS n FROM events WHERE type = 'account.password_changed'`),
      changes,
    );
    assert.equal(await count(`SELECT count(*) AS n FROM events WHERE type = 'mail.token_used'`), 0);
    const stale = await browser(p.url).post('/api/auth/signin', {
      identifier: 'old@example.org',
      password: 'a brand new password',
    });
    assert.equal(stale.status, 401, stale.text);
    const ok = await browser(p.url).post('/api/auth/signin', {
      identifier: 'old@example.org',
      password: 'old global password',
    });
    assert.equal(ok.status, 200, ok.text);
  });

  test('given an unlinked local account on the same sovereign, when a reset is asked for, then the mail holds a working local reset link', async () => {
    const r = await browser(p.url).post('/api/auth/password-reset', { email: 'un@example.org' });
    assert.equal(r.status, 202, r.text);
    const token = tokenIn(await mailTo('un@example.org', 1), p.url);
    const done = await browser(p.url).post('/api/auth/password-reset/confirm', {
      token,
      password: 'un has a new password',
    });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.json.result?.reset ?? done.json.reset, true);
    assert.equal(
      await count(
        `SELECT count(*) AS n FROM events e JOIN rm_accounts a ON e.stream = 'account-' || a.account_id
          WHERE e.type = 'account.password_changed' AND a.email = 'un@example.org'`,
      ),
      1,
    );
  });

  // The page needs a browser; without chromium on the machine there is nothing to drive it with.
  test.skipIf(!chromiumAvailable())(
    'given the same early link opened in a browser, when the new password is set, then the page says the password is held at home and links there, and nothing changes',
    async () => {
      const written = `SELECT count(*) AS n FROM events WHERE type IN ('mail.token_used', 'account.password_changed')`;
      const before = await count(written);
      const chromium = await launchBrowser();
      try {
        const page = await chromium.newPage();
        await page.goto(`${p.url}/account/reset-password?token=${oldToken}`);
        await page.getByLabel('New password').fill('a brand new password');
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Set the new password' }).click(),
        ]);
        assert.equal(answer.status(), 409);
        await page.getByText('held by your home instance').waitFor();
        const href = await page
          .getByRole('link', { name: 'Reset your password at your home instance' })
          .getAttribute('href');
        assert.equal(href, `${g.url}/account/forgot-password`);
        assert.ok((await page.content()).includes('sso.password_held_at_home'));
        assert.equal(await count(written), before, 'nothing written');
      } finally {
        await chromium.close();
      }
    },
  );
});
