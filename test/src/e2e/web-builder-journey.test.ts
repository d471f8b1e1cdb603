// The builder from a new person's side, end to end in Chromium (docs/builder.md#journey): a site from a
// template (the editor opens on its preview and says its placeholder links are to replace), blocks
// reordered by keyboard (said in the live region) and by dragging, published and seen at once by the same
// browser (pages revalidate: no-cache and the content's ETag), a mistake published, rolled back and
// restored into the draft (the preview shows it); the site's
// 404 wears its theme. (The visitor's form and the unread count are in web-builder-visitor.test.ts and
// builder-forms.test.ts; a browser pass over them is not here yet.) Every
// page through axe and screenshots at 390 and 1280 px.
import { chromiumAvailable, eventually, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkPage, editorAnswered, launchBrowser, newWatchedPage, signUpInBrowser } from './web-kit.js';

describe.skipIf(!chromiumAvailable())('the builder journey in a real browser', () => {
  let t: TestInstance;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestInstance();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  const blockTitles = (page: Page) =>
    page.locator('ol[data-reorder] > li.block .block-head h3').allTextContents();

  test('given a new person, when they build, publish, fix a mistake and get a message, then every step shows where they stand', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    const services = t.instance.services;
    await signUpInBrowser(page, t.url, 'mira', { name: 'Mira' });

    // A site from the portfolio template: the editor opens on its preview, and names the placeholders.
    await page.goto(`${t.url}/builder`);
    await page.getByLabel('Title').fill('Mira Draws');
    await page.getByRole('radio', { name: /A portfolio/ }).check();
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    const siteId = /\/builder\/sites\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.frameLocator('iframe[data-preview]').getByRole('heading', { level: 1 }).first().waitFor();
    await page.locator('[data-field=placeholder-links]').waitFor();

    // Reorder by keyboard: focus the second block's handle, Alt+↑; the live region says it.
    const before = await blockTitles(page);
    assert.ok(before.length >= 3, `the template has blocks: ${before.join(', ')}`);
    const handles = page.locator('ol[data-reorder] > li.block [data-handle]');
    await handles.nth(1).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page
      .locator('[data-reorder-status]')
      .getByText(/moved to position 1 of/)
      .waitFor();
    const strip = (titles: string[]) => titles.map((x) => x.replace(/^\d+\.\s*/, ''));
    assert.deepEqual(strip(await blockTitles(page)), strip([before[1]!, before[0]!, ...before.slice(2)]));
    await eventually('the move is in the draft', async () => {
      const d = await services.builder.read.draft(siteId);
      return JSON.stringify(d!.document.pages[0]!.blocks[0]) !== JSON.stringify(null) && d!.revision >= 2;
    });
    // The preview is made again from the moved draft, as after any save (the first block it shows is
    // the one moved up); focus stays on the moved block's handle; every form carries the new revision.
    const revision = (await services.builder.read.draft(siteId))!.revision;
    await page.locator(`iframe[data-preview][data-preview-revision="${revision}"]`).waitFor();
    // The portfolio's text block now comes before its title heading, in the preview too.
    const shown = (await page.frameLocator('iframe[data-preview]').locator('main').textContent()) ?? '';
    const [text, title] = [shown.indexOf('Say in one line'), shown.indexOf('Mira Draws')];
    assert.ok(text >= 0 && title > text, `the preview shows the new order: ${shown.slice(0, 120)}`);
    await page.getByText(/^Saved \d/).waitFor();
    assert.equal(await page.evaluate('document.activeElement?.hasAttribute("data-handle")'), true);
    assert.equal(await page.locator('input[name=revision]').first().inputValue(), String(revision));
    // The move can be undone from the edit bar straight away (it was disabled on the new site).
    assert.equal(
      await page.getByRole('button', { name: 'Undo the last change to the draft' }).isDisabled(),
      false,
    );

    // Reorder by dragging the first block's handle below the third block.
    const moving = strip(await blockTitles(page))[0]!;
    await handles.nth(0).dragTo(page.locator('ol[data-reorder] > li.block').nth(2), {
      targetPosition: { x: 40, y: 60 },
    });
    await page
      .locator('[data-reorder-status]')
      .getByText(/moved to position/)
      .waitFor();
    await eventually(
      'the dragged block is further down',
      async () => strip(await blockTitles(page)).indexOf(moving) > 0,
    );
    const dragged = (await services.builder.read.draft(siteId))!;
    assert.equal(dragged.document.pages[0]!.blocks.length, before.length);
    await page.locator(`iframe[data-preview][data-preview-revision="${dragged.revision}"]`).waitFor();
    await checkPage(w, 'builder-journey-editor');

    // Without reloading, an edit in another block's form still saves over the right revision.
    await page.reload();
    assert.deepEqual(
      strip(await blockTitles(page)).indexOf(moving) > 0,
      true,
      'the order held over a reload',
    );

    // Publish: the address comes from the title and the same browser sees the site at once.
    const publish = async (note: string) => {
      await page.getByRole('link', { name: 'Publish and versions' }).first().click();
      await page.getByLabel('Note (optional)').fill(note);
      await page.getByRole('button', { name: 'Publish the draft' }).click();
      await page.getByText('Published: the site now serves this draft.').waitFor();
    };
    const addText = async (words: string) => {
      const section = page.locator('details.add-block', {
        has: page.locator('summary', { hasText: 'Add text' }),
      });
      await section.locator('summary').click();
      await section.getByLabel('Text').fill(words);
      await section.getByRole('button', { name: 'Add text' }).click();
      await editorAnswered(page);
    };
    await publish('First look');
    await checkPage(w, 'builder-journey-published');
    const pathUrl = `${t.url}/sites/mira-draws/`;
    const site = await newWatchedPage(browser);
    await site.page.goto(pathUrl);
    await site.page.getByRole('link', { name: 'Mira Draws' }).first().waitFor();
    const first = await fetch(pathUrl);
    assert.equal(first.headers.get('cache-control'), 'public, no-cache');
    const etag = first.headers.get('etag')!;
    const again = await fetch(pathUrl, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304, 'an unchanged page is a 304');

    // A mistake, published: the same browser tab sees it on reload, no waiting for a max-age.
    await page.getByRole('link', { name: 'Edit' }).first().click();
    await addText('All drawings are free today.');
    await publish('Oops');
    await site.page.reload();
    await site.page.getByText('All drawings are free today.').waitFor();

    // Roll back, then restore the live version into the draft: the editor's preview shows it at once.
    await page.getByRole('button', { name: /^Go back to this version/ }).click();
    await page.getByText('Rolled back: the site serves').waitFor();
    await site.page.reload();
    assert.equal(
      await site.page.getByText('All drawings are free today.').count(),
      0,
      'the rollback is seen at once',
    );
    await page.getByRole('button', { name: 'Restore the live version into the draft' }).click();
    await page.getByText('Restored: the draft now matches the live site; nothing to publish.').waitFor();
    await page.frameLocator('iframe[data-preview]').getByRole('heading', { level: 1 }).first().waitFor();
    assert.equal(
      await page.frameLocator('iframe[data-preview]').getByText('All drawings are free today.').count(),
      0,
    );
    await checkPage(w, 'builder-journey-restored');

    // The site's 404 wears its theme and header.
    await site.page.goto(`${pathUrl}no/such/page`);
    await site.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await site.page.getByRole('link', { name: 'Mira Draws' }).first().waitFor();
    assert.equal(await site.page.title(), 'Page not found – Mira Draws');
    const styled = await site.page.evaluate('document.querySelector("link[rel=stylesheet]")?.sheet != null');
    assert.equal(styled, true, 'the stylesheet loaded on the 404');
    await site.page.getByRole('link', { name: 'Go to the home page' }).click();
    await site.page.waitForURL(pathUrl);
    await site.context.close();
  });
});
