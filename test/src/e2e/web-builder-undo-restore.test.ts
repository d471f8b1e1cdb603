// Undo after a restore, in a real browser (docs/web.md#builder-editing, docs/builder.md#undo): Ada rolled
// back a mistake, restored the good version into the draft, published and edited a heading; her Undos
// walk her own edits and say when the draft leaves or reaches what is online, the one that would take the
// restore back stops and asks (with and without JavaScript), and once she confirms the page says it in
// words and warns that the draft holds the rolled-back changes again; Redo puts the restore back. The edit
// bar stays one or two lines at 390 px with a long message, and its times are on the page's clock: the
// zone chosen on the home page, 24-hour, whatever the browser's own. Each state is checked on the draft
// as the instance holds it.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { PHONE, DESKTOP, checkPage, webSuite, type WatchedPage } from './web-kit.js';

const until = (probe: () => Promise<boolean>, what: string) => eventually(what, probe, 15_000);

const HOURS_GOOD = 'Tuesday to Friday: 7:30 to 18:00';
const HOURS_WRONG = 'Tuesday to Friday: 9:00 to 12:00';
const blocks = (heading: string, hours: string, more: unknown[] = []) => [
  { type: 'heading', level: 1, text: heading },
  { type: 'text', markdown: hours },
  ...more,
];

webSuite('undo after a restore', (web) => {
  let w: WatchedPage;
  let page: Page;
  let siteId: string;
  let editorUrl: string;

  const draft = async () => (await web.t.instance.services.builder.read.draft(siteId))!;
  const pageBlocks = async () =>
    (await draft()).document.pages[0]!.blocks as { text?: string; markdown?: string }[];
  const hours = async () => (await pageBlocks())[1]?.markdown;
  const api = async (path: string, data: Record<string, unknown>, method = 'POST') => {
    const r = await page.request.fetch(`${web.t.url}${path}`, {
      method,
      headers: { Origin: web.t.url },
      data: { siteId, ...data },
    });
    assert.ok(r.ok(), `${path}: ${await r.text()}`);
    return ((await r.json()) as { result: Record<string, unknown> }).result;
  };
  const save = async (b: unknown[]) => {
    const current = await draft();
    await api(
      '/api/builder/draft',
      {
        revision: current.revision,
        document: { ...current.document, pages: [{ ...current.document.pages[0]!, blocks: b }] },
      },
      'PUT',
    );
  };
  /**
   * The time on a 24-hour clock in Zurich, a minute either side: a time shown was taken before this check
   * (the minute may have turned since) and a save may land in the next minute.
   */
  const zurichNow = () =>
    [-60_000, 0, 60_000].map((later) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Zurich',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(Date.now() + later)),
    );
  const undo = () => page.getByRole('button', { name: 'Undo the last change to the draft' });
  const status = () => page.locator('[data-save-status]');

  test('given a rollback, a restore, a publish and a heading edit, when Ada presses Undo three times, then the third stops at the restore and asks; confirmed, it says so and the rollback warning is back', async () => {
    // The browser is in New York; Ada chose Zurich (the cookies her home page's choice sets,
    // docs/web.md#times).
    w = await web.signedUp('ada', { name: 'Ada', timezoneId: 'America/New_York' });
    page = w.page;
    await w.context.addCookies(
      ['tz=Europe/Zurich', 'tz_chosen=1'].map((c) => {
        const [name, value] = c.split('=') as [string, string];
        return { name, value, url: web.t.url };
      }),
    );
    await page.goto(`${web.t.url}/builder`);
    await page.locator('#new-site').getByLabel('Title').fill('Ada’s Bakery');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/builder\/sites\/[0-9a-f-]+/);
    siteId = new URL(page.url()).pathname.split('/')[3]!;
    editorUrl = `${web.t.url}/builder/sites/${siteId}`;

    await save(blocks('Ada’s Bakery', HOURS_GOOD, [{ type: 'text', markdown: 'Fresh bread.' }]));
    const good = await api('/api/builder/publish', {});
    await save(blocks('Ada’s Bakery', HOURS_WRONG)); // the picture's text deleted, the hours wrong
    await api('/api/builder/publish', {});
    await api('/api/builder/rollback', { versionId: good.versionId });
    await api('/api/builder/restore', { versionId: good.versionId });
    await save(blocks('Ada’s Bakery', HOURS_GOOD, [{ type: 'text', markdown: 'Fresh bread daily.' }]));
    await api('/api/builder/publish', {});

    // She edits the heading in the editor; it autosaves.
    await page.goto(editorUrl);
    await page.locator('#block-0 > details > summary').click();
    await page.locator('#block-0 input[name=text]').fill('Ada’s Bakery, Mill Street');
    await until(async () => (await pageBlocks())[0]!.text === 'Ada’s Bakery, Mill Street', 'autosaved');
    await status()
      .filter({ hasText: /^Saved \d{2}:\d{2}$/ })
      .waitFor();
    // The state line's time is on the page's clock (Zurich, 24-hour), not the browser's.
    const saved = (await status().innerText()).replace('Saved ', '');
    assert.ok(zurichNow().includes(saved), `${saved} is Zurich's time`);
    // The preview says when the draft was saved, in words, without a revision number.
    const label = await page.locator('[data-draft-revision]').innerText();
    assert.match(label, /^Preview of your draft, saved \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}: /);
    assert.doesNotMatch(await page.locator('#main').innerText(), /revision \d|Draft revision|[AP]M\b/);

    // Undo 1: her heading edit; the draft matches the site online again.
    await page.evaluate('document.activeElement?.blur?.()');
    await undo().click();
    await until(async () => (await pageBlocks())[0]!.text === 'Ada’s Bakery', 'the heading undone');
    const said = page.locator('[data-field=step-words]');
    await said
      .filter({ hasText: 'Undid: changed the heading ‘Ada’s Bakery’ to ‘Ada’s Bakery, Mill Street’' })
      .waitFor();
    assert.match(await said.innerText(), /The draft now matches your site online again\./);
    assert.doesNotMatch(await said.innerText(), /revision/);
    const shown = await status().innerText();
    assert.match(shown, /^Undid: changed the heading .* · \d{2}:\d{2}$/);
    assert.ok(zurichNow().includes(shown.slice(-5)), `${shown} is on Zurich's clock`);
    assert.match((await status().getAttribute('title'))!, /Redo brings the change back/);

    // Undo 2: the edit made before the publish; the page says the site online still has it.
    await undo().click();
    await until(async () => (await pageBlocks())[2]?.markdown === 'Fresh bread.', 'the text undone');
    await said
      .filter({ hasText: 'Your site online still has this change: the draft no longer matches it' })
      .waitFor();

    // Undo 3 would take back the restore: nothing changes, the page asks, the focus is on the choice.
    const before = await draft();
    await undo().click();
    const confirm = page.locator('[data-step-confirm]');
    await confirm.waitFor();
    await page.locator('#main:not([data-saving])').waitFor();
    assert.equal((await draft()).revision, before.revision);
    assert.match(
      (await confirm.innerText()).replace(/\s+/g, ' '),
      /Undo would take back a restore\. On .+ you restored the version published on .+ into the draft\./,
    );
    assert.equal(await status().innerText(), 'Undo stopped: it would take back a restore');
    // The question has the focus (read out); Tab goes on to its first way.
    assert.equal(await page.evaluate("document.activeElement?.hasAttribute('data-step-confirm')"), true);
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate('document.activeElement?.textContent?.trim()'),
      'Undo the restore anyway',
    );
    assert.equal(await page.locator('[data-rolled-back-warning]').count(), 0);
    await checkPage(w, 'builder-undo-restore-asks');

    // Confirmed: the restore is taken back, said in words, and the rollback warning is back.
    await confirm.getByRole('button', { name: 'Undo the restore anyway' }).click();
    await until(async () => (await hours()) === HOURS_WRONG, 'the restore undone');
    await said.filter({ hasText: 'Undid: restoring the version published on' }).waitFor();
    assert.match(
      (await said.innerText()).replace(/\s+/g, ' '),
      /The draft now holds the changes you had rolled back: publishing would put them online again\. Redo puts the restore back\./,
    );
    await page.locator('[data-rolled-back-warning]').waitFor();
    assert.match(
      await status().innerText(),
      /^Undid: restoring an earlier version into the draft · \d{2}:\d{2}$/,
    );
    await checkPage(w, 'builder-undo-restore-undone');

    // At 390 px the sticky bar stays about one button high (two lines of state at most).
    await page.setViewportSize(PHONE);
    const height = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.getBoundingClientRect().height);
    const bar = {
      bar: await height('[data-edit-bar]'),
      button: await height('[data-edit-bar] button'),
      line: await height('[data-save-status]'),
      lineHeight: parseFloat(
        await page.locator('[data-save-status]').evaluate((el) => {
          const view = el.ownerDocument.defaultView as unknown as {
            getComputedStyle(e: unknown): { lineHeight: string };
          };
          return view.getComputedStyle(el).lineHeight;
        }),
      ),
    };
    assert.ok(
      bar.line <= 2 * bar.lineHeight + 1,
      `the state line is two lines at most: ${JSON.stringify(bar)}`,
    );
    assert.ok(bar.bar <= bar.button + 24, `the bar is about one button high: ${JSON.stringify(bar)}`);
    await page.setViewportSize(DESKTOP);

    // Redo puts the restore back, and the warning goes.
    await page.getByRole('button', { name: 'Redo what was undone' }).click();
    await until(async () => (await hours()) === HOURS_GOOD, 'the restore made again');
    await said.filter({ hasText: 'Redid: restoring the version published on' }).waitFor();
    await until(async () => (await page.locator('[data-rolled-back-warning]').count()) === 0, 'no warning');
    assert.deepEqual(w.errors, []);
  });

  test('given no JavaScript, when Undo would take back the restore, then the page asks, and “Undo the restore anyway” does it', async () => {
    const nojs = await web.page({ javaScriptEnabled: false });
    await nojs.context.addCookies(await w.context.cookies());
    const p = nojs.page;
    await p.goto(editorUrl);
    const before = await draft();
    await p.getByRole('button', { name: 'Undo the last change to the draft' }).click();
    await p.locator('[data-step-confirm]').waitFor();
    assert.equal((await draft()).revision, before.revision);
    await p.getByRole('link', { name: 'Keep the restore' }).click();
    await p.waitForURL((u) => u.pathname === `/builder/sites/${siteId}`);
    assert.equal(await p.locator('[data-step-confirm]').count(), 0);
    await p.getByRole('button', { name: 'Undo the last change to the draft' }).click();
    await p.getByRole('button', { name: 'Undo the restore anyway' }).click();
    await p.waitForURL(/notice=undone/);
    assert.equal(await hours(), HOURS_WRONG);
    await p
      .locator('[data-field=step-words]', { hasText: 'Undid: restoring the version published on' })
      .waitFor();
    await p.locator('[data-rolled-back-warning]').waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await p.setViewportSize(size);
      await p.screenshot({
        path: `test-artifacts/web/builder-undo-restore-nojs-${size.width}.png`,
        fullPage: true,
      });
    }
    await nojs.context.close();
  });
});
