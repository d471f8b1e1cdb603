// A new person's first site, made by asking the assistant (docs/assistant.md#confirmation), in a real
// browser: sign up, ask for a small site published at an address, read the plan in words, confirm, and
// follow the reply's link to the site as visitors see it; then what the assistant did, in words, on the
// settings page. The model is the harness's scripted OpenAI-compatible server. Screenshots at 390 and
// 1280 px, axe clean (the published site itself is only screenshotted: axe does not finish under the
// sites' script policy).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, screenshots, webSuite, type WebSuiteOptions } from './web-kit.js';

type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// *.localhost resolves to this machine in the browser, so the site's own address can be followed.
const withModel: WebSuiteOptions = { model: true, instance: { env: { SITES_DOMAIN: 'sites.localhost' } } };

webSuite('a new person’s first site, made by the assistant', withModel, (web) => {
  test('given a new account, when they ask for a small site and confirm the plan, then the reply links to the live site and following it shows their page', async () => {
    const w = await web.signedUp('opal', { name: 'Opal' });
    const { page } = w;
    await page.goto(`${web.t.url}/assistant`);
    await checkPage(w, 'new-user-assistant');

    // The draft as the site will be created (a read: it runs without asking and creates nothing).
    const draft = (
      (await (
        await page.request.post(`${web.t.url}/api/ops/svc.builder.read_draft`, {
          data: {},
          headers: { Origin: web.t.url },
        })
      ).json()) as Loose
    ).result;
    const document = {
      schemaVersion: 1,
      pages: [
        {
          path: '/',
          title: 'Opal’s bakery',
          blocks: [
            { type: 'heading', text: 'Fresh bread every morning' },
            { type: 'text', markdown: 'Sourdough, rye and buns, baked before seven.' },
          ],
        },
      ],
    };
    const writes = [
      { name: 'svc__builder__save_draft', arguments: { revision: draft.revision, document } },
      { name: 'svc__builder__claim_address', arguments: { label: 'opal-bakes' } },
      { name: 'svc__builder__publish', arguments: {} },
    ];
    // A model reads the draft first; what it reads may not start changes in the same turn, so its writes
    // are declined there, and the page says why and what to do next.
    web.model.reply(
      { toolCalls: [{ name: 'svc__builder__read_draft', arguments: {} }] },
      { toolCalls: writes },
      { text: 'I had a look at your site and wrote a one-page site for your bakery.' },
    );
    await page.getByLabel('Your message').fill('Make me a small site for my bakery and publish it');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/assistant\/threads\//);
    const first = page.locator('.message-assistant').last();
    await first.locator('[data-note="declined"]').first().waitFor();
    assert.match(
      await first.locator('[data-notes]').innerText(),
      /Not added to the plan: Save the draft, Claim a site address and Publish a site\. The assistant asked for them after reading a site’s text[\s\S]*“yes, go ahead” will do/,
    );
    assert.equal(await page.locator('[data-plan]').count(), 0);
    await checkPage(w, 'new-user-declined');

    // Asked again in the person's own words: the plan.
    web.model.reply({ toolCalls: writes }, { text: 'Confirm, and your site goes live at opal-bakes.' });
    await page.getByLabel('Your message').fill('Yes, go ahead');
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();
    const words = (await card.locator('[data-step-words]').allInnerTexts()).map((x) => x.trim());
    assert.deepEqual(words, [
      '1. Save a new draft of your default site',
      '2. Give your default site the address ‘opal-bakes’',
      '3. Publish the current draft of your default site',
    ]);
    // The draft's values read from the site are not in the sentence: its details are open to show them.
    const step1 = card.locator('[data-step="1"]');
    await step1.getByText('Some values in its details').waitFor();
    assert.equal(await step1.locator('.step-details').getAttribute('open'), '');
    await step1.locator('.step-details mark.untrusted').first().waitFor();
    await checkPage(w, 'new-user-plan');

    await card.getByRole('button', { name: 'Confirm all' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const done = page.locator('[data-plan]').last().locator('[data-done]');
    assert.match(
      await done.innerText(),
      /All 3 steps ran\.[\s\S]*Saved a new draft[\s\S]*Gave your default site the address ‘opal-bakes’[\s\S]*Published the current draft/,
    );
    const live = done.locator('[data-live-link] a');
    const href = await live.getAttribute('href');
    assert.match(href ?? '', /^http:\/\/opal-bakes\.sites\.localhost:\d+\/$/);
    await checkPage(w, 'new-user-done');

    // Following the link: the site as visitors see it.
    await live.click();
    await page.waitForURL(href!);
    await page.getByRole('heading', { name: 'Fresh bread every morning' }).waitFor();
    await screenshots(page, 'new-user-live-site');

    // What the assistant did, in words (the tool ids only in small print).
    await page.goto(`${web.t.url}/assistant/settings`);
    const did = page.locator('#provenance');
    await did.getByText('Publish the current draft of your default site').first().waitFor();
    const rows = await did.locator('[data-did-words]').allInnerTexts();
    assert.ok(rows.includes('Give your default site the address ‘opal-bakes’'), rows.join(' | '));
    await checkPage(w, 'new-user-what-it-did');
    await w.context.close();
  });
});
