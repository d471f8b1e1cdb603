// The landing and home pages in a person's words, in a real browser: the landing page says what a person
// can do (a website, the assistant, agents); the home page goes to the builder and the assistant, keeps
// the agent id in small print, renders each event as a sentence in a table per area with its type in
// small print, attributes each to who really did it — the instance's first start to "the instance", a
// visitor's form submission to "a visitor", the person's own to "you" — and shows times in the reader's
// time zone.
import { chromiumAvailable, eventually, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Loose } from './mcp-helpers.js';
import { checkPage, launchBrowser, newWatchedPage, signUpInBrowser } from './web-kit.js';

const FIELDS = [
  { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 100 },
  { type: 'textarea', name: 'message', label: 'Message' },
];

describe.skipIf(!chromiumAvailable())('the landing and home pages speak to people', () => {
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

  const call = async (page: Page, method: 'POST' | 'PUT' | 'GET', path: string, data?: unknown) => {
    const r = await page.request.fetch(`${t.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: t.url },
      ...(data !== undefined && { data }),
    });
    assert.ok(r.ok(), `${method} ${path}: ${r.status()} ${await r.text()}`);
    return ((await r.json()) as { result: Loose }).result;
  };

  test('given a person whose site got a visitor’s form, when they open their home page, then each event is a sentence by whoever really did it, in their time zone', async () => {
    const w = await newWatchedPage(browser, { timezoneId: 'Asia/Tokyo' });
    const { page } = w;
    page.setDefaultTimeout(30_000);
    await page.goto(`${t.url}/`);
    for (const what of ['Your website', 'Your assistant', 'Your agents'])
      await page.getByRole('heading', { name: what }).waitFor();
    assert.equal(
      await page.getByText('append-only log').count(),
      0,
      'the landing page speaks to people first',
    );
    await checkPage(w, 'landing-words');

    const byOf = async (type: string) => {
      const row = page.locator('#events tr', {
        has: page.locator(`code[data-event-type]`, { hasText: type }),
      });
      return (await row.first().locator('td').nth(1).textContent())?.trim();
    };
    await signUpInBrowser(page, t.url, 'ada', { name: 'Ada Lovelace' });
    // The home page lists sequenced events: the sign-up's are there once the sequencer numbered them.
    await eventually('the sign-up on the home page', async () => {
      await page.goto(`${t.url}/home`);
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
    await t.sites.refresh(siteId);
    const sent = await fetch(`${t.url}/sites/shop/_forms/${form.formId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'Vera Visitor', message: 'Hello' }).toString(),
    });
    assert.equal(sent.status, 200, await sent.text());

    await eventually('the visitor’s submission on the home page', async () => {
      await page.goto(`${t.url}/home`);
      return (
        (await page.locator('code[data-event-type]', { hasText: 'form.submission_received' }).count()) > 0
      );
    });
    assert.equal(await byOf('form.submission_received'), 'a visitor');
    assert.equal(await byOf('site.published'), 'you');
    // Each event a sentence, the type in small print; one table per area.
    await page.locator('#events h3', { hasText: 'Your sites' }).waitFor();
    const sentence = await page
      .locator('#events tr', { has: page.locator('code[data-event-type]', { hasText: 'site.published' }) })
      .first()
      .locator('td')
      .first()
      .textContent();
    assert.match(sentence ?? '', /A site was published/);

    // The home page goes to the builder and the assistant, and keeps the agent id in small print.
    const links = page.locator('#links');
    assert.equal(await links.getByRole('link', { name: 'Builder' }).getAttribute('href'), '/builder');
    assert.equal(await links.getByRole('link', { name: 'Assistant' }).getAttribute('href'), '/assistant');
    assert.equal(await page.locator('#me dl code').count(), 0, 'no agent id among who you are');

    // Times in the reader's zone (Tokyo here), the UTC form as the tooltip.
    const time = page.locator('#events time').first();
    const iso = (await time.getAttribute('datetime'))!;
    const tokyo = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    });
    assert.equal((await time.textContent())?.trim(), tokyo.format(new Date(iso)));
    assert.match((await time.getAttribute('title')) ?? '', /UTC$/);
    await checkPage(w, 'home-words');
    await w.context.close();
  });
});
