// Versions are publishes, in a real browser (docs/builder.md#versions): a person creates a site, edits
// it, previews it (no version appears), publishes it with a note (it gets its address from the title
// and "View site" opens it), makes a mistake and publishes it, rolls back (the page says the draft still
// holds the mistake), restores the live version into the draft, publishes again, and the mistake stays
// gone; what was online when (docs/builder.md#history) keeps every publish, the rollback (the version it
// went back to and the one it replaced, by their notes) and the restore. Each page goes through axe and is
// screenshotted at phone and desktop width. The person's browser is in Auckland: the versions list and
// the history show Auckland's wall clock, written by the server from the `tz` cookie the pages set (and
// say "UTC" when the cookie is gone).
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { checkPage, editorAnswered, signUpInBrowser, webSuite } from './web-kit.js';

/** A moment as the pages write it, in Auckland: "7 Dec 2026, 04:20". */
function aucklandWords(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Pacific/Auckland',
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    Number(parts.month) - 1
  ];
  return `${Number(parts.day)} ${month} ${parts.year}, ${parts.hour}:${parts.minute}`;
}

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

/** The history's lines, newest first: what each did (data-action) and its words, spaces folded. */
async function historyLines(page: Page) {
  return page
    .locator('#history li')
    .evaluateAll((lines) =>
      lines.map((l) => [l.getAttribute('data-action'), (l.textContent ?? '').replace(/\s+/g, ' ').trim()]),
    );
}

webSuite('builder versions in a real browser', (web) => {
  test('given a new site, when previewed, published, broken, published, rolled back and restored, then only publishes are versions and the mistake stays gone', async () => {
    const w = await web.page({ timezoneId: 'Pacific/Auckland' });
    const { page } = w;
    const services = web.t.instance.services;
    await signUpInBrowser(page, web.t.url, 'opal', { name: 'Opal' });
    const addText = async (words: string) => {
      const section = page.locator('details.add-block', {
        has: page.locator('summary', { hasText: 'Add text' }),
      });
      await section.locator('summary').click();
      await section.getByLabel('Text').fill(words);
      await section.getByRole('button', { name: 'Add text' }).click();
      await editorAnswered(page);
    };
    const publish = async (note: string) => {
      await page.getByRole('link', { name: 'Publish and versions' }).click();
      await page.getByLabel('Note (optional)').fill(note);
      await page.getByRole('button', { name: 'Publish the draft' }).click();
      await page.getByText('Published: the site now serves this draft.').waitFor();
    };

    // A new site, edited: the editor says it was never published, and the preview shows the draft.
    await page.goto(`${web.t.url}/builder`);
    // The address hint names the address a visitor would type, port included (tests listen on port 0).
    const port = new URL(web.t.url).port;
    await page
      .getByText(`the site answers at http://<label>.sites.localhost:${port}/`, { exact: false })
      .waitFor();
    await page.getByLabel('Title').fill('Opal’s Bakery');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    const siteId = /\/builder\/sites\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await addText('Fresh bread every morning.');
    await page.locator('.publication-state[data-state=never_published]').waitFor();
    await page.frameLocator('iframe[data-preview]').getByText('Fresh bread every morning.').waitFor();
    await checkPage(w, 'builder-versions-never-published');

    // Previews made versions in the log, but the versions list shows none of them.
    const rendered = await web.t.instance.pool.query('SELECT 1 FROM rm_builder_versions WHERE site_id = $1', [
      siteId,
    ]);
    assert.ok(rendered.rowCount! > 0, 'the preview rendered a version');
    await page.getByRole('link', { name: 'Publish and versions' }).click();
    await page.getByText('Nothing published yet').waitFor();
    await page
      .locator('#history')
      .getByText('Nothing yet: the history starts with the first publish.')
      .waitFor();
    await checkPage(w, 'builder-versions-before-publish');

    // The first publish gives the site its address from the title, and "View site" opens it.
    await publish('First menu');
    const view = page.locator('[data-field=view-site]');
    const liveUrl = (await view.getAttribute('href'))!;
    assert.match(liveUrl, /^http:\/\/opals-bakery\.sites\.localhost:\d+\/$/);
    const pathUrl = `${web.t.url}/sites/opals-bakery/`;
    await page.getByRole('cell', { name: 'First menu' }).waitFor();
    await page.getByRole('cell', { name: 'Opal', exact: true }).waitFor();
    await page.locator('.publication-state[data-state=live]').waitFor();

    // The time it was published, in Auckland's wall clock ("7 Dec 2026, 04:20"), how long ago, and the
    // exact instant in datetime; no version id or hash anywhere on the page.
    const published = page.locator('#versions time').first();
    const instant = (await published.getAttribute('datetime'))!;
    const auckland = aucklandWords(instant);
    assert.equal((await published.textContent())?.trim(), auckland);
    assert.equal(await published.getAttribute('data-zone'), 'Pacific/Auckland');
    await page
      .locator('#versions .ago', { hasText: /just now|minutes? ago/ })
      .first()
      .waitFor();
    const versionIds = (
      await services.builder.read.versionsOf(siteId, { limit: 10, publishedOnly: true })
    ).map((v) => v.versionId);
    const shown = (await page.locator('main').textContent()) ?? '';
    for (const id of versionIds) assert.ok(!shown.includes(id), 'no version id shown');
    // Written so by the server (not only rewritten by app.js): the page as the server sends it.
    const publishUrl = page.url();
    const served = await (await page.request.get(publishUrl)).text();
    assert.ok(served.includes(`>${auckland}</time`), 'the server wrote Auckland time');
    // Without the cookie (a first visit, no JavaScript) the server writes UTC and says so.
    await w.context.clearCookies({ name: 'tz' });
    const utc = await (await page.request.get(publishUrl)).text();
    assert.match(utc, /<time[^>]*data-zone=""[^>]*>\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<\/time/);
    await page.reload();
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
    await page.getByRole('button', { name: /^Go back to this version/ }).click();
    await page.getByText('Rolled back: the site serves').waitFor();
    await page.getByText('Unpublished changes: your draft holds the changes you rolled back.').waitFor();
    // The rows are named by direction from the live one: the newer publish goes forward, none goes back.
    const newer = page.getByRole('row').filter({ hasText: 'Opening hours' });
    await newer.getByRole('button', { name: /^Put this newer version online/ }).waitFor();
    const live = page.getByRole('row').filter({ hasText: 'First menu' });
    await live.getByText('online now').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Go back to this version/ }).count(), 0);
    // The history keeps the rollback: when (Auckland's clock), the version gone back to and the one it
    // replaced, each by when it was first published and its note; the two publishes below it.
    const lines = await historyLines(page);
    assert.deepEqual(
      lines.map(([action]) => action),
      ['rolled_back', 'published', 'published'],
    );
    assert.match(
      lines[0]![1]!,
      /^Went back to an earlier version \d{1,2} \w{3} \d{4}, \d\d:\d\d · (just now|\d+ minutes? ago) You put “First menu” \(published \d{1,2} \w{3} \d{4}, \d\d:\d\d\) online again, in place of “Opening hours” \(published \d{1,2} \w{3} \d{4}, \d\d:\d\d\)\.$/,
    );
    assert.match(
      lines[1]![1]!,
      /^Published .* You put the draft online, with the note “Opening hours”, in place of “First menu” \(published .*\)\.$/,
    );
    assert.match(
      lines[2]![1]!,
      /^Published .* You put the site online for the first time, with the note “First menu”\.$/,
    );
    const rolledBackAt = page.locator('#history li').first().locator('time').first();
    assert.equal(
      (await rolledBackAt.textContent())?.trim(),
      aucklandWords((await rolledBackAt.getAttribute('datetime'))!),
    );
    assert.equal(await rolledBackAt.getAttribute('data-zone'), 'Pacific/Auckland');
    // The version gone back to is named by the time of its first publish, the one in the versions list.
    const wentBackTo = page.locator('#history li').first().locator('time').nth(1);
    assert.equal(
      await wentBackTo.getAttribute('datetime'),
      await live.locator('time').first().getAttribute('datetime'),
    );
    await checkPage(w, 'builder-versions-rolled-back');
    await siteShows(pathUrl, 'Closed for ever.', false);

    // Restore it into the draft: the editor is back on what is online.
    await page.getByRole('button', { name: 'Restore the live version into the draft' }).click();
    // The restored draft is the live site: the notice says there is nothing to publish (not "publish it").
    await page.getByText('Restored: the draft now matches the live site; nothing to publish.').waitFor();
    await page.locator('.publication-state[data-state=live]').waitFor();
    const draft = await services.builder.read.draft(siteId);
    assert.ok(!JSON.stringify(draft!.document).includes('Closed for ever.'), 'the mistake left the draft');
    await checkPage(w, 'builder-versions-restored');

    // A new change after the restore is plain unpublished work: no warning that the draft holds the
    // rolled-back text, no "Restore the live version" button (it would throw the new change away).
    await addText('Open on Sundays.');
    await page.locator('.publication-state[data-state=unpublished_changes]').waitFor();
    assert.equal(await page.locator('[data-rolled-back-warning]').count(), 0);
    assert.equal(
      await page.getByRole('button', { name: 'Restore the live version into the draft' }).count(),
      0,
    );
    await page.getByRole('link', { name: 'Publish and versions' }).click();
    await page.locator('.publication-state[data-state=unpublished_changes]').waitFor();
    assert.equal(await page.locator('[data-rolled-back-warning]').count(), 0);
    await checkPage(w, 'builder-versions-edited-after-restore');

    // A new change, published: the mistake does not come back.
    await publish('Sundays');
    await siteShows(pathUrl, 'Open on Sundays.');
    await siteShows(pathUrl, 'Closed for ever.', false);
    const versions = (await services.builder.read.versionsOf(siteId, { limit: 10, publishedOnly: true })).map(
      (v) => v.note,
    );
    assert.deepEqual(versions, ['Sundays', 'Opening hours', 'First menu']);
    // The draft is the live version: its row offers no restore that would change nothing; older rows do.
    const sundays = page.getByRole('row').filter({ hasText: 'Sundays' });
    await sundays.getByText('Your draft is this version').waitFor();
    assert.equal(await sundays.getByRole('button', { name: /^Restore into the draft/ }).count(), 0);
    await live.getByRole('button', { name: /^Restore into the draft/ }).waitFor();
    // The whole story, newest first: the new publish replaced the version gone back to, after the restore.
    const story = await historyLines(page);
    assert.deepEqual(
      story.map(([action]) => action),
      ['published', 'restored', 'rolled_back', 'published', 'published'],
    );
    assert.match(
      story[0]![1]!,
      /^Published .* You put the draft online, with the note “Sundays”, in place of “First menu” \(published .*\)\.$/,
    );
    assert.match(
      story[1]![1]!,
      /^Restored into the draft .* You put the content of “First menu” \(published .*\) back into the draft\. What was online did not change\.$/,
    );
    await page.locator('#history').scrollIntoViewIfNeeded();
    await checkPage(w, 'builder-versions-history');

    // The sites list links to the site online.
    await page.getByRole('link', { name: 'All sites' }).click();
    assert.equal(await page.locator('[data-field=view-site]').first().getAttribute('href'), liveUrl);
    await checkPage(w, 'builder-versions-sites');

    // A refusal says what went wrong and what to do in words, the code in small print, and keeps what
    // was typed: a second site asking for the first one's address.
    await page.getByLabel('Title').fill('Opal’s Other Bakery');
    await page.getByLabel('Address (optional)').fill('opals-bakery');
    await page.getByRole('button', { name: 'Create site' }).click();
    const refusal = page.locator('.notice-error', {
      has: page.locator('[data-error-code="builder.label_taken"]'),
    });
    await refusal.getByText('That address is already used by another site. Choose another one.').waitFor();
    assert.equal(await refusal.locator('.small [data-error-code]').count(), 1, 'the code in small print');
    assert.equal(await page.getByLabel('Title').inputValue(), 'Opal’s Other Bakery');
    assert.equal(await page.getByLabel('Address (optional)').inputValue(), 'opals-bakery');
    await checkPage(w, 'builder-versions-address-taken');
  });
});
