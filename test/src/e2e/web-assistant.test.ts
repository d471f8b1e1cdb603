// The assistant's pages in a real browser (docs/web.md#assistant). With a scripted model on loopback
// (the OpenAI-compatible harness server): a person attaches a picture, asks the assistant to create a
// persona and publish their site, watches the reply stream in, confirms the plan on its card, sees each
// step's outcome and the vault. Then, with JavaScript off and the built-in planner, the same core flow
// — a plain form post, the plan card, Confirm — works too. Each journey ends on the instance's state;
// every page goes through axe and is screenshotted at phone and desktop width.
import { images, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { checkPage, signUpInBrowser, webSuite, type WebSuiteOptions } from './web-kit.js';

// `web.t` is the instance with the model; the planner's is one of its own.
const withModel: WebSuiteOptions = { model: true, instance: { env: { ASSISTANT_CHAT_TIMEOUT_MS: '30000' } } };

webSuite('assistant pages in a real browser', withModel, (web) => {
  let planner: TestInstance;
  beforeAll(async () => {
    planner = await startTestInstance();
  });
  afterAll(async () => {
    await planner?.stop();
  });

  test('given a model, when a person asks for a persona and a publish and confirms the plan, then both ran once and the vault says so', async () => {
    const t = web.t;
    const services = t.instance.services;
    const w = await web.page();
    const { page } = w;
    await signUpInBrowser(page, t.url, 'ada', { name: 'Ada' });
    const account = await services.accounts.read.accountById(
      (await services.instance.read.get())!.controllers[0]!,
    );
    const me = account!.agentId;

    await page.goto(`${t.url}/assistant`);
    await checkPage(w, 'assistant-threads');

    // A picture, picked: uploaded at once, and sent with the message.
    web.model.reply({ text: 'A small orange picture.' });
    await page.getByLabel(/Attach a picture/).setInputFiles({
      name: 'soup.png',
      mimeType: 'image/png',
      buffer: await images.png(60, 40, '#c60'),
    });
    await page.getByText('1 picture attached').waitFor();
    await page.getByLabel('Your message').fill('What is in this picture?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/assistant\/threads\//);
    await page.getByText('A small orange picture.').waitFor();
    const threadUrl = page.url().split('#')[0]!;
    const attachments = await t.instance.pool.query(
      'SELECT 1 FROM rm_assistant_attachments WHERE owner_agent_id = $1',
      [me],
    );
    assert.equal(attachments.rowCount, 1);

    // The request: the reply streams in, then the plan card lists both steps as they will run.
    web.model.reply(
      {
        text: 'I will create the persona Soup Kitchen and publish your site.',
        chunkDelayMs: 20,
        toolCalls: [
          { name: 'svc__agent__create_persona', arguments: { name: 'Soup Kitchen' } },
          { name: 'svc__builder__publish', arguments: {} },
        ],
      },
      { text: 'Confirm the plan to run both steps.' },
    );
    await page.getByLabel('Your message').fill('Create a persona called Soup Kitchen, then publish my site.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .locator('[data-streamed]')
      .getByText(/Soup Kitchen/)
      .waitFor();
    await page.waitForURL(/\?m=/);
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();
    await card.locator('.step').nth(1).waitFor();
    // Each step in words; the tool and its arguments under "details".
    assert.equal(
      (await card.locator('[data-step-words]').nth(0).innerText()).trim(),
      '1. Create an identity named ‘Soup Kitchen’',
    );
    assert.equal(
      (await card.locator('[data-step-words]').nth(1).innerText()).trim(),
      '2. Publish the current draft of your default site',
    );
    assert.match(
      await card
        .locator('.step-details')
        .nth(0)
        .evaluate((d) => d.textContent ?? ''),
      /svc\.agent\.create_persona[\s\S]*"name": "Soup Kitchen"/,
    );
    assert.equal(
      (await services.agents.read.personasOf(me)).length,
      0,
      'nothing ran before the confirmation',
    );
    await checkPage(w, 'assistant-plan');

    await card.getByRole('button', { name: 'Confirm all' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const done = page.locator('[data-plan]').last();
    await done.getByText('done').first().waitFor();
    assert.equal(await done.locator('.step[data-status=ran]').count(), 2);
    await checkPage(w, 'assistant-plan-done');

    // On the instance: one persona, the person's default site published — each exactly once.
    const personas = await services.agents.read.personasOf(me);
    assert.deepEqual(
      personas.map((p) => p.name),
      ['Soup Kitchen'],
    );
    const [site] = await services.builder.read.sitesOf(me);
    assert.ok(site?.publishedVersionId, 'the default site is published');
    const published = await t.instance.pool.query(
      "SELECT 1 FROM events WHERE type = 'site.published' AND stream = $1",
      [`site-${site.siteId}`],
    );
    assert.equal(published.rowCount, 1);

    // The vault records both steps.
    await page.getByRole('link', { name: 'Vault' }).click();
    const vault = page.locator('[data-vault]');
    await vault
      .getByText(/svc\.agent\.create_persona/)
      .first()
      .waitFor();
    assert.match(await vault.innerText(), /svc\.builder\.publish/);
    await checkPage(w, 'assistant-vault');

    // Chosen steps only: tick the second step; the first is cancelled by the confirmation.
    web.model.reply(
      {
        toolCalls: [
          { name: 'svc__agent__create_persona', arguments: { name: 'Not This One' } },
          { name: 'svc__agent__create_persona', arguments: { name: 'Tea Room' } },
        ],
      },
      { text: 'Two personas, if you confirm.' },
    );
    await page.goto(threadUrl);
    await page.getByLabel('Your message').fill('Create personas called Not This One and Tea Room.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Two personas, if you confirm.').waitFor();
    const two = page.locator('[data-plan]').last();
    await two.getByLabel('Choose step 2').check();
    await two.getByRole('button', { name: 'Confirm 1 chosen' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const chosen = page.locator('[data-plan]').last();
    await chosen.locator('.step[data-step="2"][data-status=ran]').waitFor();
    await chosen.locator('.step[data-step="1"][data-status=cancelled]').waitFor();
    assert.deepEqual((await services.agents.read.personasOf(me)).map((p) => p.name).sort(), [
      'Soup Kitchen',
      'Tea Room',
    ]);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Assistant settings' }).waitFor();
    await checkPage(w, 'assistant-settings');
    await page.getByLabel('Plans act as').selectOption(personas[0]!.agentId);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const settings = (await (await page.request.get(`${t.url}/api/autobot/settings`)).json()) as {
      result: { defaultPersonaId: string | null };
    };
    assert.equal(settings.result.defaultPersonaId, personas[0]!.agentId);

    await page.getByRole('link', { name: 'Connected account' }).click();
    await page.getByText(/have not configured an external assistant provider/).waitFor();
    await checkPage(w, 'assistant-account');

    await page.goto(threadUrl);
    await checkPage(w, 'assistant-thread');
  });

  test('given no JavaScript, when a person asks the built-in planner for a persona and confirms, then it is created', async () => {
    const t = planner;
    const services = t.instance.services;
    const { page } = await web.page({ javaScriptEnabled: false });
    await signUpInBrowser(page, t.url, 'bob', { name: 'Bob' });
    const account = await services.accounts.read.accountById(
      (await services.instance.read.get())!.controllers[0]!,
    );
    await page.goto(`${t.url}/assistant`);
    await page.getByLabel('Your message').fill('create a persona called Pip');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/assistant\/threads\//);
    const card = page.locator('[data-plan]');
    await card.getByText('waiting for you').waitFor();
    // (axe and the screenshots run on the same pages with scripts on, above: axe itself needs them.)
    await card.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Plan confirmed').waitFor();
    await card.locator('.step[data-status=ran]').waitFor();
    assert.deepEqual(
      (await services.agents.read.personasOf(account!.agentId)).map((p) => p.name),
      ['Pip'],
    );
  });
});
