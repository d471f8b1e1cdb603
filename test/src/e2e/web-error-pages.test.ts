// What a browser sees when it lands on an error (docs/web.md#error-pages): a page in plain words with a
// link home and the code in small print, the status kept, through axe and the HTML check like any page.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, signUpInBrowser, webSuite } from './web-kit.js';

webSuite('error pages in a browser', (web) => {
  test('given a visitor and then a signed-in person on an unknown address or a refused method, then a readable page links them home', async () => {
    const w = await web.page();
    const { page } = w;
    const missing = await page.goto(`${web.t.url}/no/such/page`);
    assert.equal(missing?.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(await page.locator('[data-error-code]').textContent(), 'route.not_found');
    assert.equal(await page.getByRole('link', { name: 'Go to the start page' }).getAttribute('href'), '/');
    await checkPage(w, 'error-not-found');

    const refused = await page.goto(`${web.t.url}/api/auth/signup`);
    assert.equal(refused?.status(), 405);
    assert.equal(await page.locator('[data-error-code]').textContent(), 'route.method_not_allowed');
    await checkPage(w, 'error-method');

    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada Lovelace' });
    await page.goto(`${web.t.url}/home/nothing-here`);
    await page.getByRole('link', { name: 'Go to your home page' }).click();
    await page.waitForURL(`${web.t.url}/home`);
    await w.context.close();
  });
});
