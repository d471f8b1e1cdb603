// The settings pages on a phone (390 px): the operator's run-time settings and the assistant's settings
// show every column and value without a sideways scroll (a table that is wider than the screen stacks its
// rows as cards), and their times are in the reader's zone. Both pages through axe and screenshotted.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { checkPage, signUpInBrowser, webSuite } from './web-kit.js';

/** What on the page reaches past the right edge of the screen (tag, class, text), or is scrolled sideways. */
const cutAtTheEdge = (page: Page) =>
  page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width + 1) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
    for (const el of document.querySelectorAll('main *')) {
      if (el.closest('.visually-hidden, pre, .table-wrap:not(.table-stack)')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1) out.push(el.tagName + '.' + el.className + ': ' + (el.textContent || '').trim().slice(0, 40));
    }
    for (const el of document.querySelectorAll('main .table-wrap'))
      if (el.scrollWidth > el.clientWidth + 1) out.push('table scrolls sideways: ' + el.getAttribute('aria-label'));
    return out.slice(0, 10);
  })()`) as Promise<string[]>;

webSuite('the settings pages on a phone', (web) => {
  test('given the operator on a 390 px phone, when the operator and assistant settings open, then nothing is cut at the edge', async () => {
    const w = await web.page({ desktop: false, timezoneId: 'Europe/Paris' });
    const { page } = w;
    await signUpInBrowser(page, web.t.url, 'olga', { name: 'Olga' }); // the first account: the operator

    // A change, so "Last change" shows a time.
    await page.goto(`${web.t.url}/operator/settings`);
    await page.getByLabel('Notice on every page').fill('Maintenance on Sunday.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Maintenance on Sunday.').first().waitFor();
    assert.deepEqual(await cutAtTheEdge(page), [], 'operator settings at 390 px');
    const changed = page.locator('#now time').first();
    assert.equal(await changed.getAttribute('data-zone'), 'Europe/Paris');
    await checkPage(w, 'phone-operator-settings');

    // The assistant reads something (a row in "What the assistant did"), then its settings on the phone.
    await page.goto(`${web.t.url}/assistant`);
    await page.getByLabel('Your message').fill('Which sites do I have?');
    await page.getByRole('button', { name: 'Send' }).click();
    // The streamed answer shows first; then the page goes to the thread's own address, and a goto during
    // that navigation is aborted, so wait until it has arrived.
    await page.waitForURL(/\/assistant\/threads\/[^?]+\?m=/);
    await page.locator('.message-assistant', { hasText: /You have (no sites yet|\d+ sites?)/ }).waitFor();
    await page.waitForLoadState('load');
    await page.goto(`${web.t.url}/assistant/settings`);
    await page.locator('#provenance [data-did-words]').first().waitFor();
    assert.equal(await page.locator('#provenance time').first().getAttribute('data-zone'), 'Europe/Paris');
    assert.deepEqual(await cutAtTheEdge(page), [], 'assistant settings at 390 px');
    await checkPage(w, 'phone-assistant-settings');
    await w.context.close();
  });
});
