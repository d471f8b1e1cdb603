// The landing and home pages in a person's words, in a real browser: the landing page says what a person
// can do (a website, the assistant, agents); the home page goes to the builder and the assistant, keeps
// the agent id in small print, renders each event as a sentence in a table per area with its type in
// small print, attributes each to who really did it — the instance's first start to "the instance", a
// visitor's form submission to "a visitor", the person's own to "you" — and shows times in the reader's
// time zone.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import type { Loose } from './mcp-helpers.js';
import { checkPage, signUpInBrowser, webSuite } from './web-kit.js';

const FIELDS = [
  { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 100 },
  { type: 'textarea', name: 'message', label: 'Message' },
];

webSuite('the landing and home pages speak to people', (web) => {
  const call = async (page: Page, method: 'POST' | 'PUT' | 'GET', path: string, data?: unknown) => {
    const r = await page.request.fetch(`${web.t.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: web.t.url },
      ...(data !== undefined && { data }),
    });
    assert.ok(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`);
    return ((await r.json()) as { result: Loose }).result;
  };

  test('given a person whose site got a visitor’s form, when they open their home page, then each event is a sentence by whoever really did it, in their time zone', async () => {
    const w = await web.page({ timezoneId: 'Asia/Tokyo' });
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await page.goto(`${web.t.url}/`);
    for (const what of ['Your website', 'Your assistant', 'Your agents'])
      await page.getByRole('heading', { name: what }).waitFor();
    assert.equal(
      await page.getByText('append-only log').count(),
      0,
      'the landing page speaks to people first',
    );
    // The instance's and its key's ids are small print, behind a disclosure, not in big text.
    const keyId = page.locator('[data-field=key-id]');
    assert.equal(await keyId.isVisible(), false, 'the key id waits behind "Technical details"');
    await page.locator('details.instance-details > summary').click();
    await keyId.waitFor();
    assert.equal((await keyId.textContent())?.trim(), web.t.instance.services.signer.keyId);
    const fontSize = (selector: string) =>
      page.evaluate(`parseFloat(getComputedStyle(document.querySelector('${selector}')).fontSize)`);
    assert.ok(
      ((await fontSize('[data-field=key-id] code')) as number) < ((await fontSize('p.intro')) as number),
      'in smaller print than the introduction',
    );
    await checkPage(w, 'landing-words');

    const byOf = async (type: string) => {
      const row = page.locator('#events tr', {
        has: page.locator(`code[data-event-type]`, { hasText: type }),
      });
      return (await row.first().locator('td').nth(1).textContent())?.trim();
    };
    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada Lovelace' });
    // The home page lists sequenced events: the sign-up's are there once the sequencer numbered them.
    await eventually('the sign-up on the home page', async () => {
      await page.goto(`${web.t.url}/home`);
      return (await page.locator('code[data-event-type]', { hasText: 'account.registered' }).count()) > 0;
    });
    // The first account takes over the agent the instance started with: its first start is the instance's.
    assert.equal(await byOf('instance.initialized'), 'the instance');
    assert.equal(await byOf('account.registered'), 'you');
    // A site with a form, published; then a visitor (no session) sends the form.
    const form = (await call(page, 'POST', '/api/builder/forms', { name: 'Contact', fields: FIELDS })).form;
    const site = await call(page, 'POST', '/api/builder/sites', { title: 'Shop' });
    const siteId = (site.siteId ?? site.site?.siteId) as string;
    const draft = await call(page, 'GET', `/api/builder/draft?siteId=${siteId}`);
    const document = structuredClone(draft.document);
    document.pages[0].blocks.push({ type: 'form', formId: form.formId });
    await call(page, 'PUT', '/api/builder/draft', { siteId, revision: draft.revision, document });
    // The address first: a publish without one would take one made from the title.
    await call(page, 'POST', '/api/builder/address', { siteId, label: 'shop' });
    await call(page, 'POST', '/api/ops/svc.builder.publish', { siteId });
    await web.t.sites.refresh(siteId);
    const sent = await fetch(`${web.t.url}/sites/shop/_forms/${form.formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Vera Visitor', message: 'Hello' }).toString(),
    });
    assert.equal(sent.status, 200, await sent.text());

    await eventually('the visitor’s submission on the home page', async () => {
      await page.goto(`${web.t.url}/home`);
      return (
        (await page.locator('code[data-event-type]', { hasText: 'form.submission_received' }).count()) > 0
      );
    });
    assert.equal(await byOf('form.submission_received'), 'a visitor');
    assert.equal(await byOf('site.published'), 'you');
    // Each event a sentence, the type (its technical name) only once asked for; one table per area.
    assert.equal(await page.locator('#events code[data-event-type]').first().isVisible(), false);
    await page.locator('#events h3', { hasText: 'Sites, forms and pictures' }).waitFor();
    const sentence = await page
      .locator('#events tr', { has: page.locator('code[data-event-type]', { hasText: 'site.published' }) })
      .first()
      .locator('td')
      .first()
      .textContent();
    assert.match(sentence ?? '', /‘Shop’ was published/, 'the site named');

    // The home page goes to the builder and the assistant, and keeps the agent id in small print.
    const links = page.locator('#links');
    assert.equal(await links.getByRole('link', { name: 'Builder' }).getAttribute('href'), '/builder');
    assert.equal(await links.getByRole('link', { name: 'Assistant' }).getAttribute('href'), '/assistant');
    assert.equal(await page.locator('#me dl code').count(), 0, 'no agent id among who you are');

    // Times in the reader's zone (Tokyo here: UTC+9, no summer time), the UTC form as the tooltip.
    const time = page.locator('#events time').first();
    const iso = (await time.getAttribute('datetime'))!;
    const tokyo = new Date(new Date(iso).getTime() + 9 * 3600_000);
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const two = (n: number) => String(n).padStart(2, '0');
    assert.equal(
      (await time.textContent())?.trim(),
      `${tokyo.getUTCDate()} ${month[tokyo.getUTCMonth()]} ${tokyo.getUTCFullYear()}, ${two(tokyo.getUTCHours())}:${two(tokyo.getUTCMinutes())}`,
    );
    assert.match((await time.getAttribute('title')) ?? '', /UTC$/);
    await checkPage(w, 'home-words');
    await w.context.close();
  });
});
