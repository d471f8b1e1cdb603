// Versions are publishes, in a real browser (docs/builder.md#versions): a person creates a site, edits
// it, previews it (no version appears), publishes it with a note (it gets its address from the title
// and "View site" opens it), makes a mistake and publishes it, rolls back (the page says the draft still
// holds the mistake), restores the live version into the draft, publishes again, and the mistake stays
// gone. Each page goes through axe and is screenshotted at phone and desktop width.
import { chromiumAvailable, eventually, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { checkPage, launchBrowser, newWatchedPage, signUpInBrowser } from './web-kit.js';

/**
 * Asks the site (at its /sites/<label>/ address on the instance) until its page holds `text` (or no
 * longer does): without the browser's cache, which keeps a page for its max-age as a visitor's would.
 */
async function siteShows(url: string, text: string, shown = true) {
  await eventually(`${url} ${shown ? 'shows' : 'no longer shows'} ${text}`, async () => {
    const body = await (await fetch(url)).text();
    return body.includes(text) === shown;
  });
}

describe.skipIf(!chromiumAvailable())('builder versions in a real browser', () => {
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

  test('given a new site, when previewed, published, broken, published, rolled back and restored, then only publishes are versions and the mistake stays gone', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    const services = t.instance.services;
    await signUpInBrowser(page, t.url, 'opal', { name: 'Opal' });
    const addText = async (words: string) => {
      const section = page.locator('details.add-block', {
        has: page.locator('summary', { hasText: 'Add text' }),
      });
      await section.locator('summary').click();
      await section.getByLabel('Text').fill(words);
      await section.getByRole('button', { name: 'Add text' }).click();
      await page.getByText('Saved.').waitFor();
    };
    const publish = async (note: string) => {
      await page.getByRole('link', { name: 'Publish and versions' }).click();
      await page.getByLabel('Note (optional)').fill(note);
      await page.getByRole('button', { name: 'Publish the draft' }).click();
      await page.getByText('Published: the site now serves this draft.').waitFor();
    };

    // A new site, edited: the editor says it was never published, and the preview shows the draft.
    await page.goto(`${t.url}/builder`);
    await page.getByLabel('Title').fill('Opal’s Bakery');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    const siteId = /\/builder\/sites\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await addText('Fresh bread every morning.');
    await page.locator('.publication-state[data-state=never_published]').waitFor();
    await page.frameLocator('iframe[data-preview]').getByText('Fresh bread every morning.').waitFor();
    await checkPage(w, 'builder-versions-never-published');

    // Previews made versions in the log, but the versions list shows none of them.
    const rendered = await t.instance.pool.query('SELECT 1 FROM rm_builder_versions WHERE site_id = $1', [
      siteId,
    ]);
    assert.ok(rendered.rowCount! > 0, 'the preview rendered a version');
    await page.getByRole('link', { name: 'Publish and versions' }).click();
    await page.getByText('Nothing published yet').waitFor();
    await checkPage(w, 'builder-versions-before-publish');

    // The first publish gives the site its address from the title, and "View site" opens it.
    await publish('First menu');
    const view = page.locator('[data-field=view-site]');
    const liveUrl = (await view.getAttribute('href'))!;
    assert.match(liveUrl, /^http:\/\/opals-bakery\.sites\.localhost:\d+\/$/);
    const pathUrl = `${t.url}/sites/opals-bakery/`;
    await page.getByRole('cell', { name: 'First menu' }).waitFor();
    await page.getByRole('cell', { name: 'Opal', exact: true }).waitFor();
    await page.locator('.publication-state[data-state=live]').waitFor();
    await checkPage(w, 'builder-versions-published');
    await siteShows(pathUrl, 'Fresh bread every morning.');
    await view.click();
    await page.getByText('Fresh bread every morning.').waitFor();
    assert.equal(page.url(), liveUrl);
    await page.goBack();

    // A mistake, published.
    await page.getByRole('link', { name: 'Edit' }).first().click();
    await addText('Closed for ever.');
    await page.locator('.publication-state[data-state=unpublished_changes]').waitFor();
    await publish('Opening hours');
    await siteShows(pathUrl, 'Closed for ever.');
    assert.equal(await page.getByRole('row').filter({ hasText: 'Opening hours' }).count(), 1);

    // Roll back: the first publish is online again, and the page says the draft still has the mistake.
    await page.getByRole('button', { name: /^Roll back/ }).click();
    await page.getByText('Rolled back: the site serves').waitFor();
    await page.getByText('Unpublished changes: your draft still has the newer text.').waitFor();
    await checkPage(w, 'builder-versions-rolled-back');
    await siteShows(pathUrl, 'Closed for ever.', false);

    // Restore it into the draft: the editor is back on what is online.
    await page.getByRole('button', { name: 'Restore the live version into the draft' }).click();
    await page.getByText('Restored: the draft now holds the version you chose.').waitFor();
    await page.locator('.publication-state[data-state=live]').waitFor();
    const draft = await services.builder.read.draft(siteId);
    assert.ok(!JSON.stringify(draft!.document).includes('Closed for ever.'), 'the mistake left the draft');
    await checkPage(w, 'builder-versions-restored');

    // A new change, published: the mistake does not come back.
    await addText('Open on Sundays.');
    await publish('Sundays');
    await siteShows(pathUrl, 'Open on Sundays.');
    await siteShows(pathUrl, 'Closed for ever.', false);
    const versions = (await services.builder.read.versionsOf(siteId, { limit: 10, publishedOnly: true })).map(
      (v) => v.note,
    );
    assert.deepEqual(versions, ['Sundays', 'Opening hours', 'First menu']);

    // The sites list links to the site online.
    await page.getByRole('link', { name: 'All sites' }).click();
    assert.equal(await page.locator('[data-field=view-site]').first().getAttribute('href'), liveUrl);
    await checkPage(w, 'builder-versions-sites');
  });
});
