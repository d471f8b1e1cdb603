// A form's page names the sites whose draft holds the form — its way back to the editor (issues 39 and
// 43): read from the drafts' form references in one query, not from every draft of the owner. A form
// block in columns counts; a form taken off a draft no longer does, though an older revision held it.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { checkPage, createSiteInBrowser, webSuite } from './web-kit.js';

type Loose = Record<string, unknown>;

/** An operation as the signed-in person, through the REST route (their session). */
async function op(page: Page, base: string, name: string, input: unknown): Promise<Loose> {
  const r = await page.request.post(`${base}/api/ops/${name}`, { data: input, headers: { Origin: base } });
  const body = (await r.json()) as Loose;
  assert.ok(r.status() === 200 || r.status() === 201, `${name}: ${r.status()} ${JSON.stringify(body)}`);
  return body.result as Loose;
}

webSuite('a form’s page: the sites it is on', (web) => {
  test('given a form on two drafts (one in columns) and taken off a third, when its page is opened, then it links to the two, in the order of the sites page', async () => {
    const { t } = web;
    const w = await web.signedUp('fay', { name: 'Fay' });
    const { page } = w;
    const bakery = await createSiteInBrowser(page, t.url, 'Fay’s Bakery');
    const shop = await createSiteInBrowser(page, t.url, 'Fay’s Shop');
    const blog = await createSiteInBrowser(page, t.url, 'Fay’s Blog');
    const { form } = (await op(page, t.url, 'svc.builder.create_form', {
      name: 'Orders',
      fields: [{ type: 'text', name: 'name', label: 'Your name', required: true }],
    })) as { form: { formId: string } };
    const formPage = `${t.url}/builder/forms/${form.formId}`;
    const sites = page.locator('[data-field=form-sites]');

    // On no draft yet: the page says so, and where to add it.
    await page.goto(formPage);
    await sites.getByText('Not on any site yet').waitFor();
    assert.equal(await sites.getByRole('link', { name: 'site builder' }).getAttribute('href'), '/builder');
    await checkPage(w, 'builder-form-sites-none');

    const place = async (siteId: string, blocks: unknown[]) => {
      const draft = (await op(page, t.url, 'svc.builder.read_draft', { siteId })) as {
        revision: number;
        document: { pages: Loose[] };
      };
      const [home, ...rest] = draft.document.pages;
      await op(page, t.url, 'svc.builder.save_draft', {
        siteId,
        revision: draft.revision,
        document: { ...draft.document, pages: [{ ...home, blocks }, ...rest] },
      });
    };
    const block = { type: 'form', formId: form.formId };
    await place(blog, [{ type: 'columns', columns: [{ blocks: [block] }, { blocks: [] }] }]);
    await place(bakery, [{ type: 'heading', level: 1, text: 'Bread' }, block]);
    await place(shop, [block]);
    // Taken off the shop's draft again: an older revision holds it, the draft does not.
    await place(shop, [{ type: 'text', markdown: 'No form here.' }]);

    await page.goto(formPage);
    const links = sites.getByRole('link');
    await links.first().waitFor();
    assert.deepEqual(await links.allTextContents(), ['Fay’s Bakery', 'Fay’s Blog']);
    assert.deepEqual(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), [
      `/builder/sites/${bakery}`,
      `/builder/sites/${blog}`,
    ]);
    assert.match(
      (await sites.textContent())!.replace(/\s+/g, ' ').trim(),
      /^On the page of Fay’s Bakery, Fay’s Blog \(open the site to change where it appears\)\.$/,
    );
    await checkPage(w, 'builder-form-sites');
    await w.context.close();
  });
});
