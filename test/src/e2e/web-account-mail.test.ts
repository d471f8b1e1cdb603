// The pages the account mails link to, in a real browser with a real SMTP server on loopback: sign up
// with an email, ask for a verification mail from /home, follow the link in the mail, verify; forget the
// password on /signin, follow the reset link, set a new password, sign in with it. A used link shows a
// clear error. The token never stays in the address bar, never goes out as a Referer and is in no log
// line. Each step is checked on the instance (its read models, the sign-in routes).
import { browser as apiClient, eventually, startTestSmtpServer, type TestSmtpServer } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, test } from 'vitest';
import type { Response } from 'playwright-core';
import { checkPage, PASSWORD, signInInBrowser, webSuite, type WebSuiteOptions } from './web-kit.js';

let smtp: TestSmtpServer;
const logLines: string[] = [];
const withMailServer: WebSuiteOptions = {
  instance: async () => {
    smtp = await startTestSmtpServer();
    return { env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '100', MAIL_FROM: 'no-reply@inst.test' }, logLines };
  },
  end: 'destroy',
};

webSuite('verify-email and reset-password pages in a real browser', withMailServer, (web) => {
  afterAll(async () => {
    await smtp?.close();
  });

  /** The link of the `n`th mail to `address`, as the mail's plain text has it. */
  const linkIn = async (address: string, n: number) => {
    await smtp.waitFor((m) => m.filter((x) => x.to.includes(address)).length >= n);
    const mail = smtp.messages.filter((x) => x.to.includes(address))[n - 1]!;
    const m = /(https?:\/\/\S+)\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '');
    assert.ok(m, mail.parsed.text);
    return { link: m[0], path: new URL(m[1]!).pathname, token: m[2]!, subject: mail.parsed.subject ?? '' };
  };
  const accountOf = async (handle: string) => {
    const a = await web.t.instance.services.accounts.read.accountByIdentifier(handle);
    assert.ok(a, handle);
    return a;
  };
  /** The response to the link itself: a redirect to the same path without the token. */
  const assertLinkAnswer = (r: Response | null, link: string, path: string) => {
    assert.equal(r?.request().redirectedFrom()?.url(), link, 'the link answered a redirect');
    assert.equal(new URL(r!.url()).pathname, path);
    assert.equal(new URL(r!.url()).search, '', 'no token in the address bar');
  };

  test('given an unverified address, when the person asks on /home and opens the mailed link (in a browser with scripts off), then the address is verified, once', async () => {
    const w = await web.page();
    const { page } = w;
    await page.goto(`${web.t.url}/signup`);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Handle').fill('ada');
    await page.getByLabel('Email (optional)').fill('ada@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${web.t.url}/home`);
    await page.getByText('not verified').waitFor();
    assert.equal((await accountOf('ada')).emailVerifiedAt, null);
    await checkPage(w, 'account-home-unverified');

    await page.getByRole('button', { name: 'Send a verification email' }).click();
    await page.getByText('We sent a verification link').waitFor();
    await checkPage(w, 'account-verification-sent');
    const { link, path, token, subject } = await linkIn('ada@example.org', 1);
    assert.match(subject, /^Confirm your email address/);
    assert.equal(path, '/account/verify-email');

    // The link opened where the mail is read: another browser, no session, scripts off. Opening it
    // verifies nothing by itself (a mail scanner fetching it changes nothing).
    const mailTab = await web.page({ javaScriptEnabled: false });
    const seen: { url: string; policy?: string }[] = [];
    mailTab.page.on('response', (r) => {
      if (r.url().includes('/account/')) seen.push({ url: r.url(), policy: r.headers()['referrer-policy'] });
    });
    const referers: string[] = [];
    mailTab.page.on('request', (r) => {
      const ref = r.headers()['referer'];
      if (ref) referers.push(ref);
    });
    const answer = await mailTab.page.goto(link);
    assertLinkAnswer(answer, link, '/account/verify-email');
    assert.equal(seen[0]?.url, link);
    assert.equal(seen[0]?.policy, 'no-referrer', 'the URL with the token answers with no-referrer');
    await mailTab.page.getByRole('button', { name: 'Verify my email address' }).waitFor();
    assert.equal((await accountOf('ada')).emailVerifiedAt, null, 'opening the link verified nothing');
    await mailTab.page.getByRole('button', { name: 'Verify my email address' }).click();
    await mailTab.page.getByText('Your email address is verified.').waitFor();
    assert.ok((await accountOf('ada')).emailVerifiedAt, 'the read model has the address verified');
    assert.ok(!referers.some((r) => r.includes(token)), 'no Referer carries the token');
    assert.deepEqual(mailTab.errors, []);
    await mailTab.context.close();

    // The same link again (scripts on now): the page offers the button, and posting it shows a clear error.
    await page.goto(link);
    await checkPage(w, 'account-verify');
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.getByText('This link does not work.').waitFor();
    assert.equal(await page.locator('code', { hasText: 'mail.token_invalid' }).count(), 1);
    await checkPage(w, 'account-verify-used');

    // Home says verified and offers no new mail.
    await page.goto(`${web.t.url}/home`);
    await page.getByText('verified', { exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Send a verification email' }).count(), 0);
    assert.ok(!logLines.some((l) => l.includes(token)), 'the token is in no log line');
    await w.context.close();
  });

  test('given a forgotten password, when the person asks on the page and follows the mailed link, then the new password signs in and the link works once', async () => {
    // Bob, with two sessions open: the reset ends them.
    const bob = apiClient(web.t.url);
    assert.equal(
      (await bob.post('/api/auth/signup', { handle: 'bob', email: 'bob@example.org', password: PASSWORD }))
        .status,
      201,
    );
    const w = await web.page();
    const { page } = w;
    await signInInBrowser(page, web.t.url, 'bob');
    await page.context().clearCookies();

    await page.goto(`${web.t.url}/signin`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${web.t.url}/account/forgot-password`);
    await checkPage(w, 'account-forgot');

    // A malformed address is refused under the field; nothing is sent.
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.locator('.field.has-error').waitFor();
    await checkPage(w, 'account-forgot-error');

    await page.getByLabel('Email').fill('Bob@Example.org');
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByText('If an account has that address').waitFor();
    await checkPage(w, 'account-forgot-sent');
    const { link, path, token, subject } = await linkIn('bob@example.org', 1);
    assert.match(subject, /^Reset your password/);
    assert.equal(path, '/account/reset-password');

    const policies: (string | undefined)[] = [];
    page.on('response', (r) => {
      if (r.url().includes('token=')) policies.push(r.headers()['referrer-policy']);
    });
    const answer = await page.goto(link);
    assertLinkAnswer(answer, link, '/account/reset-password');
    assert.deepEqual(policies, ['no-referrer']);
    await checkPage(w, 'account-reset');

    // Too short: refused under the field, and the link still works.
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Please correct the field marked below.').waitFor();
    await checkPage(w, 'account-reset-error');

    await page.getByLabel('New password').fill('a whole new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(
      (u) => u.pathname === '/signin' && u.searchParams.get('notice') === 'password-reset',
    );
    await page.getByText('Your password is changed').waitFor();
    // The page says what the reset ended: both of Bob's sessions.
    await page.getByText('2 sessions, 0 tokens and 0 app connections ended.').waitFor();
    await checkPage(w, 'account-reset-done');
    assert.equal((await bob.get('/api/auth/me')).status, 401, 'the open session ended');
    assert.equal(
      (await apiClient(web.t.url).post('/api/auth/signin', { identifier: 'bob', password: PASSWORD })).status,
      401,
      'the old password no longer works',
    );

    await signInInBrowser(page, web.t.url, 'bob@example.org', 'a whole new password');
    const me = await page.request.get(`${web.t.url}/api/auth/me`);
    assert.equal(me.status(), 200);
    await page.context().clearCookies();

    // The same link again: it shows that it does not work and offers a new one; nothing changes.
    await page.goto(link);
    await page.getByLabel('New password').fill('yet another password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('This link does not work.').waitFor();
    assert.equal(await page.locator('code', { hasText: 'mail.token_invalid' }).count(), 1);
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await checkPage(w, 'account-reset-used');
    await eventually(
      'the new password still signs in',
      async () =>
        (
          await apiClient(web.t.url).post('/api/auth/signin', {
            identifier: 'bob',
            password: 'a whole new password',
          })
        ).status === 200,
    );

    // A link with a mangled token: the page says it does not work.
    await page.goto(`${web.t.url}/account/reset-password?token=%3Cscript%3E`);
    await page.getByText('This link does not work.').waitFor();
    assert.ok(!logLines.some((l) => l.includes(token)), 'the token is in no log line');
    await w.context.close();
  });
});
