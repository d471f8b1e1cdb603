// The owner's side of a visitor's message, in a real browser (docs/web.md#home, docs/builder.md#unread):
// a visitor sends the form on a published site; the owner's home page shows it at the top — "Your sites"
// with each site's state, "1 new message" beside the site it came through and in "New messages" — and the
// sites list says the same, each linking to the form's submissions. The form page says plainly that no
// email is sent on an instance without a mail server, and where the operator sets mail up; email
// addresses wrap only where they must. Recent events group a run of draft saves into one line naming the
// site and leave out the renders behind previews and publishes. Screenshots at 390 and 1280 px, axe.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { test } from 'vitest';
import type { Loose } from './mcp-helpers.js';
import { checkPage, DESKTOP, PASSWORD, webSuite } from './web-kit.js';

const FIELDS = [
  { type: 'text', name: 'name', label: 'Your name', required: true },
  { type: 'email', name: 'email', label: 'Your email address', required: true },
  { type: 'textarea', name: 'message', label: 'Message', required: true },
];

webSuite('a visitor’s message reaches the owner’s home page', (web) => {
  const call = async (page: Page, method: 'POST' | 'PUT' | 'GET', path: string, data?: unknown) => {
    const r = await page.request.fetch(`${web.t.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: web.t.url },
      ...(data !== undefined && { data }),
    });
    assert.ok(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`);
    return ((await r.json()) as { result: Loose }).result;
  };
  /** How many lines an inline element takes as laid out (the distinct tops of its boxes): 1 when whole. */
  const lineCount = (l: Locator) =>
    l.evaluate((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size);

  test('given a published site with a form, when a visitor sends it, then the owner’s home page and sites list say “1 new message”, linking to it, until it is read', async () => {
    const w = await web.page();
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await page.goto(`${web.t.url}/signup`);
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Handle').fill('ada_bakery');
    await page.getByLabel('Email (optional)').fill('ada@adasbakery.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${web.t.url}/home`);
    // Nothing made yet: the page's first step is the website.
    await page.locator('#sites [data-field=no-sites]').waitFor();
    assert.equal(
      await page.locator('#sites').getByRole('link', { name: 'Make your website' }).getAttribute('href'),
      '/builder',
    );
    assert.equal(
      await page.locator('.btn-primary', { hasText: 'Manage agent access' }).count(),
      0,
      'agent access is not the page’s main call to action',
    );

    // A site with a contact form, published, then edited three times; and a second site never published.
    const form = (await call(page, 'POST', '/api/builder/forms', { name: 'Contact', fields: FIELDS })).form;
    const made = await call(page, 'POST', '/api/builder/sites', { title: 'Ada’s Bakery' });
    const siteId = (made.siteId ?? made.site?.siteId) as string;
    let draft = await call(page, 'GET', `/api/builder/draft?siteId=${siteId}`);
    const document = structuredClone(draft.document);
    document.pages[0].blocks.push({ type: 'form', formId: form.formId });
    await call(page, 'PUT', '/api/builder/draft', { siteId, revision: draft.revision, document });
    await call(page, 'POST', '/api/builder/address', { siteId, label: 'adas-bakery' });
    await call(page, 'POST', '/api/ops/svc.builder.publish', { siteId });
    await web.t.sites.refresh(siteId);
    for (const opening of ['7:00', '7:30', '8:00']) {
      draft = await call(page, 'GET', `/api/builder/draft?siteId=${siteId}`);
      const next = structuredClone(draft.document);
      next.pages[0].blocks.push({ type: 'text', markdown: `Open from ${opening}` });
      await call(page, 'PUT', '/api/builder/draft', { siteId, revision: draft.revision, document: next });
    }
    const other = await call(page, 'POST', '/api/builder/sites', { title: 'Ada’s Catering' });
    const otherId = (other.siteId ?? other.site?.siteId) as string;

    // A visitor, with no session, sends the form on the live site.
    const visitor = await web.page();
    await visitor.page.goto(`${web.t.url}/sites/adas-bakery/`);
    await visitor.page.getByLabel('Your name').fill('Maria Rossi');
    await visitor.page.getByLabel('Your email address').fill('maria.rossi@gmail.com');
    await visitor.page.getByLabel('Message').fill('Could I order a birthday cake for Saturday the 14th?');
    await visitor.page.getByRole('button', { name: 'Send' }).click();
    await visitor.page.waitForURL(/\/_forms\//);
    await visitor.context.close();
    const listed = (await call(page, 'GET', '/api/builder/forms')).forms as Loose[];
    assert.equal(listed[0]!.unreadCount, 1);
    assert.deepEqual(listed[0]!.unreadBySite, [{ siteId, count: 1 }], 'counted by the site it came through');

    // The home page: the sites first, each with its state; the message beside its site and in New messages.
    await page.setViewportSize(DESKTOP);
    await page.goto(`${web.t.url}/home`);
    const headings = await page.locator('main h2').allTextContents();
    assert.deepEqual(
      headings.slice(0, 3).map((h) => h.trim()),
      ['Your sites', 'New messages', 'Who you are'],
    );
    assert.equal(headings.at(-1)?.trim(), 'For agents and apps', 'the agents’ part comes last');
    const bakery = page.locator(`#sites [data-site="${siteId}"]`);
    await bakery.locator('.badge', { hasText: 'Unpublished changes' }).waitFor();
    const site = bakery.locator('[data-field=site-new-messages]');
    assert.equal((await site.textContent())?.replace(/\s+/g, ' ').trim(), '1 new message on Ada’s Bakery');
    assert.equal(await site.getAttribute('href'), `/builder/forms/${form.formId}`);
    assert.match(
      (await bakery.locator('[data-field=view-site]').getAttribute('href'))!,
      /^http:\/\/adas-bakery\.sites\.localhost:\d+\/$/,
    );
    assert.equal(
      await bakery.getByRole('link', { name: 'Edit Ada’s Bakery' }).getAttribute('href'),
      `/builder/sites/${siteId}`,
    );
    const catering = page.locator(`#sites [data-site="${otherId}"]`);
    await catering.locator('.badge', { hasText: 'Never published' }).waitFor();
    assert.equal(await catering.locator('[data-field=view-site]').count(), 0, 'nothing to view yet');
    assert.equal(await catering.locator('[data-field=site-new-messages]').count(), 0);
    const total = page.locator('#messages [data-field=unread-submissions]');
    assert.equal((await total.textContent())?.trim(), '1 new message');
    assert.equal(await total.getAttribute('href'), `/builder/forms/${form.formId}`);
    // No mail server: said plainly, and the operator (the first account) is shown where mail is set up.
    const mail = page.locator('#messages [data-field=submission-mail]');
    assert.match(
      (await mail.textContent())!.replace(/\s+/g, ' '),
      /Email: not sent — this instance has no mail server/,
    );
    assert.equal(
      await mail.getByRole('link', { name: 'how to set up mail' }).getAttribute('href'),
      '/docs/guide#mail',
    );
    // The address on one line at desktop width, not "adasbakery.e / xample".
    assert.equal(await lineCount(page.locator('#me .email')), 1);
    // Recent events: the three saves after the publish are one line naming the site; no renders.
    const events = page.locator('#events');
    await events.getByText('The draft of ‘Ada’s Bakery’ was saved 3 times').waitFor();
    await events.getByText('‘Ada’s Bakery’ was published').waitFor();
    assert.equal(await events.getByText(/was rendered/).count(), 0, 'renders are left out');
    assert.equal(
      await events.locator('code[data-event-type]', { hasText: 'site.version_created' }).count(),
      0,
    );
    await checkPage(w, 'home-messages');

    // The sites list says it on the site's row, linking to the same submissions.
    await page.goto(`${web.t.url}/builder`);
    const row = page.locator('li.site-row', {
      has: page.getByRole('link', { name: 'Ada’s Bakery', exact: true }),
    });
    const onRow = row.locator('[data-field=site-new-messages]');
    assert.equal((await onRow.textContent())?.replace(/\s+/g, ' ').trim(), '1 new message on Ada’s Bakery');
    assert.equal(await onRow.getAttribute('href'), `/builder/forms/${form.formId}`);
    const cateringRow = page.locator('li.site-row', {
      has: page.getByRole('link', { name: 'Ada’s Catering', exact: true }),
    });
    assert.equal(await cateringRow.locator('[data-field=site-new-messages]').count(), 0);
    await checkPage(w, 'builder-sites-messages');

    // Reading it: the form page shows it as new, the address whole, and mail plainly not sent.
    await onRow.click();
    await page.waitForURL(`${web.t.url}/builder/forms/${form.formId}`);
    const submission = page.locator('#submissions tbody tr').first();
    await submission.locator('.badge', { hasText: 'new' }).waitFor();
    await page.setViewportSize(DESKTOP);
    assert.equal(await lineCount(submission.locator('.email')), 1, 'maria.rossi@gmail.com on one line');
    const card = page.locator('#submission-mail');
    assert.match(
      (await card.locator('[data-field=submission-mail]').textContent())!.replace(/\s+/g, ' '),
      /Email: not sent — this instance has no mail server\./,
    );
    assert.deepEqual(
      (await card.locator('li .badge').allTextContents()).map((b) => b.trim()),
      ['not sending', 'not sending', 'not sending'],
      'the form’s and each site’s switch, on but not sending',
    );
    assert.equal(await card.locator('[data-field=mail-setup]').getAttribute('href'), '/docs/guide#mail');
    await checkPage(w, 'form-messages');

    // Read: the count is gone from the home page and the list, and the instance agrees.
    await page.goto(`${web.t.url}/home`);
    await page.locator('#messages [data-field=no-new-messages]').waitFor();
    assert.equal(await page.locator('[data-field=site-new-messages]').count(), 0);
    const after = (await call(page, 'GET', '/api/builder/forms')).forms as Loose[];
    assert.equal(after[0]!.unreadCount, 0);
    assert.deepEqual(after[0]!.unreadBySite, []);
    await w.context.close();
  });
});
