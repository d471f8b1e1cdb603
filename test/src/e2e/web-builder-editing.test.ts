// Editing without losing anything, in a real browser (docs/web.md#builder-editing): with JavaScript the
// editor's forms save in place and typed text is autosaved after a pause, kept in localStorage until
// saved (a reload mid-typing puts it back and says so; leaving asks first), the sticky edit bar is never
// over a control that is focused or clicked (390 and 1280 px), undo and redo walk the draft's history (buttons
// and Ctrl+Z / Shift+Ctrl+Z), and a second tab's change to the same block is shown beside what was
// typed, with both ways on (keep mine, take theirs); without JavaScript the forms still post, and a
// conflicting post comes back with the typed text in its form. Each step is checked on the draft as the
// instance holds it.
import { chromiumAvailable, eventually, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  ARTIFACTS,
  DESKTOP,
  PHONE,
  checkPage,
  launchBrowser,
  newWatchedPage,
  signUpInBrowser,
  type WatchedPage,
} from './web-kit.js';

/** Waits (bounded) until the probe holds. */
const until = (probe: () => Promise<boolean>, what: string) => eventually(what, probe, 15_000);
const words = (b: unknown) =>
  (b as { markdown?: string; text?: string }).markdown ?? (b as { text?: string }).text;

describe.skipIf(!chromiumAvailable())('the draft editor keeps what is typed', () => {
  let t: TestInstance;
  let browser: Browser;
  let w: WatchedPage;
  let page: Page;
  let siteId: string;
  let editorUrl: string;

  const draft = async () => (await t.instance.services.builder.read.draft(siteId))!;
  const blockWords = async (i: number) => words((await draft()).document.pages[0]!.blocks[i]);
  /** Writes the draft over REST as the signed-in person (a second editor, as far as the page knows). */
  const saveOverRest = async (p: Page, blocks: unknown[]) => {
    const current = await draft();
    const r = await p.request.put(`${t.url}/api/builder/draft`, {
      headers: { Origin: t.url },
      data: {
        siteId,
        revision: current.revision,
        document: { ...current.document, pages: [{ ...current.document.pages[0]!, blocks }] },
      },
    });
    assert.equal(r.status(), 201, await r.text());
  };
  const textField = (p: Page) => p.locator('#block-1 textarea[name=markdown]');
  const openText = async (p: Page) => {
    const details = p.locator('#block-1 > details');
    if ((await details.getAttribute('open')) === null) await details.locator(':scope > summary').click();
  };

  beforeAll(async () => {
    t = await startTestInstance();
    browser = await launchBrowser();
    w = await newWatchedPage(browser);
    page = w.page;
    await signUpInBrowser(page, t.url, 'ada', { name: 'Ada' });
    await page.goto(`${t.url}/builder`);
    await page.locator('#new-site').getByLabel('Title').fill('Ada’s Soups');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/builder\/sites\/[0-9a-f-]+/);
    siteId = new URL(page.url()).pathname.split('/')[3]!;
    editorUrl = `${t.url}/builder/sites/${siteId}`;
    await saveOverRest(page, [
      { type: 'heading', level: 1, text: 'Soups' },
      { type: 'text', markdown: 'Leek soup.' },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('given the editor, when it opens, then the preview is there at once and can be shown at a phone’s width', async () => {
    await page.goto(editorUrl);
    const frame = page.locator('iframe.preview-frame');
    await frame.waitFor();
    assert.match((await frame.getAttribute('src'))!, /\/sites\/_preview\//);
    await page.getByRole('button', { name: 'Phone' }).click();
    assert.equal(await page.getByRole('button', { name: 'Phone' }).getAttribute('aria-pressed'), 'true');
    const width = await frame.evaluate((f) => (f as unknown as { clientWidth: number }).clientWidth);
    assert.ok(width <= 392, `phone width: ${width}`);
    await checkPage(w, 'builder-editing-open');
  });

  test('given the editor scrolled so a control lies under the sticky edit bar, when it is focused or clicked, then it comes out from under the bar, at 390 and 1280 px', async () => {
    await page.goto(editorUrl);
    // Every control of the block list that can be used (handles, sections, move and delete), in turn.
    const controls = 'ol.blocks [data-handle], ol.blocks summary, ol.blocks button';
    const count = await page.locator(controls).count();
    assert.ok(count >= 8, `controls to try: ${count}`);
    /** Scrolls the nth control to half under the bar, then focuses it: where it ends up. */
    const focusFromUnderTheBar = (nth: number) =>
      page.evaluate(`(() => {
        const el = [...document.querySelectorAll(${JSON.stringify(controls)})]
          .filter((e) => e.checkVisibility() && !e.disabled)[${nth}];
        if (!el) return null;
        const bar = document.querySelector('[data-edit-bar]');
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - bar.offsetHeight / 2);
        el.focus();
        const r = el.getBoundingClientRect();
        const b = bar.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          what: el.textContent.trim().slice(0, 30) || el.outerHTML.slice(0, 60),
          under: r.top < b.bottom && r.bottom > b.top && r.right > b.left && r.left < b.right,
          reached: hit !== null && (hit === el || el.contains(hit)),
        };
      })()`) as Promise<{ what: string; under: boolean; reached: boolean } | null>;
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      for (let i = 0; ; i++) {
        const at = await focusFromUnderTheBar(i);
        if (!at) break;
        assert.deepEqual(
          at,
          { what: at.what, under: false, reached: true },
          `${size.width} px, control ${i}`,
        );
      }
      // A click (Playwright scrolls the control into view as the browser does) reaches the control itself.
      const handle = page.locator('#block-1 [data-handle]');
      await handle.evaluate(
        `(el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 20)`,
      );
      await handle.click({ trial: true, timeout: 5_000 });
      // What a person sees scrolled into the blocks: the bar stuck above them (a viewport, not the page).
      await handle.focus();
      await page.screenshot({ path: `${ARTIFACTS}builder-editing-bar-${size.width}.png` });
    }
    await page.setViewportSize(DESKTOP);
  });

  test('given text typed in a block, when the page is reloaded before it is saved, then the text is back, the page says so, and it is then saved', async () => {
    await page.goto(editorUrl);
    await openText(page);
    await textField(page).click();
    await textField(page).press('End');
    await page.keyboard.type(' With bread.');
    // Reloaded before the pause that saves it.
    await page.reload();
    await openText(page);
    assert.equal(await textField(page).inputValue(), 'Leek soup. With bread.');
    await page.locator('[data-restored]').waitFor();
    await until(async () => (await blockWords(1)) === 'Leek soup. With bread.', 'the restored text saved');
    await page.getByText(/^Saved \d/).waitFor();
  });

  test('given text typed, when the pause passes, then it is saved in place (no reload, focus kept) and a reload shows it saved', async () => {
    await page.goto(editorUrl);
    await openText(page);
    await textField(page).click();
    await textField(page).press('End');
    const marker = await page.evaluate(() => {
      (globalThis as unknown as { __kept: number }).__kept = 42;
      return 42;
    });
    await page.keyboard.type(' Hot.');
    await page
      .getByText('Saving…')
      .or(page.getByText(/^Saved \d/))
      .first()
      .waitFor();
    await page.getByText(/^Saved \d/).waitFor();
    assert.equal(await blockWords(1), 'Leek soup. With bread. Hot.');
    // The same document (no navigation) and the caret still in the field.
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __kept?: number }).__kept), marker);
    assert.equal(await page.evaluate("document.activeElement?.getAttribute('name')"), 'markdown');
    await page.keyboard.type('!');
    await page.getByText(/^Saved \d/).waitFor();
    await until(async () => (await blockWords(1)) === 'Leek soup. With bread. Hot.!', 'typing goes on');
    await page.reload();
    await openText(page);
    assert.equal(await textField(page).inputValue(), 'Leek soup. With bread. Hot.!');
    assert.equal(await page.locator('[data-restored]').count(), 0);
  });

  test('given saved changes, when Undo, Ctrl+Z and Shift+Ctrl+Z are used, then the draft walks back and forth', async () => {
    const [heading] = (await draft()).document.pages[0]!.blocks;
    const w0 = await blockWords(1);
    await saveOverRest(page, [heading, { type: 'text', markdown: 'Step one.' }]);
    await saveOverRest(page, [heading, { type: 'text', markdown: 'Step two.' }]);
    await page.goto(editorUrl);
    const undo = page.getByRole('button', { name: 'Undo the last change to the draft' });
    const redo = page.getByRole('button', { name: 'Redo what was undone' });
    assert.equal(await redo.isDisabled(), true);
    await undo.click();
    await until(async () => (await blockWords(1)) === 'Step one.', 'undone once');
    await until(async () => !(await redo.isDisabled()), 'redo offered');
    // The page says what was taken back, in words, and which draft it is back to (its time; revision
    // numbers are not a person's words).
    const said = page.locator('[data-field=step-words]');
    await said.filter({ hasText: 'Undid: changed the text ‘Step one.’ to ‘Step two.’' }).waitFor();
    assert.match(
      (await said.innerText()).replace(/\s+/g, ' '),
      /back as it was at .*\d{2}:\d{2}; Redo brings the change back/,
    );
    assert.doesNotMatch(await said.innerText(), /revision/);
    // The edit bar's state line, where Undo was pressed, says it too, shortly, with the time.
    await page
      .locator('[data-save-status]', {
        hasText: /^Undid: changed the text ‘Step one\.’ to ‘Step two\.’ · \d{2}:\d{2}$/,
      })
      .waitFor();
    await checkPage(w, 'builder-editing-undone');
    // Not in a text field: the keys walk the draft's history.
    await page.evaluate('document.activeElement?.blur?.()');
    await page.keyboard.press('Control+z');
    await until(async () => (await blockWords(1)) === w0, 'undone twice');
    await said.filter({ hasText: /Undid: changed the text ‘.+’ to ‘Step one\.’/ }).waitFor();
    await page.keyboard.press('Control+Shift+z');
    await until(async () => (await blockWords(1)) === 'Step one.', 'redone');
    await said.filter({ hasText: /Redid: changed the text ‘.+’ to ‘Step one\.’/ }).waitFor();
    await page.locator('[data-save-status]', { hasText: /^Redid: changed the text/ }).waitFor();
    await openText(page);
    await until(async () => (await textField(page).inputValue()) === 'Step one.', 'the page shows it');
    await redo.click();
    await until(async () => (await blockWords(1)) === 'Step two.', 'redone twice');
    await until(async () => await redo.isDisabled(), 'nothing more to redo');
  });

  test('given two tabs, when both change the same block, then the second keeps what it typed beside the first’s change, and both choices work; a change elsewhere just goes on top', async () => {
    const other = await w.context.newPage();
    other.on('dialog', (d) => void d.accept());
    await page.goto(editorUrl);
    await other.goto(editorUrl);
    // The other tab changes the text block.
    await openText(other);
    await textField(other).fill('Pea soup.');
    await other.getByRole('button', { name: 'Save block' }).first().click();
    await until(async () => (await blockWords(1)) === 'Pea soup.', 'their save');

    // This tab, still on the older revision, types in the same block.
    await openText(page);
    await textField(page).click();
    await textField(page).fill('');
    await page.keyboard.type('Carrot soup.');
    const conflict = page.locator('#block-1 [data-conflict]');
    await conflict.waitFor();
    assert.equal(await textField(page).inputValue(), 'Carrot soup.');
    assert.match((await conflict.locator('[data-field=theirs]').textContent())!, /Pea soup\./);
    assert.equal(await blockWords(1), 'Pea soup.');
    await page.getByText('Not saved — someone else changed this').waitFor();
    await checkPage(w, 'builder-editing-conflict');

    // Keep mine: saved on top of theirs.
    await page.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
    await until(async () => (await blockWords(1)) === 'Carrot soup.', 'mine kept');
    await until(
      async () => (await page.locator('#block-1 [data-conflict]').count()) === 0,
      'no conflict shown',
    );

    // Again, and this time take theirs.
    await other.reload();
    await openText(other);
    await textField(other).fill('Kale soup.');
    await other.getByRole('button', { name: 'Save block' }).first().click();
    await until(async () => (await blockWords(1)) === 'Kale soup.', 'their second save');
    await textField(page).click();
    await page.keyboard.type(' Spicy.');
    await page.locator('#block-1 [data-conflict]').waitFor();
    await page.locator('#block-1').getByRole('link', { name: 'Take theirs' }).click();
    await openText(page);
    await until(async () => (await textField(page).inputValue()) === 'Kale soup.', 'theirs shown');
    assert.equal(await blockWords(1), 'Kale soup.');

    // A change to another block in the other tab: this tab's typing goes on top without a conflict.
    await other.reload();
    const heading = other.locator('#block-0');
    await heading.locator(':scope > details > summary').click();
    await heading.locator('input[name=text]').fill('Soups of the day');
    await heading.getByRole('button', { name: 'Save block' }).click();
    await until(async () => (await blockWords(0)) === 'Soups of the day', 'their heading');
    await textField(page).click();
    await page.keyboard.type(' Daily.');
    await until(async () => (await blockWords(1)) === 'Kale soup. Daily.', 'mine on top of theirs');
    assert.equal(await blockWords(0), 'Soups of the day');
    await until(
      async () => (await page.locator('#block-1 [data-conflict]').count()) === 0,
      'no conflict shown',
    );
    assert.deepEqual(w.errors, []);
    await other.close();
  });

  test('given text typed and not yet saved, when the person leaves the page, then the browser asks first, and coming back the text is there', async () => {
    await page.goto(editorUrl);
    await openText(page);
    await textField(page).click();
    await textField(page).press('End');
    await page.keyboard.type(' Warm.');
    const asked = page.waitForEvent('dialog', (d) => d.type() === 'beforeunload');
    // Left at once (before the pause that saves); the kit accepts the dialog, as one who leaves anyway.
    await page.goto(`${t.url}/builder`);
    await asked;
    await page.goto(editorUrl);
    await openText(page);
    assert.match(await textField(page).inputValue(), / Warm\.$/);
    await page.locator('[data-restored]').waitFor();
    await until(async () => /Warm\.$/.test(String(await blockWords(1))), 'the text saved on coming back');
  });

  test('given text typed in “Add text”, “Add a heading” and Site settings → Description, when the page is reloaded, then each is back with the notice, nothing is saved until its button, and leaving asks first', async () => {
    await page.goto(editorUrl);
    const before = (await draft()).revision;
    await page.locator('#add-text > summary').click();
    await page.locator('#add-text textarea[name=markdown]').fill('Barley soup, on Fridays.');
    await page.locator('#add-heading > summary').click();
    await page.locator('#add-heading input[name=text]').fill('Winter soups');
    const description = page.locator('#settings textarea[name=description]');
    await description.fill('Soups from Ada’s kitchen.');
    await page.screenshot({ path: `${ARTIFACTS}/editor-held-typed.png`, fullPage: true });
    // Reloading with text not sent asks first (the kit accepts, as one who reloads anyway).
    const asked = page.waitForEvent('dialog', (d) => d.type() === 'beforeunload');
    await page.reload();
    await asked;
    await page.locator('[data-restored]').waitFor();
    assert.match(
      String(await page.locator('[data-restored]').textContent()),
      /is back; each is saved when you press its button/,
    );
    assert.equal(
      await page.locator('#add-text textarea[name=markdown]').inputValue(),
      'Barley soup, on Fridays.',
    );
    assert.equal(await page.locator('#add-heading input[name=text]').inputValue(), 'Winter soups');
    assert.equal(await description.inputValue(), 'Soups from Ada’s kitchen.');
    assert.equal(await page.locator('#add-text').getAttribute('open'), '');
    // Held, not autosaved: the draft is as it was until a button is pressed.
    assert.equal((await draft()).revision, before);
    await page.getByRole('button', { name: 'Add text', exact: true }).click();
    await until(
      async () =>
        (await draft()).document.pages[0]!.blocks.some((b) => words(b) === 'Barley soup, on Fridays.'),
      'the added text saved',
    );
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/^Saved \d/).waitFor();
    await page.locator('#main:not([data-saving])').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/editor-held-restored.png`, fullPage: true });
    // What was sent is forgotten; the heading not added is still kept.
    await page.reload();
    await page.locator('[data-restored]').waitFor();
    assert.match(
      String(await page.locator('[data-restored]').textContent()),
      /back in its form; it is saved when you press its button/,
    );
    assert.equal(await page.locator('#add-heading input[name=text]').inputValue(), 'Winter soups');
    assert.equal(await description.inputValue(), 'Soups from Ada’s kitchen.'); // as saved
    assert.notEqual(
      await page.locator('#add-text textarea[name=markdown]').inputValue(),
      'Barley soup, on Fridays.',
    );
    // Typed back to nothing: nothing held, no question on leaving.
    await page.locator('#add-heading input[name=text]').fill('');
    await page.locator('#add-heading input[name=text]').press('Backspace');
    await page.reload();
    assert.equal(await page.locator('[data-restored]').count(), 0);
  });

  test('given a field label typed on the forms page, when the person leaves and comes back, then the browser asked first and the label is back', async () => {
    await page.goto(`${t.url}/builder/forms`);
    await page.locator('#new-form input[name=name]').fill('Soup orders');
    await page.locator('#new-form input[name=flabel]').first().fill('Which soup');
    const asked = page.waitForEvent('dialog', (d) => d.type() === 'beforeunload');
    await page.goto(`${t.url}/builder`);
    await asked;
    await page.goto(`${t.url}/builder/forms`);
    await page.locator('[data-restored]').waitFor();
    assert.equal(await page.locator('#new-form input[name=name]').inputValue(), 'Soup orders');
    assert.equal(await page.locator('#new-form input[name=flabel]').first().inputValue(), 'Which soup');
    await page.screenshot({ path: `${ARTIFACTS}/forms-restored.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.waitForURL(/\/builder\/forms\/[^/?]+/);
    await page.goto(`${t.url}/builder/forms`);
    assert.equal(await page.locator('[data-restored]').count(), 0);
  });

  test('given “Save block” on one block and typing in another until it autosaves, when the page is reloaded, then the preview shows the draft revision the page shows (also when a save lands after the answer the URL came from)', async () => {
    await page.goto(editorUrl);
    const shown = async () => ({
      revision: Number(await page.locator('[data-draft-revision]').getAttribute('data-draft-revision')),
      preview: Number(await page.locator('iframe[data-preview]').getAttribute('data-preview-revision')),
    });
    await openText(page);
    await textField(page).fill('Leek soup, 12 Rue du Pain');
    await page.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
    await until(async () => (await blockWords(1)) === 'Leek soup, 12 Rue du Pain', 'the block saved');
    await page.locator('#main:not([data-saving])').waitFor();
    const heading = page.locator('#block-0 input[name=text]');
    const headingDetails = page.locator('#block-0 > details');
    if ((await headingDetails.getAttribute('open')) === null)
      await headingDetails.locator(':scope > summary').click();
    await heading.fill('Soups of the day!');
    await until(async () => (await blockWords(0)) === 'Soups of the day!', 'the heading autosaved');
    await page.locator('#main:not([data-saving])').waitFor();
    await page.reload();
    let now = await shown();
    assert.equal(now.revision, (await draft()).revision);
    assert.equal(now.preview, now.revision);
    // A save that lands after the answer whose URL the page keeps (a reload while it was out): the URL's
    // preview is older than the draft, and is not shown.
    await saveOverRest(page, [
      { type: 'heading', level: 1, text: 'Soups of the day!' },
      { type: 'text', markdown: 'Leek soup, 12 Rue du Pain!' },
    ]);
    await page.reload();
    now = await shown();
    assert.equal(now.revision, (await draft()).revision);
    assert.equal(now.preview, now.revision);
    await page.frameLocator('iframe[data-preview]').getByText('Leek soup, 12 Rue du Pain!').waitFor();
    assert.equal(await page.locator('[data-preview-differs]').count(), 0);
    for (const [size, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${ARTIFACTS}/editor-preview-after-reload-${name}.png`, fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
  });

  test('given no JavaScript, when a block is saved and then saved again over a change made elsewhere, then the form posts and the refused post keeps the typed text beside theirs', async () => {
    const nojs = await newWatchedPage(browser, { javaScriptEnabled: false });
    await nojs.context.addCookies(await w.context.cookies());
    const p = nojs.page;
    await p.goto(editorUrl);
    await p.locator('#block-1 > details > summary').click();
    await textField(p).fill('Bean soup.');
    await p.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
    await p.waitForURL(/notice=saved/);
    assert.equal(await blockWords(1), 'Bean soup.');

    await p.locator('#block-1 > details > summary').click();
    await textField(p).fill('Lentil soup.');
    await saveOverRest(p, [
      { type: 'heading', level: 1, text: 'Soups of the day' },
      { type: 'text', markdown: 'Tomato soup.' },
    ]);
    await p.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
    await p.locator('#block-1 [data-conflict]').waitFor();
    assert.equal(await textField(p).inputValue(), 'Lentil soup.');
    assert.match((await p.locator('#block-1 [data-field=theirs]').textContent())!, /Tomato soup\./);
    assert.equal(await p.locator('[data-error-code="builder.draft_stale"]').count(), 1);
    assert.equal(await blockWords(1), 'Tomato soup.');
    // axe needs a script to run; the page without one is looked at from its screenshot.
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await p.setViewportSize({ width, height });
      await p.screenshot({
        path: `test-artifacts/web/builder-editing-conflict-nojs-${width}.png`,
        fullPage: true,
      });
    }
    await p.locator('#block-1').getByRole('button', { name: 'Save block' }).click();
    await p.waitForURL(/notice=saved/);
    assert.equal(await blockWords(1), 'Lentil soup.');
    await p.getByRole('button', { name: 'Undo the last change to the draft' }).click();
    await p.waitForURL(/notice=undone/);
    assert.equal(await blockWords(1), 'Tomato soup.');
    // Without JavaScript too, the page says what the undo took back.
    await p
      .locator('[data-field=step-words]', {
        hasText: 'Undid: changed the text ‘Tomato soup.’ to ‘Lentil soup.’',
      })
      .waitFor();
    await nojs.context.close();
  }, 120_000);

  test('given three blocks, when Move up is pressed twice on the last, then it moves in place each time, the page is not loaded again and the focus stays on the moved block’s button', async () => {
    await saveOverRest(page, [
      { type: 'heading', level: 1, text: 'Soups' },
      { type: 'text', markdown: 'Leek soup.' },
      { type: 'text', markdown: 'Pea soup.' },
    ]);
    await page.goto(editorUrl);
    const marker = await page.evaluate(() => {
      (globalThis as unknown as { __kept: number }).__kept = 7;
      return 7;
    });
    const order = async () => (await draft()).document.pages[0]!.blocks.map((b) => words(b));
    const focused = () =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: {
              activeElement: { closest(s: string): { id: string } | null; textContent: string } | null;
            };
          }
        ).document;
        return `${d.activeElement?.closest('li.block')?.id} ${d.activeElement?.textContent?.replace(/\s+/g, ' ').trim()}`;
      });
    await page.locator('#block-2').getByRole('button', { name: 'Move up block 3' }).click();
    await until(async () => (await order())[1] === 'Pea soup.', 'moved up once');
    // Put in its place on the page once the answer is in, the focus on its Move up.
    await until(async () => (await focused()) === 'block-1 Move up block 2', 'the focus kept');
    // Saved like any other change: the state line says so and Undo is offered.
    await page.getByText(/^Saved \d{2}:\d{2}$/).waitFor();
    await page.keyboard.press('Enter');
    await until(async () => (await order())[0] === 'Pea soup.', 'moved up twice');
    // At the top its Move up is off: the focus is on its Move down.
    await until(async () => (await focused()) === 'block-0 Move down block 1', 'the focus moved on');
    assert.deepEqual(await order(), ['Pea soup.', 'Soups', 'Leek soup.']);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __kept?: number }).__kept), marker);
    assert.equal(await page.locator('#block-0 h3').innerText(), '1. Text');
    await page.locator('#main:not([data-saving])').waitFor();
    await page.frameLocator('iframe[data-preview]').getByText('Pea soup.').waitFor();
    assert.deepEqual(w.errors, []);

    // Without JavaScript the button posts, and the page comes back at the block where it went.
    const nojs = await newWatchedPage(browser, { javaScriptEnabled: false });
    await nojs.context.addCookies(await w.context.cookies());
    await nojs.page.goto(editorUrl);
    await nojs.page.locator('#block-2').getByRole('button', { name: 'Move up block 3' }).click();
    await nojs.page.waitForURL(/notice=saved.*#block-1$/);
    assert.deepEqual(await order(), ['Pea soup.', 'Leek soup.', 'Soups']);
    await nojs.context.close();
  });
});
