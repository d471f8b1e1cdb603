// Two journeys in a real browser (docs/builder.md#addresses, #forms-and-submissions): an address typed as
// people type it ("Ada's Bakery") is repaired and claimed, and the same words from someone else keep
// what they typed and offer free addresses like it; a visitor sends a published form with a mistake and
// then correctly, on pages wearing the site's theme and header, typing nothing twice, redirected to a
// thank-you page that Back, Forward and reload never send again, with a console free of errors. Each
// page is screenshotted at 390 and 1280 px and checked with axe.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import { signUp, type Loose } from './mcp-helpers.js';
import { checkPage, webSuite } from './web-kit.js';

webSuite('addresses and the visitor’s side in a real browser', (web) => {
  /** From /builder, where a new person makes their first site, to that site's address page. */
  const toAddressPage = async (page: Page) => {
    await page.goto(`${web.t.url}/builder`);
    await page.getByLabel('Title').fill('My bakery');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    await page.getByRole('link', { name: 'Address and domains' }).first().click();
    await page.getByRole('heading', { name: 'Free address' }).waitFor();
  };

  test('given "Ada\'s Bakery" typed as an address, then it is repaired and claimed; typed again by someone else, it stays in the field and free ones are offered', async () => {
    const ada = await web.signedUp('ada', { name: 'Ada' });
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
    await ada.page.getByLabel('Domain to connect').fill('https://www.AdasBakery.fr/');
    await ada.page.getByRole('button', { name: 'Connect domain' }).click();
    await ada.page.getByText('Domain connected').waitFor();
    await ada.page.locator('[data-repaired]', { hasText: 'www. dropped' }).waitFor();
    await ada.page.locator('[data-record-name]', { hasText: '_tributary-challenge.adasbakery.fr' }).waitFor();
    await ada.page.getByRole('button', { name: 'Copy the value of the TXT record' }).waitFor();
    await ada.page.getByRole('button', { name: 'Re-check now adasbakery.fr' }).waitFor();
    await checkPage(ada, 'builder-domain-walkthrough');
    await ada.context.close();

    const bea = await web.signedUp('bea', { name: 'Bea' });
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
    const owner = await signUp(web.t.url, 'opal');
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
      // An address typed on two lines stays on two lines.
      { type: 'text', markdown: '12 Mill Street\n4051 Riverton' },
      { type: 'form', formId: form.formId },
    ];
    document.navigation = { items: [{ label: 'Home', url: '/' }] };
    await call('PUT', '/api/builder/draft', { revision: draft.revision, document });
    await call('POST', '/api/builder/address', { label: 'opals-bakery' });
    await call('POST', '/api/ops/svc.builder.publish', {});
    await web.t.sites.refresh();

    const visitor = await web.page();
    const { page } = visitor;
    // The posts that reached the server: a page shown again from the browser's cache (Back to the
    // refusal) is no post, though the browser lists it as one.
    const posts: string[] = [];
    const postIds = new Set<string>();
    const cdp = await visitor.context.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.method === 'POST') postIds.add(e.requestId);
    });
    cdp.on('Network.responseReceived', (e) => {
      if (postIds.has(e.requestId) && !e.response.fromDiskCache) posts.push(e.response.url);
    });
    const home = `${web.t.url}/sites/opals-bakery/`;
    await page.goto(home);
    await page.getByRole('heading', { name: 'Cakes to order' }).waitFor();
    const address = page.locator('main p', { hasText: '12 Mill Street' });
    assert.equal(await address.innerText(), '12 Mill Street\n4051 Riverton', 'one paragraph, two lines');
    await page.getByLabel('Your name').fill('Grace');
    // An address the browser's own check lets through (no dot after the @) and the server's refuses.
    await page.getByLabel('Email').fill('grace@example');
    await page.getByLabel('Which cake?').fill('A lemon cake for twelve, please.');
    await page.getByRole('button', { name: 'Send' }).click();

    // The form again, in the site's frame, with everything typed still there.
    await page.getByRole('heading', { name: 'Please check the form', level: 1 }).waitFor();
    await page.getByRole('link', { name: "Opal's Bakery" }).waitFor();
    assert.equal(await page.title(), "Please check the form – Opal's Bakery");
    assert.equal(await page.getByLabel('Your name').inputValue(), 'Grace');
    assert.equal(await page.getByLabel('Which cake?').inputValue(), 'A lemon cake for twelve, please.');
    const email = page.getByLabel('Email');
    assert.equal(await email.inputValue(), 'grace@example');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');

    await email.fill('grace@example.org');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you, we will write back today.').waitFor();
    assert.equal(await page.title(), "Thank you – Opal's Bakery");
    // POST/redirect/GET: the thank-you page has an address of its own, which a reload only shows again.
    assert.match(page.url(), new RegExp(`/sites/opals-bakery/_forms/${String(form.formId)}/sent$`));
    await page.reload();
    await page.getByText('Thank you, we will write back today.').waitFor();
    // Back shows the refusal as it was (the browser keeps it), forward the thank-you page: nothing is
    // sent again, and no "Confirm form resubmission" page.
    await page.goBack();
    await page.getByRole('heading', { name: 'Please check the form', level: 1 }).waitFor();
    await page.goForward();
    await page.getByText('Thank you, we will write back today.').waitFor();
    assert.equal(posts.length, 2, `the mistake and the correct send, nothing more: ${posts.join(', ')}`);
    await page.getByRole('link', { name: 'Back to the site' }).click();
    await page.getByRole('heading', { name: 'Cakes to order' }).waitFor();
    assert.equal(page.url(), home);
    // Sent right the first time: Back from the thank-you page is the page the form is on.
    await page.getByLabel('Your name').fill('Ida');
    await page.getByLabel('Email').fill('ida@example.org');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you, we will write back today.').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Cakes to order' }).waitFor();
    assert.equal(page.url(), home);
    assert.equal(posts.length, 3);
    // What a visitor's console shows: nothing (no blocked script, no policy refusal). The site's policy
    // sandboxes its pages without scripts, so this page never runs one in them (no evaluate): a tool that
    // does is refused with "Blocked script execution", which is the tool's, not the site's.
    assert.deepEqual(visitor.cspViolations, [], 'the answers break none of the site’s policy');
    assert.deepEqual(visitor.errors, [], 'the console of a published site’s visitor holds no error');
    await visitor.context.close();

    const kept = await web.t.instance.pool.query<{ values: Record<string, string> }>(
      'SELECT "values" FROM rm_builder_submissions WHERE form_id = $1',
      [form.formId],
    );
    assert.deepEqual(
      kept.rows.map((r) => r.values).sort((a, b) => a.name!.localeCompare(b.name!)),
      [
        { name: 'Grace', email: 'grace@example.org', message: 'A lemon cake for twelve, please.' },
        { name: 'Ida', email: 'ida@example.org' },
      ],
    );

    // Both answers through axe and screenshots. The site's policy sandboxes its pages without scripts,
    // where axe cannot run, so this pass alone ignores the policy (as web-builder.test.ts does).
    const audit = await web.page({ bypassCSP: true });
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
    await web.t.sites.refresh();
    const served = await (await fetch(home)).text();
    // The home page keeps its own title (the starter's); the site's name after it is the new one.
    assert.match(served, /<title>([^<]*– )?Opal&#39;s Cakes<\/title>/);
    assert.match(served, /<meta property="og:site_name" content="Opal&#39;s Cakes">/);
    assert.doesNotMatch(served, /Bakery/);
    const tab = await owner.browser.get(`/builder/sites/${String(renamed.siteId)}/address`);
    assert.match(tab.text, /<title>[^<]*Address of Opal(&#39;|')s Cakes/);
  });
});
