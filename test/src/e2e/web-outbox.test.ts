// Mail on an instance with no mail server, in a real browser: the pages say nothing was mailed (never
// "check your inbox"), the operator's settings say there is no mail server, and the operator's outbox
// lists the message the instance would have sent, with its verification link clickable — which, followed,
// verifies the address. A member is refused the outbox on the page and over REST, and reads nothing.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, PASSWORD, signInInBrowser, webSuite } from './web-kit.js';

// No SMTP_URL: messages go to the log and the outbox.
const noMailServer = { instance: { env: { MAIL_POLL_MS: '100' } } };

webSuite('the outbox of an instance with no mail server', noMailServer, (web) => {
  test('given no mail server, when a person asks for a verification mail, then the page says so and the operator follows the link from the outbox', async () => {
    const w = await web.page();
    const { page } = w;
    await page.goto(`${web.t.url}/signup`);
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Handle').fill('ada');
    await page.getByLabel('Email (optional)').fill('ada@example.org');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${web.t.url}/home`);
    // The first account became the operator: the home page says it was the reader.
    const granted = page.locator('#events tr', {
      has: page.locator('code[data-event-type]', { hasText: 'instance.controller_granted' }),
    });
    await eventually('the grant on the home page', async () => {
      await page.goto(`${web.t.url}/home`);
      return (await granted.count()) > 0;
    });
    assert.match(
      (await granted.first().locator('td').first().textContent()) ?? '',
      /You became the operator/,
    );

    await page.getByRole('button', { name: 'Send a verification email' }).click();
    await page.waitForURL(`${web.t.url}/home?notice=verification-logged`);
    assert.equal(await page.getByText('We sent a verification link').count(), 0, 'no word of a mail sent');
    await page.getByRole('link', { name: 'Open the outbox' }).waitFor();
    await checkPage(w, 'outbox-home-notice');

    // The operator's settings do not claim mail is running.
    await page.goto(`${web.t.url}/operator/settings`);
    await page.locator('#now').getByText('no mail server').waitFor();

    await page.goto(`${web.t.url}/operator/outbox`);
    const message = page.locator('.outbox-message').first();
    await message.getByText('ada@example.org').waitFor();
    await checkPage(w, 'outbox');
    const link = message.getByRole('link', { name: /\/account\/verify-email\?token=/ });
    assert.equal(await link.count(), 1, 'the verification link is clickable');
    const account = () => web.t.instance.services.accounts.read.accountByIdentifier('ada');
    assert.equal((await account())?.emailVerifiedAt, null);
    await link.click();
    await page.waitForURL(`${web.t.url}/account/verify-email`);
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.getByText('Your email address is verified.').waitFor();
    assert.ok((await account())?.emailVerifiedAt, 'the address is verified on the instance');
    await checkPage(w, 'outbox-link-followed');
    await w.context.close();
  });

  test('given no mail server, when the operator reads their home page, then the mail is one line saying it went to the outbox, their becoming operator is theirs, and a token is named', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await signInInBrowser(page, web.t.url, 'ada');
    await page.goto(`${web.t.url}/access`);
    await page.getByLabel('What it is for').fill('laptop agent');
    await page.getByRole('checkbox', { name: /svc\.profile\.read/ }).check();
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('[data-secret]').waitFor();

    const rowOf = (type: string) =>
      page.locator('#events tr', { has: page.locator('code[data-event-type]', { hasText: type }) });
    await eventually('the token on the home page', async () => {
      await page.goto(`${web.t.url}/home`);
      return (await rowOf('mcp_token.issued').count()) > 0 && (await rowOf('mail.sent').count()) > 0;
    });
    const sentence = async (type: string) =>
      (await rowOf(type).first().locator('td').first().textContent())?.trim() ?? '';
    assert.match(await sentence('mcp_token.issued'), /^The token “laptop agent” was issued to an agent/);
    assert.match(await sentence('mail.sent'), /^An email was written to the outbox/);
    assert.equal(await page.getByText('An email was sent').count(), 0, 'no word of a mail sent');
    // The mail's steps (asked for, a link made, sending, written) are one line.
    const mailRows = await page
      .locator('#events code[data-event-type]')
      .evaluateAll((els) => els.map((e) => e.textContent?.trim() ?? '').filter((x) => x.startsWith('mail.')));
    assert.deepEqual(
      mailRows.filter((x) => x !== 'mail.token_used'),
      ['mail.sent'],
      mailRows.join(' '),
    );
    await checkPage(w, 'outbox-home-events');
    await w.context.close();
  });

  test('given a member, when they open the outbox or call its operation, then they are refused and read nothing', async () => {
    const w = await web.signedUp('mallory');
    const { page } = w;
    const answer = await page.goto(`${web.t.url}/operator/outbox`);
    assert.equal(answer?.status(), 403);
    assert.equal(await page.locator('.outbox-message').count(), 0);
    const api = await page.request.post(`${web.t.url}/api/ops/svc.mail.list_outbox`, {
      data: {},
      headers: { origin: web.t.url },
    });
    assert.equal(api.status(), 403);
    assert.equal(((await api.json()) as { code: string }).code, 'auth.controller_only');
    await w.context.close();
  });
});
