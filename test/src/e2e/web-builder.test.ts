// The builder's pages in a real browser (docs/web.md#builder): a person signs up, creates a persona and,
// as that persona, builds a two-page site with a picture and a form through the editor, sees it in the
// preview pane (framed from the sites' origin), publishes it (which gives it its address), opens it there,
// submits its form as a visitor, reads the submission, and rolls back. A save over a stale revision
// shows the builder's own refusal. Each step is checked on the instance itself (its read models), and
// every page goes through axe and is screenshotted at phone and desktop width.
import { starterTemplateDraft } from '@tributary/domain';
import { defaultSiteId } from '@tributary/services';
import { eventually, images, startTestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'vitest';
import { checkPage, editorAnswered, signUpInBrowser, webSuite } from './web-kit.js';

const ids = { sha256: (x: string) => createHash('sha256').update(x).digest('hex') };

webSuite('builder pages in a real browser', (web) => {
  test('given a new person, when they build, preview, publish and roll back a two-page site with a picture and a form, then the instance serves and holds exactly that', async () => {
    const w = await web.page();
    const { page } = w;
    const services = web.t.instance.services;
    /** Opens the editor's "Add …" section of a block kind and answers it. */
    const adding = async (kind: string) => {
      const section = page.locator('details.add-block', {
        has: page.locator('summary', { hasText: `Add ${kind}` }),
      });
      await section.locator('summary').click();
      return section;
    };
    await signUpInBrowser(page, web.t.url, 'ada', { name: 'Ada' });
    const account = await services.accounts.read.accountById(
      (await services.instance.read.get())!.controllers[0]!,
    );

    // A persona, on the home page.
    await page.getByLabel('Name', { exact: true }).fill('Soup Kitchen');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();
    const persona = (await services.agents.read.personasOf(account!.agentId))[0]!;

    // The builder, working as the persona: it has made no site yet, so the page offers the first one and
    // lists nothing (list_sites shows its default site as it will be created: not a site it made).
    await page.goto(`${web.t.url}/builder`);
    // The chooser says "identity", as the home page does.
    assert.deepEqual(
      (await page.getByLabel('Working as').locator('option').allInnerTexts()).map((t) => t.trim()),
      ['Ada (you)', 'Soup Kitchen (identity)'],
    );
    await page.getByLabel('Working as').selectOption(persona.agentId);
    await page.getByRole('button', { name: 'Switch' }).click();
    await page.getByRole('heading', { name: 'Make your first site' }).waitFor();
    await page.locator('[data-field=no-sites]').waitFor();
    const site = { siteId: defaultSiteId(ids, persona.agentId) };
    assert.equal(await services.builder.read.site(site.siteId), null);
    assert.equal(await page.locator(`a[href*="/builder/sites/"]`).count(), 0, 'no site is listed');
    await checkPage(w, 'builder-sites-empty');

    // A picture, uploaded to the persona's library.
    await page.getByRole('link', { name: 'Pictures' }).click();
    await page.getByLabel(/^Picture \(JPEG/).setInputFiles({
      name: 'soup.png',
      mimeType: 'image/png',
      buffer: await images.png(120, 80, '#c60'),
    });
    await page.getByLabel(/alt text/).fill('A bowl of soup');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Picture uploaded.').waitFor();
    await checkPage(w, 'builder-media');
    const [media] = (
      await web.t.instance.pool.query<{ media_id: string }>(
        'SELECT media_id FROM rm_builder_media WHERE owner_agent_id = $1',
        [persona.agentId],
      )
    ).rows;
    assert.ok(media, 'the picture is in the persona’s library');

    // A form with two fields.
    await page.getByRole('link', { name: 'Forms and submissions' }).click();
    await page.getByLabel('Form name').fill('Contact');
    await page.locator('#row-0-label').fill('Your name');
    await page.locator('[name=frequired][value="0"]').check();
    await page.locator('#row-1-label').fill('Email');
    await page.locator('#row-1-type').selectOption('email');
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.getByText('Form created.').waitFor();
    await checkPage(w, 'builder-form');
    const forms = (
      await web.t.instance.pool.query<{ form_id: string }>(
        'SELECT form_id FROM rm_builder_forms WHERE owner_agent_id = $1',
        [persona.agentId],
      )
    ).rows;
    assert.equal(forms.length, 1);

    // The first site, from the sites page: it is the persona's default site, under the id derived from
    // its owner. Then the sites page lists it.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sites' }).click();
    await page.getByLabel('Title').fill('Soup Kitchen');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.getByText('Site created.').waitFor();
    assert.equal((await services.builder.read.site(site.siteId))?.isDefault, true);
    await page.getByRole('link', { name: 'All sites' }).click();
    await page.getByRole('heading', { name: /Soup Kitchen/ }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Make your first site' }).count(), 0);
    await checkPage(w, 'builder-sites');

    // The editor: a heading and the picture on the home page.
    await page.getByRole('link', { name: 'Edit', exact: true }).first().click();
    let add = await adding('a heading');
    await add.getByLabel('Heading text').fill('Soup every day');
    await add.getByRole('button', { name: 'Add a heading' }).click();
    await editorAnswered(page);
    // The picker's own upload, not added to the page, brings a second picture into the library and back
    // to this page (the file picked waits for "Upload picture").
    add = await adding('a picture');
    await add.getByLabel('Alt text of the new picture').fill('Bread');
    await add.locator('input[type=checkbox][name=add]').uncheck();
    await add.getByLabel(/^Or upload a new picture/).setInputFiles({
      name: 'bread.webp',
      mimeType: 'image/webp',
      buffer: await images.webp(60, 40),
    });
    await add.getByRole('button', { name: 'Upload picture' }).click();
    await page.getByText('Picture uploaded.').waitFor();
    assert.match(page.url(), new RegExp(`/builder/sites/${site.siteId}\\?`));
    const library = await web.t.instance.pool.query(
      'SELECT 1 FROM rm_builder_media WHERE owner_agent_id = $1',
      [persona.agentId],
    );
    assert.equal(library.rowCount, 2);
    add = await adding('a picture');
    await add.locator(`input[type=radio][value="${media.media_id}"]`).check();
    await add.getByLabel('Alt text (what the picture shows)').fill('A bowl of soup');
    await add.getByRole('button', { name: 'Add a picture' }).click();
    await editorAnswered(page);
    // The preview pane frames the preview from the sites' origin, and shows the page as saved.
    const frame = page.locator('iframe[data-preview]');
    const src = (await frame.getAttribute('src'))!;
    assert.match(src, /^http:\/\/preview\.sites\.localhost:\d+\/sites\/_preview\/[^/]+\/$/);
    await page
      .frameLocator('iframe[data-preview]')
      .getByRole('heading', { name: 'Soup every day' })
      .waitFor();
    await page.frameLocator('iframe[data-preview]').getByRole('img', { name: 'A bowl of soup' }).waitFor();
    await checkPage(w, 'builder-editor');

    // A second page, in the navigation, holding the form.
    await page.locator('summary', { hasText: 'Add a page' }).click();
    await page.getByLabel('Page title').fill('Contact us');
    await page.getByLabel('Path').fill('/contact');
    await page.getByRole('button', { name: 'Add page' }).click();
    await editorAnswered(page);
    await page.getByRole('heading', { name: /Page “Contact us”/ }).waitFor();
    add = await adding('a form');
    await add.getByRole('button', { name: 'Add a form' }).click();
    await editorAnswered(page);
    await page.frameLocator('iframe[data-preview]').getByLabel('Your name').waitFor();
    const draft = await services.builder.read.draft(site.siteId);
    assert.deepEqual(
      draft!.document.pages.map((p) => [p.path, p.blocks.map((b) => b.type)]),
      [
        ['/', ['heading', 'heading', 'image']],
        ['/contact', ['form']],
      ],
    );

    // Someone else saves first: this page's next save is refused with the builder's code, nothing lost.
    const revision = draft!.revision;
    const other = await page.request.put(`${web.t.url}/api/builder/draft`, {
      headers: { origin: web.t.url },
      data: { targetAgentId: persona.agentId, siteId: site.siteId, revision, document: draft!.document },
    });
    assert.equal(other.status(), 201);
    add = await adding('a divider');
    await add.getByRole('button', { name: 'Add a divider' }).click();
    await page.locator('[data-error-code="builder.draft_stale"]').waitFor();
    await page.getByText('Someone else saved this draft first.').waitFor();
    assert.equal(
      (await services.builder.read.draft(site.siteId))!.revision,
      revision + 1,
      'the stale save wrote nothing',
    );
    await checkPage(w, 'builder-editor-stale');

    // Publish.
    await page.getByRole('link', { name: 'Publish and versions' }).click();
    await page.getByRole('button', { name: 'Publish the draft' }).click();
    await page.getByText('Published: the site now serves this draft.').waitFor();
    const first = (await services.builder.read.site(site.siteId))!.publishedVersionId;
    assert.ok(first, 'the site is published');
    await checkPage(w, 'builder-publish');

    // Its address: the first publish claimed one from the title, and "View site" links to it.
    const viewSite = (await page.locator('[data-field=view-site]').getAttribute('href'))!;
    await page.getByRole('link', { name: 'Address and domains' }).click();
    const url = (await page.locator('[data-field=address-url]').getAttribute('href'))!;
    assert.equal(viewSite, url);
    assert.match(url, /^http:\/\/soup-kitchen\.sites\.localhost:\d+\/$/);
    // A custom domain shows the records to create and why it is not served yet.
    // Pasted from the browser's address bar: the apex is bound, and the page says what was tidied.
    await page.getByLabel('Domain to connect').fill('https://www.Soup-Kitchen.org/');
    await page.getByRole('button', { name: 'Connect domain' }).click();
    await page.getByText('Domain connected').waitFor();
    await page.locator('[data-repaired]', { hasText: 'www. dropped' }).waitFor();
    await page.locator('[data-record-name]', { hasText: '_tributary-challenge.soup-kitchen.org' }).waitFor();
    await checkPage(w, 'builder-address');

    // A visitor opens the site on its address and sends the form.
    const visitor = await web.page();
    await visitor.page.goto(url);
    await visitor.page.getByRole('heading', { name: 'Soup every day' }).waitFor();
    await visitor.page.getByRole('img', { name: 'A bowl of soup' }).waitFor();
    await visitor.page.getByRole('link', { name: 'Contact us' }).first().click();
    await visitor.page.getByLabel('Your name').fill('Grace');
    await visitor.page.getByLabel('Email').fill('grace@example.org');
    await visitor.page.getByRole('button', { name: /send|submit/i }).click();
    await visitor.page.getByText('Thank you, your message was sent.').waitFor();
    // An address the site has no page at: the 404, with its main landmark.
    const missing = await visitor.page.goto(`${url}no-such-page`);
    assert.equal(missing?.status(), 404);
    await visitor.page.getByRole('main').waitFor();
    assert.deepEqual(visitor.cspViolations, [], 'the site as visitors get it breaks none of its policy');
    await visitor.context.close();

    // The published pages and the 404 through axe and the HTML check. The site's policy sandboxes its
    // pages without scripts, where axe cannot run, so this pass alone ignores the policy (web-kit.ts).
    const audit = await web.page({ bypassCSP: true });
    for (const [path, name, status] of [
      ['', 'site-home', 200],
      ['contact', 'site-contact', 200],
      ['no-such-page', 'site-404', 404],
    ] as const) {
      assert.equal((await audit.page.goto(`${url}${path}`))?.status(), status, path);
      await audit.page.getByRole('main').waitFor();
      await checkPage(audit, name);
    }
    await audit.context.close();

    // The owner reads it.
    await page.goto(`${web.t.url}/builder/forms/${forms[0]!.form_id}?as=${persona.agentId}`);
    await page.getByRole('cell', { name: 'Grace', exact: true }).waitFor();
    await checkPage(w, 'builder-submissions');
    // The CSV export is the REST route itself.
    const csv = await page.request.get(
      new URL((await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!, web.t.url).href,
    );
    assert.equal(csv.status(), 200);
    assert.match(await csv.text(), /^your_name,email,received_at\r\nGrace,grace@example\.org,/);
    const submissions = (
      await web.t.instance.pool.query<{ values: Record<string, string> }>(
        'SELECT "values" FROM rm_builder_submissions WHERE form_id = $1',
        [forms[0]!.form_id],
      )
    ).rows;
    assert.deepEqual(
      submissions.map((s) => s.values),
      [{ your_name: 'Grace', email: 'grace@example.org' }],
    );

    // A change, published; then a rollback to the first version.
    await page.goto(`${web.t.url}/builder/sites/${site.siteId}?as=${persona.agentId}`);
    add = await adding('a divider');
    await add.getByRole('button', { name: 'Add a divider' }).click();
    await editorAnswered(page);
    await page.getByRole('link', { name: 'Publish and versions' }).click();
    await page.getByRole('button', { name: 'Publish the draft' }).click();
    await page.getByText('Published: the site now serves this draft.').waitFor();
    const second = (await services.builder.read.site(site.siteId))!.publishedVersionId;
    assert.notEqual(second, first);
    // The only version not served is the first one.
    await page.getByRole('button', { name: /^Go back to this version/ }).click();
    await page.getByText('Rolled back: the site serves').waitFor();
    await eventually(
      'the rollback',
      async () => (await services.builder.read.site(site.siteId))!.publishedVersionId === first,
    );
    await checkPage(w, 'builder-rolled-back');

    // The operators suspend the site: its pages give their reason, and publishing is refused.
    const suspended = await page.request.post(`${web.t.url}/api/builder/suspend`, {
      headers: { origin: web.t.url },
      data: { siteId: site.siteId, targetAgentId: persona.agentId, reason: 'Spam reported' },
    });
    assert.equal(suspended.status(), 200);
    await page.goto(`${web.t.url}/builder/sites/${site.siteId}/publish?as=${persona.agentId}`);
    await page.locator('[data-field=suspended-reason]', { hasText: 'Spam reported' }).waitFor();
    await page.getByRole('button', { name: 'Publish the draft' }).click();
    await page.locator('[data-error-code="builder.site_suspended"]').waitFor();
    await checkPage(w, 'builder-suspended');
    assert.equal((await services.builder.read.site(site.siteId))!.publishedVersionId, first);
  });

  test('given the new-site form, when a person picks the small shop template, then the site starts with the shop’s pages and its editor shows them', async () => {
    const w = await web.page();
    const { page } = w;
    const services = web.t.instance.services;
    await signUpInBrowser(page, web.t.url, 'bea', { name: 'Bea' });
    const bea = (await services.accounts.read.accountByIdentifier('bea'))!;
    await page.goto(`${web.t.url}/builder`);
    const form = page.locator('#new-site');
    await form.getByLabel('Title').fill('Bea’s Bakery');
    // Blank is chosen until another card is.
    assert.equal(await form.getByRole('radio', { name: /^Blank/ }).isChecked(), true);
    await form.getByRole('radio', { name: /^A small shop/ }).check();
    await checkPage(w, 'builder-new-site-template');
    await form.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/builder\/sites\/[0-9a-f-]{36}/);
    const [site] = await services.builder.read.sitesOf(bea.agentId);
    const draft = await services.builder.read.draft(site!.siteId);
    assert.deepEqual(
      draft!.document.pages.map((p) => p.path),
      ['/', '/visit'],
    );
    assert.deepEqual(draft!.document, starterTemplateDraft('shop', 'Bea’s Bakery'));
    await page.getByText('Opening hours').first().waitFor();
    await checkPage(w, 'builder-editor-shop-template');
    await w.context.close();
  });

  test('given no JavaScript, when a person makes their first site, edits and publishes it, then the forms alone do it', async () => {
    const instance = await startTestInstance();
    try {
      const { page, context } = await web.page({ javaScriptEnabled: false });
      const services = instance.instance.services;
      await signUpInBrowser(page, instance.url, 'bob', { name: 'Bob' });
      const account = await services.accounts.read.accountById(
        (await services.instance.read.get())!.controllers[0]!,
      );
      await page.goto(`${instance.url}/builder`);
      await page.getByLabel('Title').fill('Bob');
      await page.getByRole('radio', { name: /^A person/ }).check();
      await page.getByRole('button', { name: 'Create site' }).click();
      await page.getByText('Site created.').waitFor();
      const section = page.locator('details.add-block', {
        has: page.locator('summary', { hasText: 'Add text' }),
      });
      await section.locator('summary').click();
      await section.getByLabel('Text').fill('Made *without* scripts.');
      await section.getByRole('button', { name: 'Add text' }).click();
      await editorAnswered(page);
      await page.getByRole('link', { name: 'Publish and versions' }).click();
      await page.getByRole('button', { name: 'Publish the draft' }).click();
      await page.getByText('Published: the site now serves this draft.').waitFor();
      const [site] = await services.builder.read.sitesOf(account!.agentId);
      assert.ok(site?.publishedVersionId, 'published');
      const draft = await services.builder.read.draft(site.siteId);
      assert.deepEqual(draft!.document.pages[0]!.blocks.at(-1), {
        type: 'text',
        markdown: 'Made *without* scripts.',
      });
      await context.close();
    } finally {
      await instance.stop();
    }
  });
});
