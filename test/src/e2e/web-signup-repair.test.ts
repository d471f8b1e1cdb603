// Sign-up repairs what it can, in a real browser: a handle typed `Ada` becomes `ada` and the page says
// so; an email address or a handle someone already has offers signing in and resetting the password,
// keeps the password typed (it was not the problem), and creates nothing.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { checkPage, PASSWORD, webSuite } from './web-kit.js';

webSuite('sign-up repairs what it can', (web) => {
  const fill = async (page: Page, o: { name: string; handle: string; email: string }) => {
    await page.goto(`${web.t.url}/signup`);
    await page.getByLabel('Your name').fill(o.name);
    await page.getByLabel('Handle').fill(o.handle);
    await page.getByLabel('Email (optional)').fill(o.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
  };
  const accounts = async () =>
    Number(
      (
        await web.t.instance.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM events WHERE type = 'account.registered'`,
        )
      ).rows[0]!.n,
    );

  test('given a handle typed with capitals, when a person signs up, then it becomes lowercase and the home page says so', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await fill(page, { name: 'Ada Lovelace', handle: 'Ada', email: 'ada@example.org' });
    await page.waitForURL(`${web.t.url}/home?notice=handle-lowercased`);
    await page.locator('.notice').getByText('@ada').waitFor();
    assert.equal((await web.t.instance.services.accounts.read.accountByIdentifier('ada'))?.handle, 'ada');
    await checkPage(w, 'signup-handle-lowercased');
    await w.context.close();
  });

  test('given an email address or a handle already taken, when someone signs up with it, then the page offers sign-in and a reset, keeps the password, and creates nothing', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    const before = await accounts();

    await fill(page, { name: 'Ada again', handle: 'ada_two', email: 'ada@example.org' });
    await page.locator('[data-error-code="account.email_taken"]').waitFor();
    const alert = page.getByRole('alert');
    assert.equal(await alert.getByRole('link', { name: 'sign in' }).getAttribute('href'), '/signin');
    assert.equal(
      await alert.getByRole('link', { name: 'reset your password' }).getAttribute('href'),
      '/account/forgot-password',
    );
    assert.equal(await page.getByLabel('Password').inputValue(), PASSWORD, 'the password is kept');
    assert.equal(await page.getByLabel('Handle').inputValue(), 'ada_two');
    await checkPage(w, 'signup-email-taken');

    // `ADA` is `ada`, which is taken.
    await fill(page, { name: 'Another Ada', handle: 'ADA', email: 'another@example.org' });
    await page.locator('[data-error-code="agent.handle_taken"]').waitFor();
    assert.equal(await page.getByLabel('Handle').inputValue(), 'ada');
    assert.equal(await page.getByLabel('Password').inputValue(), PASSWORD);
    await checkPage(w, 'signup-handle-taken');

    // A handle with a space cannot be repaired by lowercasing: the page says what is wrong in words (not
    // the schema's "handle: …"), suggests one that works, keeps what was typed, and never says "yours is".
    await fill(page, { name: 'Ada Bakery', handle: 'Ada Bakery', email: 'bakery@example.org' });
    await page
      .getByText(
        '“Ada Bakery” cannot be a handle: use only a–z, 0–9 and _ (no spaces or other signs), 3–30 characters, starting with a letter. Try “ada_bakery”.',
      )
      .waitFor();
    assert.equal(await page.getByLabel('Handle').inputValue(), 'Ada Bakery');
    assert.equal(await page.getByText('Handles are in lowercase').count(), 0);
    assert.equal(await page.getByText('handle: 3–30').count(), 0);
    await checkPage(w, 'signup-handle-invalid');

    assert.equal(await accounts(), before, 'no account was created');
    assert.equal(await web.t.instance.services.accounts.read.accountByIdentifier('ada_two'), null);
    await w.context.close();
  });
});
