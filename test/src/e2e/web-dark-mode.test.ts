// The pages in dark mode: the stylesheet follows the system's colour scheme, so a browser that prefers
// dark gets the dark palette. Every main page, with content on it (a persona, a token shown once, an
// error and a success notice, the operators' notice), goes through axe in dark mode — its colour-contrast
// rule included — and is screenshotted at phone and desktop width (test-artifacts/web/dark-*.png).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, signUpInBrowser, webSuite } from './web-kit.js';

webSuite('the pages in dark mode', (web) => {
  test('given a browser that prefers dark, when a person goes through the main pages, then each is dark, readable and passes axe', async () => {
    const w = await web.page({ colorScheme: 'dark' });
    const { page } = w;
    const visit = async (path: string, name: string) => {
      const r = await page.goto(`${web.t.url}${path}`);
      assert.equal(r?.status(), 200, `${path} answered ${r?.status()}`);
      await checkPage(w, `dark-${name}`);
    };

    await visit('/', 'landing');
    // The dark palette is the one in use: the page's background is dark.
    const bg = (await page.evaluate('getComputedStyle(document.body).backgroundColor')) as string;
    assert.equal(bg, 'rgb(20, 21, 23)', 'the body has the dark background');
    await visit('/signup', 'signup');
    await visit('/account/forgot-password', 'forgot-password');

    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada Lovelace' });
    // A refused form: the error notice and the field's error in dark.
    await page.getByLabel('Name', { exact: true }).fill('Ada the Writer');
    await page.getByLabel('Handle (optional)').fill('x');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.locator('.has-error').first().waitFor();
    await checkPage(w, 'dark-home-error');
    await page.getByLabel('Handle (optional)').fill('ada_writes');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();
    await checkPage(w, 'dark-home');

    await visit('/access', 'access');
    await page.getByLabel('What it is for').fill('laptop agent');
    await page.getByRole('checkbox', { name: /svc\.profile\.read/ }).check();
    await page.getByRole('button', { name: 'Issue token' }).click();
    await page.locator('section.secret').waitFor();
    await checkPage(w, 'dark-access-token');
    await visit('/mcp/apps', 'connected-apps');

    await visit('/builder', 'builder-first-site');
    await page.getByLabel('Title').fill('Ada writes');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    const editor = new URL(page.url()).pathname;
    await visit('/builder', 'builder');
    assert.ok(await page.locator(`a[href="${editor}"]`).count(), 'the site is listed');
    await visit(editor, 'builder-editor');
    await visit('/builder/media', 'builder-media');
    await visit('/builder/forms', 'builder-forms');

    await visit('/assistant', 'assistant');
    await visit('/assistant/settings', 'assistant-settings');
    await visit('/assistant/account', 'assistant-account');
    await visit('/assistant/vault', 'assistant-vault');

    await visit('/operator', 'operator');
    await visit('/operator/sites', 'operator-sites');
    await visit('/operator/log', 'operator-log');
    // The operators' notice on every page, in dark.
    await page.goto(`${web.t.url}/operator/settings`);
    await page.getByLabel('Notice on every page').fill('Planned maintenance on Sunday from 08:00 UTC.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await checkPage(w, 'dark-operator-settings');

    await visit('/docs', 'docs');
    await visit('/docs/tools', 'docs-tools');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await checkPage(w, 'dark-signin');
    assert.equal((await web.t.instance.services.instance.read.get())?.controllers.length, 1);
    await w.context.close();
  });
});
