// Two journeys of issue #39 in a real browser (docs/builder.md#addresses, #forms-and-submissions): an
// address typed as people type it ("Ada's Bakery") is repaired and claimed, and the same words from
// someone else keep what they typed and offer free addresses like it; a visitor sends a published form
// with a mistake and then correctly, on pages wearing the site's theme and header, typing nothing twice.
// Each page is screenshotted at 390 and 1280 px and checked with axe.
import { chromiumAvailable, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Loose } from './mcp-helpers.js';
import { checkPage, launchBrowser, newWatchedPage, signUpInBrowser } from './web-kit.js';

describe.skipIf(!chromiumAvailable())('addresses and the visitor’s side in a real browser', () => {
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

  /** From /builder to the address page of the person's default site. */
  const toAddressPage = async (page: Page) => {
    await page.goto(`${t.url}/builder`);
    await page.getByRole('link', { name: 'Address and domains' }).first().click();
    await page.getByRole('heading', { name: 'Free address' }).waitFor();
  };

  test('given "Ada\'s Bakery" typed as an address, then it is repaired and claimed; typed again by someone else, it stays in the field and free ones are offered', async () => {
    const ada = await newWatchedPage(browser);
    await signUpInBrowser(ada.page, t.url, 'ada', { name: 'Ada' });
    await toAddressPage(ada.page);
    await ada.page.getByRole('textbox', { name: 'Address' }).fill("Ada's Bakery");
    await ada.page.getByRole('button', { name: 'Claim address' }).click();
    await ada.page.getByText('The address is yours.').waitFor();
    await ada.page
      .locator('[data-repaired]', { hasText: 'made lower-case, apostrophes dropped, spaces made hyphens' })
      .waitFor();
    assert.match(
      (await ada.page.locator('[data-field=address-url]').getAttribute('href'))!,
      /^http:\/\/adas-bakery\.sites\.localhost:\d+\/$/,
    );
    await checkPage(ada, 'builder-address-repaired');

    // A domain pasted from the address bar: the apex is bound, its records listed with copy buttons.
    await ada.page.getByLabel('Add a domain').fill('https://www.AdasBakery.fr/');
    await ada.page.getByRole('button', { name: 'Bind domain' }).click();
    await ada.page.getByText('Domain bound').waitFor();
    await ada.page.locator('[data-repaired]', { hasText: 'www. dropped' }).waitFor();
    await ada.page.locator('[data-record-name]', { hasText: '_tributary-challenge.adasbakery.fr' }).waitFor();
    await ada.page.getByRole('button', { name: 'Copy the value of the TXT record' }).waitFor();
    await ada.page.getByRole('button', { name: 'Re-check now adasbakery.fr' }).waitFor();
    await checkPage(ada, 'builder-domain-walkthrough');
    await ada.context.close();

    const bea = await newWatchedPage(browser);
    await signUpInBrowser(bea.page, t.url, 'bea', { name: 'Bea' });
    await toAddressPage(bea.page);
    const field = bea.page.getByRole('textbox', { name: 'Address' });
    await field.fill("Ada's Bakery");
    await bea.page.getByRole('button', { name: 'Claim address' }).click();
    await bea.page.locator('[data-suggestions]').waitFor();
    // What Bea typed is still there, and the refusal names its code in small print.
    assert.equal(await field.inputValue(), "Ada's Bakery");
    await bea.page.getByText('builder.label_taken').waitFor();
    await checkPage(bea, 'builder-address-suggested');
    await bea.page.getByRole('button', { name: 'Claim adas-bakery-2' }).click();
    await bea.page.getByText('The address is yours.').waitFor();
    assert.match(
      (await bea.page.locator('[data-field=address-url]').getAttribute('href'))!,
      /^http:\/\/adas-bakery-2\.sites\.localhost:\d+\/$/,
    );
    await bea.context.close();
  });

  test('given a published form, when a visitor sends it with a mistake and then correctly, then both answers wear the site and nothing is typed twice', async () => {
    const owner = await signUp(t.url, 'opal');
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await owner.browser.call(method, path, body);
      assert.ok(r.status < 300, `${method} ${path}: ${r.text}`);
      return r.json.result as Loose;
    };
    await call('POST', '/api/builder/site', { title: "Opal's Bakery", theme: 'dark' });
    const form = (
      await call('POST', '/api/builder/forms', {
        name: 'Order',
        fields: [
          { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 100 },
          { type: 'email', name: 'email', label: 'Email', required: true },
          { type: 'textarea', name: 'message', label: 'Which cake?' },
        ],
        successMessage: 'Thank you, we will write back today.',
      })
    ).form as Loose;
    const draft = await call('GET', '/api/builder/draft');
    const document = structuredClone(draft.document) as Loose;
    (document.pages as Loose[])[0]!.blocks = [
      { type: 'heading', level: 1, text: 'Cakes to order' },
      { type: 'form', formId: form.formId },
    ];
    document.navigation = { items: [{ label: 'Home', url: '/' }] };
    await call('PUT', '/api/builder/draft', { revision: draft.revision, document });
    await call('POST', '/api/builder/address', { label: 'opals-bakery' });
    await call('POST', '/api/ops/svc.builder.publish', {});
    await t.sites.refresh();

    const visitor = await newWatchedPage(browser);
    const { page } = visitor;
    const home = `${t.url}/sites/opals-bakery/`;
    await page.goto(home);
    await page.getByRole('heading', { name: 'Cakes to order' }).waitFor();
    await page.getByLabel('Your name').fill('Grace');
    await page.getByLabel('Email').fill('grace at example.org');
    await page.getByLabel('Which cake?').fill('A lemon cake for twelve, please.');
    // The browser's own check would stop a wrong email before it is sent; the server's is what is tried.
    await page.locator('form.site-form').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Send' }).click();

    // The form again, in the site's frame, with everything typed still there.
    await page.getByRole('heading', { name: 'Please check the form', level: 1 }).waitFor();
    await page.getByRole('link', { name: "Opal's Bakery" }).waitFor();
    assert.equal(await page.title(), "Please check the form – Opal's Bakery");
    assert.equal(await page.getByLabel('Your name').inputValue(), 'Grace');
    assert.equal(await page.getByLabel('Which cake?').inputValue(), 'A lemon cake for twelve, please.');
    const email = page.getByLabel('Email');
    assert.equal(await email.inputValue(), 'grace at example.org');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(visitor.cspViolations, [], 'the answer breaks none of the site’s policy');

    await email.fill('grace@example.org');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you, we will write back today.').waitFor();
    assert.equal(await page.title(), "Thank you – Opal's Bakery");
    await page.getByRole('link', { name: 'Back to the site' }).click();
    await page.getByRole('heading', { name: 'Cakes to order' }).waitFor();
    assert.equal(page.url(), home);
    await visitor.context.close();

    const kept = await t.instance.pool.query<{ values: Record<string, string> }>(
      'SELECT "values" FROM rm_builder_submissions WHERE form_id = $1',
      [form.formId],
    );
    assert.deepEqual(
      kept.rows.map((r) => r.values),
      [{ name: 'Grace', email: 'grace@example.org', message: 'A lemon cake for twelve, please.' }],
    );

    // Both answers through axe and screenshots. The site's policy sandboxes its pages without scripts,
    // where axe cannot run, so this pass alone ignores the policy (as web-builder.test.ts does).
    const audit = await newWatchedPage(browser, { bypassCSP: true });
    await audit.page.goto(home);
    await audit.page.getByLabel('Your name').fill('Grace');
    await audit.page.locator('form.site-form').evaluate((f) => f.setAttribute('novalidate', ''));
    await audit.page.getByRole('button', { name: 'Send' }).click();
    await audit.page.getByRole('heading', { name: 'Please check the form', level: 1 }).waitFor();
    await checkPage(audit, 'site-form-error');
    await audit.page.getByLabel('Email').fill('grace@example.org');
    await audit.page.getByRole('button', { name: 'Send' }).click();
    await audit.page.getByText('Thank you, we will write back today.').waitFor();
    await checkPage(audit, 'site-form-thanks');
    await audit.context.close();

    // Titles follow a rename: the served pages' <title> after the next publish, and the builder's tab.
    const renamed = await call('POST', '/api/builder/site', { title: "Opal's Cakes" });
    await call('POST', '/api/ops/svc.builder.publish', {});
    await t.sites.refresh();
    const served = await (await fetch(home)).text();
    // The home page keeps its own title (the starter's); the site's name after it is the new one.
    assert.match(served, /<title>[^<]*– Opal&#39;s Cakes<\/title>/);
    assert.match(served, /<meta property="og:site_name" content="Opal&#39;s Cakes">/);
    assert.doesNotMatch(served, /Bakery/);
    const tab = await owner.browser.get(`/builder/sites/${String(renamed.siteId)}/address`);
    assert.match(tab.text, /<title>[^<]*Address of Opal(&#39;|')s Cakes/);
  });
});
