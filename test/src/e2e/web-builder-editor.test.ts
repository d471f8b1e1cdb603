// The draft editor's pictures and columns in a real browser (docs/web.md#builder). Pictures: the library,
// the picker and image blocks show thumbnails served by GET /api/builder/media/thumbnail — a WebP, with
// nosniff, a sandboxing CSP, private caching and an ETag — to the owner (and whoever controls the
// owning persona) only. Columns: a columns block is added, each column's blocks are added, edited,
// moved (within and across columns) and deleted, and the number of columns changed, with JavaScript on
// and with the forms alone. Each step is checked on the draft as the instance holds it.
import { eventually, images } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { test } from 'vitest';
import { checkPage, editorAnswered, openDetails, signUpInBrowser, webSuite } from './web-kit.js';

/**
 * The person's first site, made from the sites page under their name, as their default site would be: it
 * is their default site (a visit only lists it).
 */
async function makeFirstSite(page: Page, url: string, title: string) {
  await page.goto(`${url}/builder`);
  await page.locator('#new-site').getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Create site' }).click();
  await page.waitForURL(/\/builder\/sites\/[0-9a-f-]+/);
}

/** Opens the "Add …" section of a block kind within `scope` (the page's, or a column's) and answers it. */
async function adding(page: Page, scope: Locator | Page, kind: string, column?: number) {
  const name = column === undefined ? `Add ${kind}` : `Add ${kind} to column ${column}`;
  if (column !== undefined) {
    const wrap = scope.locator('details.add-in-column');
    if ((await wrap.getAttribute('open')) === null) await wrap.locator(':scope > summary').click();
  }
  const section = scope.locator('details.add-block', {
    has: page.getByText(name, { exact: true }),
  });
  await section.locator('summary').first().click();
  return section;
}

/** Waits until every image matching `selector` has loaded (a broken thumbnail has no natural width). */
async function loaded(page: Page, selector: string): Promise<void> {
  // A function, not a string: a string predicate that is polled is eval'ed in the page, which the
  // pages' CSP (no 'unsafe-eval') refuses. The test package has no DOM types, hence the loose ones.
  await page.waitForFunction((sel: string) => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<unknown> } })
      .document;
    return Array.from(
      doc.querySelectorAll(sel) as ArrayLike<{ complete: boolean; naturalWidth: number }>,
    ).every((i) => i.complete && i.naturalWidth > 0);
  }, selector);
}

webSuite('the draft editor: thumbnails and columns', (web) => {
  test('given pictures in the library, when a person picks one, then the picker, the block and the library show thumbnails, served only to their owner', async () => {
    const w = await web.page();
    const { page } = w;
    const services = web.t.instance.services;
    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada' });
    const me = (await page.locator('#me code').first().textContent())!.trim();

    for (const [name, buffer] of [
      ['soup.png', await images.png(600, 400, '#c60')],
      ['bread.webp', await images.webp(60, 40)],
    ] as const) {
      await page.goto(`${web.t.url}/builder/media`);
      await page.getByLabel(/^Picture \(JPEG/).setInputFiles({ name, mimeType: 'image/png', buffer });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('Picture uploaded.').waitFor();
    }
    const library = page.locator('#library');
    await loaded(page, '#library img');
    assert.equal(await library.locator('img').count(), 2);
    await checkPage(w, 'builder-media-thumbnails');
    const media = (await services.builder.read.mediaOf(me, { limit: 10 })).sort((a, b) =>
      a.filename.localeCompare(b.filename),
    );
    const [bread, soup] = media as [(typeof media)[0], (typeof media)[0]];

    // The editor's picker: a radio button per picture, each with its thumbnail.
    await makeFirstSite(page, web.t.url, 'Ada');
    const [site] = await services.builder.read.sitesOf(me);
    await page.goto(`${web.t.url}/builder/sites/${site!.siteId}`);
    const add = await adding(page, page, 'a picture');
    const picker = add.locator('.media-picker');
    assert.equal(await picker.getByRole('radio').count(), 2);
    await loaded(page, '.media-picker img');
    await picker.getByRole('radio', { name: /soup\.png/ }).check();
    await add.getByLabel('Alt text (what the picture shows)').fill('A bowl of soup');
    await add.getByRole('button', { name: 'Add a picture' }).click();
    await editorAnswered(page);
    const draft = await services.builder.read.draft(site!.siteId);
    assert.deepEqual(draft!.document.pages[0]!.blocks.at(-1), {
      type: 'image',
      mediaId: soup.mediaId,
      alt: 'A bowl of soup',
    });
    // The image block shows its thumbnail in the block list.
    const block = page.locator('ol.blocks > li.block').last();
    await block.locator('img.block-thumb').waitFor();
    await loaded(page, 'ol.blocks img.block-thumb');
    // A gallery of both, ticked beside their thumbnails, one with a caption.
    const gallery = await adding(page, page, 'a gallery');
    await loaded(page, '.add-block[open] .thumb-check img');
    await gallery.getByRole('checkbox', { name: /bread\.webp/ }).check();
    await gallery.getByRole('checkbox', { name: /soup\.png/ }).check();
    await gallery.getByLabel('Alt text for bread.webp').fill('Bread');
    await gallery.getByLabel('Caption for bread.webp (optional)').fill('Baked today');
    await gallery.getByLabel('Alt text for soup.png').fill('Soup');
    await gallery.getByRole('button', { name: 'Add a gallery' }).click();
    await editorAnswered(page);
    const items = (
      (await services.builder.read.draft(site!.siteId))!.document.pages[0]!.blocks.at(-1) as {
        items: unknown[];
      }
    ).items;
    // Sorted by picture on both sides: the order the boxes were ticked in is not what this checks.
    const byMedia = (a: unknown, b: unknown) =>
      (a as { mediaId: string }).mediaId.localeCompare((b as { mediaId: string }).mediaId);
    assert.deepEqual(
      items.sort(byMedia),
      [
        { mediaId: bread.mediaId, alt: 'Bread', caption: 'Baked today' },
        { mediaId: soup.mediaId, alt: 'Soup' },
      ].sort(byMedia),
    );
    await loaded(page, 'ol.blocks img.block-thumb');
    await checkPage(w, 'builder-editor-thumbnails');

    // The route itself: a WebP no larger than asked, nosniff, sandboxed, cached privately with an ETag.
    const url = `${web.t.url}/api/builder/media/thumbnail?mediaId=${soup.mediaId}&size=128`;
    const res = await page.request.get(url);
    assert.equal(res.status(), 200);
    const h = res.headers();
    assert.equal(h['content-type'], 'image/webp');
    assert.equal(h['x-content-type-options'], 'nosniff');
    assert.match(h['content-security-policy'] ?? '', /default-src 'none'; sandbox/);
    assert.match(h['cache-control'] ?? '', /^private/);
    assert.ok(h.etag);
    const bytes = await res.body();
    assert.equal(bytes.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(bytes.subarray(8, 12).toString('latin1'), 'WEBP');
    const size = await images.describeImage(bytes);
    assert.deepEqual(
      [size.format, size.width, size.height, size.exif, size.icc],
      ['webp', 128, 85, undefined, undefined],
      'the longer side is 128, the shape kept, no metadata',
    );
    const small = await page.request.get(`${web.t.url}/api/builder/media/thumbnail?mediaId=${bread.mediaId}`);
    const smallSize = await images.describeImage(await small.body());
    assert.deepEqual([smallSize.width, smallSize.height], [60, 40], 'never enlarged');
    const again = await page.request.get(url, { headers: { 'if-none-match': h.etag! } });
    assert.equal(again.status(), 304);
    const badSize = await page.request.get(`${url.replace('size=128', 'size=999')}`);
    assert.equal(badSize.status(), 400);
    assert.equal(((await badSize.json()) as { code: string }).code, 'input.invalid');

    // Someone else — signed in or not — gets the same 404 as for no such item, and no bytes.
    const eve = await web.signedUp('eve', { name: 'Eve' });
    const stranger = await eve.page.request.get(url);
    assert.equal(stranger.status(), 404);
    assert.equal(((await stranger.json()) as { code: string }).code, 'builder.media_not_found');
    const asAda = await eve.page.request.get(`${url}&targetAgentId=${me}`);
    assert.equal(asAda.status(), 404, 'naming the owner does not help: only who controls it may act as it');
    const anonymous = await (await web.browser.newContext()).request.get(url);
    assert.equal(anonymous.status(), 401);
    await eve.context.close();

    // A persona's picture: its owner sees it by naming the persona.
    await page.goto(`${web.t.url}/home`);
    await page.getByLabel('Name', { exact: true }).fill('Soup Kitchen');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();
    const persona = (await services.agents.read.personasOf(me))[0]!;
    await page.goto(`${web.t.url}/builder/media?as=${persona.agentId}`);
    await page.getByLabel(/^Picture \(JPEG/).setInputFiles({
      name: 'pot.png',
      mimeType: 'image/png',
      buffer: await images.png(50, 50, '#06c'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Picture uploaded.').waitFor();
    const [pot] = await services.builder.read.mediaOf(persona.agentId, { limit: 1 });
    const mine = await page.request.get(
      `${web.t.url}/api/builder/media/thumbnail?mediaId=${pot!.mediaId}&targetAgentId=${persona.agentId}`,
    );
    assert.equal(mine.status(), 200);
    const notMine = await page.request.get(
      `${web.t.url}/api/builder/media/thumbnail?mediaId=${pot!.mediaId}`,
    );
    assert.equal(notMine.status(), 404, 'the persona’s picture is not the person’s own');
    await loaded(page, '#library img');
    await w.context.close();
  });

  for (const javaScriptEnabled of [true, false])
    test(`given a page, when a person builds a columns block and edits the blocks in its columns${javaScriptEnabled ? '' : ' with JavaScript off'}, then the draft holds exactly that`, async () => {
      const w = await web.page({ javaScriptEnabled });
      const { page } = w;
      const services = web.t.instance.services;
      const handle = javaScriptEnabled ? 'cols' : 'colsnojs';
      await signUpInBrowser(page, web.t.url, handle, { name: 'Columnist' });
      const me = (await page.locator('#me code').first().textContent())!.trim();
      await page.goto(`${web.t.url}/builder/media`);
      await page.getByLabel(/^Picture \(JPEG/).setInputFiles({
        name: 'leaf.png',
        mimeType: 'image/png',
        buffer: await images.png(80, 80, '#3a3'),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('Picture uploaded.').waitFor();
      const [leaf] = await services.builder.read.mediaOf(me, { limit: 1 });
      await makeFirstSite(page, web.t.url, 'Columnist');
      const [site] = await services.builder.read.sitesOf(me);
      await page.goto(`${web.t.url}/builder/sites/${site!.siteId}`);
      const before = (await services.builder.read.draft(site!.siteId))!.document.pages[0]!.blocks.length;
      const blocks = async () => (await services.builder.read.draft(site!.siteId))!.document.pages[0]!.blocks;
      // A save is done when the stored draft moved past the last one seen and the page shows that revision
      // (with scripts the editor swaps its parts in place, and a click before that would act on the old ones).
      let seenRevision = (await services.builder.read.draft(site!.siteId))!.revision;
      const saved = async () => {
        await eventually(
          'saved',
          async () => (await services.builder.read.draft(site!.siteId))!.revision > seenRevision,
        );
        seenRevision = (await services.builder.read.draft(site!.siteId))!.revision;
        await eventually(
          'the page shows the saved revision',
          async () =>
            (await page.locator('input[name=revision]').first().inputValue()) === String(seenRevision),
        );
        await editorAnswered(page);
      };

      // Three columns.
      let add = await adding(page, page, 'columns');
      await add.getByLabel('Number of columns').selectOption('3');
      await add.getByRole('button', { name: 'Add columns' }).click();
      await saved();
      assert.deepEqual((await blocks()).at(-1), {
        type: 'columns',
        columns: [{ blocks: [] }, { blocks: [] }, { blocks: [] }],
      });
      const at = before; // the columns block's index on the page
      const editor = () => page.locator(`#block-${at}`);
      // The columns editor comes back open after each edit inside it.
      const open = async () => {
        const d = editor().locator(':scope > details');
        if ((await d.getAttribute('open')) === null) await d.locator(':scope > summary').click();
      };
      await open();
      const column = (n: number) =>
        editor().locator('section.column-edit', { has: page.getByRole('heading', { name: `Column ${n}` }) });

      // A heading in column 1, a picture in column 2, text in column 3.
      add = await adding(page, column(1), 'a heading', 1);
      await add.getByLabel('Heading text').fill('Left');
      await add.getByRole('button', { name: 'Add a heading' }).click();
      await saved();
      await open();
      add = await adding(page, column(2), 'a picture', 2);
      await add.getByRole('radio', { name: /leaf\.png/ }).check();
      await add.getByLabel('Alt text (what the picture shows)').fill('A leaf');
      await add.getByRole('button', { name: 'Add a picture' }).click();
      await saved();
      await open();
      add = await adding(page, column(3), 'text', 3);
      await add.getByLabel('Text', { exact: true }).fill('Some *words*.');
      await add.getByRole('button', { name: 'Add text' }).click();
      await saved();
      await open();
      if (javaScriptEnabled) await checkPage(w, 'builder-editor-columns');
      assert.deepEqual((await blocks())[at], {
        type: 'columns',
        columns: [
          { blocks: [{ type: 'heading', level: 2, text: 'Left' }] },
          { blocks: [{ type: 'image', mediaId: leaf!.mediaId, alt: 'A leaf' }] },
          { blocks: [{ type: 'text', markdown: 'Some *words*.' }] },
        ],
      });

      // Edit the heading inside column 1.
      const heading = editor().locator(`#block-${at}-0-0`);
      await heading.locator('summary').first().click();
      await heading.getByLabel('Heading text').fill('Left side');
      await heading.getByLabel('Level').selectOption('3');
      await heading.getByRole('button', { name: 'Save block' }).click();
      await saved();
      await open();
      // Move the text from column 3 to column 2, below the picture; then the picture below it.
      await editor()
        .locator(`#block-${at}-2-0`)
        .getByRole('button', { name: /To the column before/ })
        .click();
      await saved();
      await open();
      await editor()
        .locator(`#block-${at}-1-0`)
        .getByRole('button', { name: /Move down/ })
        .click();
      await saved();
      await open();
      assert.deepEqual(((await blocks())[at] as { columns: unknown }).columns, [
        { blocks: [{ type: 'heading', level: 3, text: 'Left side' }] },
        {
          blocks: [
            { type: 'text', markdown: 'Some *words*.' },
            { type: 'image', mediaId: leaf!.mediaId, alt: 'A leaf' },
          ],
        },
        { blocks: [] },
      ]);
      // Down to two columns (the third was emptied), then delete the picture.
      await editor().getByLabel('Number of columns').selectOption('2');
      await editor().locator('form.columns-count').getByRole('button', { name: 'Save' }).click();
      await saved();
      await open();
      await editor()
        .locator(`#block-${at}-1-1`)
        .getByRole('button', { name: /^Delete/ })
        .click();
      await saved();
      assert.deepEqual((await blocks())[at], {
        type: 'columns',
        columns: [
          { blocks: [{ type: 'heading', level: 3, text: 'Left side' }] },
          { blocks: [{ type: 'text', markdown: 'Some *words*.' }] },
        ],
      });
      // Pages: a second one, its path changed (the navigation follows), then moved before the home page.
      await page.getByText('Add a page', { exact: true }).click();
      await page.getByLabel('Page title').fill('Menu');
      await page.getByLabel('Path', { exact: true }).fill('/menu');
      await page.getByRole('button', { name: 'Add page' }).click();
      await saved();
      // With scripts the section stays open after a save in it (the page is not reloaded).
      const pageDetails = page.locator('details', {
        has: page.locator(':scope > summary', { hasText: 'Page title, path and description' }),
      });
      await openDetails(pageDetails);
      await page.getByLabel('Path', { exact: true }).last().fill('/food');
      await page.getByRole('button', { name: 'Save page' }).click();
      await saved();
      await openDetails(pageDetails);
      await page.getByRole('button', { name: 'Move this page up' }).click();
      await saved();
      const doc = (await services.builder.read.draft(site!.siteId))!.document;
      assert.deepEqual(
        doc.pages.map((p) => [p.path, p.title]),
        [
          ['/food', 'Menu'],
          ['/', 'Columnist'],
        ],
      );
      assert.deepEqual(doc.navigation.items, [{ label: 'Menu', url: '/food' }]);
      // The preview pane shows the columns as the site will.
      if (javaScriptEnabled) {
        await page.goto(`${web.t.url}/builder/sites/${site!.siteId}?page=1`);
        await page.getByRole('button', { name: 'Refresh preview' }).click();
        const frame = page.frameLocator('iframe[data-preview]');
        await frame.getByRole('heading', { name: 'Left side' }).waitFor();
      }
      assert.deepEqual(w.cspViolations, []);
      assert.deepEqual(w.errors, []);
      await w.context.close();
    });
});
