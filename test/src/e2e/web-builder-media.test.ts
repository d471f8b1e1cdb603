// Pictures and forms where you are (issue 39, item 5), in a real browser: a picture dropped or picked in
// the editor uploads with a progress bar and lands in the page in one step; a file over the limit is
// refused before anything is sent, in words; a 60-megapixel photo is scaled down and a HEIC accepted;
// a form is made from the form block without leaving the editor (with and without JavaScript). Each state is checked on what the instance holds.
import { chromiumAvailable, images, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  checkPage,
  createSiteInBrowser,
  launchBrowser,
  newWatchedPage,
  screenshots,
  signUpInBrowser,
} from './web-kit.js';

/** Opens the page's "Add …" section of a block kind. */
async function adding(page: Page, kind: string) {
  const section = page.locator('details.add-block', {
    has: page.locator('summary', { hasText: `Add ${kind}` }),
  });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  return section;
}

describe.skipIf(!chromiumAvailable())('the editor: pictures and forms where you are', () => {
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

  const blocksOf = async (siteId: string) =>
    (await t.instance.services.builder.read.draft(siteId))!.document.pages[0]!.blocks;
  const mediaOf = async (mediaId: string) =>
    (
      await t.instance.pool.query<{ width: number; height: number; content_type: string }>(
        'SELECT width, height, content_type FROM rm_builder_media WHERE media_id = $1',
        [mediaId],
      )
    ).rows[0]!;

  test('given the editor, when a picture is dropped, then it uploads with progress and lands in the page; a 60 MP photo is scaled down and a HEIC accepted the same way', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    await signUpInBrowser(page, t.url, 'ada', { name: 'Ada' });
    const siteId = await createSiteInBrowser(page, t.url, 'Ada’s Bakery');
    // A new site starts with its starter blocks; the pictures come after them.
    const n = (await blocksOf(siteId)).length;
    await checkPage(w, 'builder-media-editor');

    // A slow connection, so the progress bar has time to be seen.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    const add = await adding(page, 'a picture');
    await add.getByLabel('Alt text of the new picture').fill('Fresh loaves');
    const bytes = await images.noisyPng(700, 500);
    assert.ok(bytes.length > 600 * 1024, `${bytes.length} bytes`);
    // A drop as the browser makes one: a DataTransfer holding the file, on the drop zone.
    await add.locator('.drop-zone').evaluate((zone, b64: string) => {
      const g = globalThis as unknown as {
        DataTransfer: new () => { items: { add(f: unknown): void } };
        File: new (parts: unknown[], name: string, o: { type: string }) => unknown;
        DragEvent: new (type: string, o: { dataTransfer: unknown; bubbles: boolean }) => unknown;
        atob(s: string): string;
      };
      const raw = g.atob(b64);
      const arr = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) arr[i] = raw.charCodeAt(i);
      const dt = new g.DataTransfer();
      dt.items.add(new g.File([arr], 'loaves.png', { type: 'image/png' }));
      (zone as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(
        new g.DragEvent('drop', { dataTransfer: dt, bubbles: true }),
      );
    }, bytes.toString('base64'));
    // Dropped, it waits for the button (its alt text can be written first).
    await add.getByText(/“loaves.png” .* is ready/).waitFor();
    await add.getByRole('button', { name: 'Upload picture' }).click();
    const bar = add.locator('progress');
    await bar.waitFor({ state: 'visible' });
    await add.getByText(/Uploading “loaves.png”/).waitFor();
    await screenshots(page, 'builder-media-uploading');
    await page.getByText('Picture uploaded and added to the page.').waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    let blocks = await blocksOf(siteId);
    assert.equal(blocks.length, n + 1);
    const first = blocks[n]!;
    assert.equal(first.type, 'image');
    assert.equal(first.type === 'image' && first.alt, 'Fresh loaves');
    assert.match(page.url(), new RegExp(`#block-${n}$`));
    await checkPage(w, 'builder-media-landed');

    // A phone photo of 60 MP, picked: stored 4096 pixels wide.
    let picker = await adding(page, 'a picture');
    await picker.getByLabel('Alt text of the new picture').fill('Our shop window');
    await picker.getByLabel(/^Or upload a new picture/).setInputFiles({
      name: 'IMG_2024.jpg',
      mimeType: 'image/jpeg',
      buffer: await images.bigJpeg(9600, 6250),
    });
    await picker.getByRole('button', { name: 'Upload picture' }).click();
    await page.waitForURL(new RegExp(`#block-${n + 1}$`));
    await page.getByText('Picture uploaded and added to the page.').waitFor();
    blocks = await blocksOf(siteId);
    const big = blocks[n + 1]!;
    assert.equal(big.type, 'image');
    assert.deepEqual(await mediaOf(big.type === 'image' ? big.mediaId : ''), {
      width: 4096,
      height: 2667,
      content_type: 'image/jpeg',
    });

    // An iPhone's HEIC: accepted, stored as a JPEG.
    picker = await adding(page, 'a picture');
    await picker.getByLabel('Alt text of the new picture').fill('Cinnamon buns');
    await picker.getByLabel(/^Or upload a new picture/).setInputFiles({
      name: 'IMG_0001.HEIC',
      mimeType: 'image/heic',
      buffer: images.heicPhoto(),
    });
    await picker.getByRole('button', { name: 'Upload picture' }).click();
    await page.waitForURL(new RegExp(`#block-${n + 2}$`));
    blocks = await blocksOf(siteId);
    const heic = blocks[n + 2]!;
    assert.equal(heic.type, 'image');
    assert.deepEqual(await mediaOf(heic.type === 'image' ? heic.mediaId : ''), {
      width: 120,
      height: 80,
      content_type: 'image/jpeg',
    });
    await page.locator(`#block-${n + 2}`).waitFor();
    await checkPage(w, 'builder-media-heic');

    // Worked on the first block, then a picture added: it goes after that block, not at the end.
    await page.locator('#block-0 > details > summary').click();
    picker = await adding(page, 'a picture');
    await picker.getByLabel('Alt text of the new picture').fill('The oven');
    await picker.getByLabel(/^Or upload a new picture/).setInputFiles({
      name: 'oven.png',
      mimeType: 'image/png',
      buffer: await images.noisyPng(40, 30),
    });
    await picker.getByRole('button', { name: 'Upload picture' }).click();
    await page.waitForURL(/#block-1$/);
    blocks = await blocksOf(siteId);
    assert.equal(blocks.length, n + 4);
    assert.equal(blocks[1]!.type === 'image' && blocks[1]!.alt, 'The oven');
    await w.context.close();
  });

  test('given a block worked on and the page opened again, when a picture is picked without alt text, then it waits and asks for it, and once written lands after that block; without JavaScript the same', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const w = await newWatchedPage(browser, { javaScriptEnabled });
      const { page } = w;
      const handle = javaScriptEnabled ? 'fay' : 'gus';
      await signUpInBrowser(page, t.url, handle, { name: handle });
      const siteId = await createSiteInBrowser(page, t.url, `${handle}’s bakery`);
      const current = (await t.instance.services.builder.read.draft(siteId))!;
      const starting = [
        { type: 'heading', level: 1, text: 'Bakery' },
        { type: 'text', markdown: 'Bread.' },
        { type: 'text', markdown: 'Cakes.' },
        { type: 'text', markdown: 'Hours.' },
      ];
      const put = await page.request.put(`${t.url}/api/builder/draft`, {
        headers: { Origin: t.url },
        data: {
          siteId,
          revision: current.revision,
          document: { ...current.document, pages: [{ ...current.document.pages[0]!, blocks: starting }] },
        },
      });
      assert.equal(put.status(), 201, await put.text());
      // She edits the second block and saves it, then opens the editor again (another page and back).
      await page.goto(`${t.url}/builder/sites/${siteId}`);
      await page.locator('#block-1 > details > summary').click();
      await page.locator('#block-1 textarea[name=markdown]').fill('Bread, baked at dawn.');
      await page.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
      await page.locator('#main:not([data-saving])').waitFor();
      await page.getByText('Saved').first().waitFor();
      await page.goto(`${t.url}/builder`);
      await page.goto(`${t.url}/builder/sites/${siteId}`);
      const add = await adding(page, 'a picture');
      // The form says where the picture will go.
      assert.equal(
        (await add.locator('[data-upload-where]').innerText()).replace(/\s+/g, ' '),
        'after block 2, the text ‘Bread, baked at dawn.’ (the one you last worked on)',
      );
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/builder/media')) posts.push(r.url());
      });
      await add.getByLabel(/^Or upload a new picture/).setInputFiles({
        name: 'loaf.png',
        mimeType: 'image/png',
        buffer: await images.noisyPng(40, 30),
      });
      await add.getByRole('button', { name: 'Upload picture' }).click();
      const alt = add.getByLabel('Alt text of the new picture');
      if (javaScriptEnabled) {
        // The picture waits, the page asks for the alt text in words, and the field has the focus.
        await add
          .locator('[data-upload-status]')
          .getByText('Write the alt text of “loaf.png” first: what the picture shows')
          .waitFor();
        assert.equal(await alt.evaluate((el) => el === el.ownerDocument.activeElement), true);
        await checkPage(w, 'builder-media-alt-asked');
      } else {
        // The browser asks (the field is required) and nothing is sent.
        assert.equal(
          await alt.evaluate(
            (el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing,
          ),
          true,
        );
        await screenshots(page, 'builder-media-alt-asked-nojs');
      }
      assert.deepEqual(posts, [], 'nothing was sent');
      assert.equal((await blocksOf(siteId)).length, 4);
      await alt.fill('A sourdough loaf');
      await add.getByRole('button', { name: 'Upload picture' }).click();
      await page.waitForURL(/#block-2$/);
      await page.getByText('Picture uploaded and added to the page.').waitFor();
      const blocks = await blocksOf(siteId);
      assert.deepEqual(
        blocks.map((b) => b.type),
        ['heading', 'text', 'image', 'text', 'text'],
      );
      assert.equal(blocks[2]!.type === 'image' && blocks[2]!.alt, 'A sourdough loaf');
      await w.context.close();
    }
  });

  test('given a file over the limit, when picked, then it is refused in words before anything is sent', async () => {
    const w = await newWatchedPage(browser);
    const { page } = w;
    await signUpInBrowser(page, t.url, 'bea', { name: 'Bea' });
    const siteId = await createSiteInBrowser(page, t.url, 'Bea’s Shop');
    const n = (await blocksOf(siteId)).length;
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    const add = await adding(page, 'a picture');
    await add.getByLabel(/^Or upload a new picture/).setInputFiles({
      name: 'huge.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    const status = add.locator('[data-upload-status]');
    await status.getByText(/a picture is at most 10 MB/).waitFor();
    assert.match(
      (await status.textContent())!,
      /“huge\.jpg” is just over; a picture is at most 10 MB.*builder\.media_too_large/s,
    );
    assert.deepEqual(posts, [], 'nothing was sent');
    assert.equal((await blocksOf(siteId)).length, n);
    await checkPage(w, 'builder-media-too-large');
    await w.context.close();
  });

  test('given the form block, when a new form is made there, then it is created and on the page, back in the editor', async () => {
    for (const javaScriptEnabled of [true, false]) {
      const w = await newWatchedPage(browser, { javaScriptEnabled });
      const { page } = w;
      const handle = javaScriptEnabled ? 'dee' : 'eve';
      await signUpInBrowser(page, t.url, handle, { name: handle });
      const siteId = await createSiteInBrowser(page, t.url, `${handle}’s site`);
      const n = (await blocksOf(siteId)).length;
      const add = await adding(page, 'a form');
      await add.getByText('You have no forms yet: make one here.').waitFor();
      if (javaScriptEnabled) await checkPage(w, 'builder-media-new-form');
      await add.getByLabel('New form: its name').fill('Orders');
      await add.getByRole('button', { name: 'Create the form and add it' }).click();
      await page.getByText('Form created and added to the page.').waitFor();
      assert.match(page.url(), new RegExp(`/builder/sites/${siteId}\\?.*#block-${n}$`));
      const blocks = await blocksOf(siteId);
      assert.equal(blocks.length, n + 1);
      const block = blocks[n]!;
      assert.equal(block.type, 'form');
      const forms = (
        await t.instance.pool.query<{ form_id: string; name: string }>(
          'SELECT form_id, name FROM rm_builder_forms WHERE form_id = $1',
          [block.type === 'form' ? block.formId : ''],
        )
      ).rows;
      assert.deepEqual(
        forms.map((f) => f.name),
        ['Orders'],
      );
      if (javaScriptEnabled) await checkPage(w, 'builder-media-form-added');
      // The notice and the form block both link to the form's page; it links back to the site.
      const formId = block.type === 'form' ? block.formId : '';
      assert.equal(
        await page.locator('.notice [data-field=form-page]').getAttribute('href'),
        `/builder/forms/${formId}`,
      );
      assert.equal(
        await page.locator(`#block-${n} [data-field=form-page]`).getAttribute('href'),
        `/builder/forms/${formId}`,
      );
      await page.locator('.notice [data-field=form-page]').click();
      await page.waitForURL(`${t.url}/builder/forms/${formId}`);
      const back = page.locator('[data-field=form-sites]').getByRole('link', { name: `${handle}’s site` });
      assert.equal(await back.getAttribute('href'), `/builder/sites/${siteId}`);
      // No mail server here: the page says plainly that no email is sent, and a switch that is on reads
      // "not sending" (not "on"), and stays a switch.
      const mail = page.locator('#submission-mail');
      await mail.getByText('Email: not sent').waitFor();
      await mail.getByText('this instance has no mail server').first().waitFor();
      await mail.locator('.badge', { hasText: 'not sending' }).first().waitFor();
      assert.equal(await mail.locator('.badge', { hasText: /^on$/ }).count(), 0, 'no switch reads "on"');
      await mail
        .getByRole('button', { name: /^Turn off/ })
        .first()
        .waitFor();
      if (javaScriptEnabled) await checkPage(w, 'builder-media-form-page');
      await w.context.close();
    }
  });
});
