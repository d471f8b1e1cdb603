// What a new owner types in the editor, taken as meant, in Chromium (docs/builder.md#links,
// #starter-templates, #rendering): a site from the shop template names the template's words still to
// replace (its footer line among them) until they are replaced; a bare email address in a Links block is
// saved as a mailto: link; a line that is still no address is refused by its line, in words, with its
// code in small print and what was typed kept; an address typed on two lines shows on two lines in the
// preview and on the published site. Screenshots at 390 and 1280 px, axe.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, editorAnswered, openDetails, screenshots, webSuite } from './web-kit.js';

webSuite('what a new owner types in the editor', (web) => {
  test('given the shop template, when Ada fills in her address, links and footer as she would type them, then they are taken as meant and what is left of the template is named until it is gone', async () => {
    const w = await web.signedUp('ada', { name: 'Ada' });
    const { page } = w;
    await page.goto(`${web.t.url}/builder`);
    await page.getByLabel('Title').fill("Ada's Bakery");
    await page.getByRole('radio', { name: /A small shop/ }).check();
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    const siteId = /\/builder\/sites\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const editor = `${web.t.url}/builder/sites/${siteId}`;
    const draft = async () => (await web.t.instance.services.builder.read.draft(siteId))!;

    // The template's words still to replace are named, where they are: the footer line among them.
    await page.locator('[data-field=placeholders]').waitFor();
    const where = page.locator('details', { has: page.locator('summary', { hasText: 'Where they are' }) });
    await openDetails(where);
    await where.getByText('In the footer: the text “Open Monday to Saturday.”').waitFor();
    await where.getByText('On “Visit us”: the text “Your street and number…”').waitFor();
    await where.getByText('On “Visit us”: the link “Write to us”, which goes to').waitFor();
    await page.locator('[data-field=placeholder-links]').waitFor();
    await checkPage(w, 'builder-template-placeholders');

    // The "Visit us" page: the address on two lines, then the links as Ada types them.
    await page.goto(`${editor}?page=1`);
    await page
      .getByRole('heading', { name: /Visit us/ })
      .first()
      .waitFor();
    const text = page.locator('#block-1');
    await openDetails(text.locator(':scope > details'));
    await text.locator('textarea[name=markdown]').fill('12 Mill Street\n4051 Riverton');
    await text.getByRole('button', { name: 'Save block' }).click();
    await editorAnswered(page);
    const revision = (await draft()).revision;
    await page.locator(`iframe[data-preview][data-preview-revision="${revision}"]`).waitFor();
    const preview = page.frameLocator('iframe[data-preview]');
    assert.equal(
      await preview.locator('main p', { hasText: '12 Mill Street' }).innerText(),
      '12 Mill Street\n4051 Riverton',
      'one paragraph of two lines in the preview',
    );

    const links = page.locator('#block-2');
    await openDetails(links.locator(':scope > details'));
    const field = links.getByLabel('Links');
    assert.match(
      (await links.locator('.hint', { hasText: 'One a line' }).textContent()) ?? '',
      /an email address/,
    );
    await field.fill(
      'See us on a map | https://www.openstreetmap.org/\nWrite to us | ada@adasbakery.example',
    );
    await links.getByRole('button', { name: 'Save block' }).click();
    await editorAnswered(page);
    await eventually('the bare email address is saved as a mailto: link', async () => {
      const block = (await draft()).document.pages[1]!.blocks[2]!;
      return block.type === 'links' && block.items[1]!.url === 'mailto:ada@adasbakery.example';
    });
    const saved = (await draft()).revision;
    await page.locator(`iframe[data-preview][data-preview-revision="${saved}"]`).waitFor();
    assert.equal(
      await preview.getByRole('link', { name: 'Write to us' }).getAttribute('href'),
      'mailto:ada@adasbakery.example',
    );

    // A line that is still no address: refused by its line, in words, the code in small print; what
    // Ada typed stays in the field and nothing is saved.
    await openDetails(links.locator(':scope > details'));
    const typed = 'See us on a map | https://www.openstreetmap.org/\nWrite to us | ada at adasbakery';
    await links.getByLabel('Links').fill(typed);
    await links.getByRole('button', { name: 'Save block' }).click();
    await page.locator('#main:not([data-saving])').waitFor();
    await page
      .getByText('Line 2: ‘ada at adasbakery’ is not a web address or email address.')
      .first()
      .waitFor();
    await page.locator('[data-error-code="builder.link_invalid"]').first().waitFor();
    assert.equal(await links.getByLabel('Links').inputValue(), typed, 'what was typed is kept');
    assert.equal((await draft()).revision, saved, 'nothing saved');
    await checkPage(w, 'builder-links-refused');

    // The footer made Ada's own: the template's footer line is no longer named.
    await page.goto(`${editor}?page=1`);
    await page.getByLabel('Footer text').fill('Open Tuesday to Saturday. 12 Mill Street, Riverton.');
    await page.getByRole('button', { name: 'Save footer' }).click();
    await editorAnswered(page);
    await page.goto(`${editor}?page=1`);
    await openDetails(where);
    const listed = (await where.locator('li').allTextContents()).join(' | ');
    assert.doesNotMatch(listed, /footer|Your street|Write to us/, listed);
    assert.match(listed, /Say in one sentence what your shop sells/, listed);

    // Published (the first publish gives the site its address, from the title): the address on two
    // lines there too, the mail link as saved.
    await page.getByRole('link', { name: 'Publish and versions' }).first().click();
    await page.getByRole('button', { name: 'Publish the draft' }).click();
    await page.getByText('Published: the site now serves this draft.').waitFor();
    await web.t.sites.refresh(siteId);
    const visitor = await web.page({ desktop: false });
    await visitor.page.goto(`${web.t.url}/sites/adas-bakery/visit/`);
    const address = visitor.page.locator('main p', { hasText: '12 Mill Street' });
    assert.equal(await address.innerText(), '12 Mill Street\n4051 Riverton');
    assert.equal(
      await visitor.page.getByRole('link', { name: 'Write to us' }).getAttribute('href'),
      'mailto:ada@adasbakery.example',
    );
    // The site's sandbox lets no script run, axe included: screenshots only (web.md#tests).
    await screenshots(visitor.page, 'site-address-two-lines');
    assert.deepEqual(visitor.errors, [], 'the visitor’s console holds no error');
    assert.deepEqual(visitor.cspViolations, []);
    await visitor.context.close();
    await w.context.close();
  });
});
