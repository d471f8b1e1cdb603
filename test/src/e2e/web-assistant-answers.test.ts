// The assistant answering a person in a real browser (docs/assistant.md#who-is-speaking): with the
// built-in planner and with an OpenAI-compatible model (the harness's scripted server), a person asks
// what their agents did today (the answer is shown, nothing to confirm), creates a persona (the plan in
// words, Confirm, a reply in words with a link to it) and rolls their site back (the plan proposes the
// version published before the one served — never a preview). The model's words and Tributary's own
// statements are set apart on the page and in the API. Every page goes through axe and is screenshotted
// at 390 and 1280 px.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, test } from 'vitest';
import { checkPage, signUpInBrowser, type WatchedPage, webSuite, type WebSuiteOptions } from './web-kit.js';

type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const draftWith = (text: string) => ({
  schemaVersion: 1,
  pages: [{ path: '/', title: 'Home', blocks: [{ type: 'heading', text }] }],
});

/** A cookie write of the signed-in page's session, as the page's own origin. */
async function op(page: Page, base: string, name: string, input: unknown): Promise<Loose> {
  const r = await page.request.post(`${base}/api/ops/${name}`, {
    data: input,
    headers: { Origin: base },
  });
  const body = (await r.json()) as Loose;
  assert.ok(r.status() === 200 || r.status() === 201, `${name}: ${r.status()} ${JSON.stringify(body)}`);
  return body.result as Loose;
}

/**
 * The default site published twice, with a preview between (previews create versions too): the version
 * to roll back to is the first publication, not the preview made after it.
 */
async function twoPublications(page: Page, base: string) {
  const first = await op(page, base, 'svc.builder.publish', {});
  let draft = await op(page, base, 'svc.builder.read_draft', {});
  await op(page, base, 'svc.builder.save_draft', {
    revision: draft.revision,
    document: draftWith('A preview nobody saw live'),
  });
  const preview = await op(page, base, 'svc.builder.preview', {});
  draft = await op(page, base, 'svc.builder.read_draft', {});
  await op(page, base, 'svc.builder.save_draft', { revision: draft.revision, document: draftWith('Now') });
  const second = await op(page, base, 'svc.builder.publish', {});
  assert.notEqual(preview.versionId, first.versionId);
  assert.notEqual(second.versionId, preview.versionId);
  return { siteId: first.siteId as string, first: first.versionId as string, preview: preview.versionId };
}

async function ask(page: Page, text: string) {
  await page.getByLabel('Your message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.waitForURL(/\/assistant\/threads\//);
}

/** The newest assistant message on the page. */
const lastReply = (page: Page) => page.locator('.message-assistant').last();

// `web.t` is the instance with the model; the planner's is one of its own.
const withModel: WebSuiteOptions = { model: true, instance: { env: { ASSISTANT_CHAT_TIMEOUT_MS: '30000' } } };

webSuite('the assistant answers, in words, in a real browser', withModel, (web) => {
  let planner: TestInstance;
  beforeAll(async () => {
    planner = await startTestInstance();
  });
  afterAll(async () => {
    await planner?.stop();
  });

  /** Create a persona through the assistant: the plan in words, Confirm, a reply with a link. */
  async function createPersona(w: WatchedPage, t: TestInstance, me: string, shots: string) {
    const { page } = w;
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();
    assert.equal(
      (await card.locator('[data-step-words]').innerText()).trim(),
      '1. Create an identity named ‘Ada the baker’',
    );
    // The raw arguments are under "details", not in the words.
    const details = card.locator('.step-details');
    assert.equal(await details.getAttribute('open'), null, 'closed until asked for');
    await details.locator('summary').click();
    assert.match(await details.innerText(), /svc\.agent\.create_persona[\s\S]*"name": "Ada the baker"/);
    assert.equal((await t.instance.services.agents.read.personasOf(me)).length, 0, 'nothing ran yet');
    await checkPage(w, `${shots}-plan`);

    await card.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const done = page.locator('[data-plan]').last().locator('[data-done]');
    await done.waitFor();
    assert.match(await done.innerText(), /The step ran\.[\s\S]*Created an identity named ‘Ada the baker’\./);
    assert.doesNotMatch(await done.innerText(), /svc\.|event/);
    await checkPage(w, `${shots}-done`);
    assert.deepEqual(
      (await t.instance.services.agents.read.personasOf(me)).map((p) => p.name),
      ['Ada the baker'],
    );
    // The link goes to what was made.
    await done.getByRole('link', { name: 'Your identities' }).click();
    await page.waitForURL(/\/home#personas$/);
    await page.locator('#personas').getByText('Ada the baker').first().waitFor();
  }

  test('given the built-in planner: today’s activity is answered without a confirmation, a persona is created in words with a link, and a rollback proposes the version published before', async () => {
    const t = planner;
    const services = t.instance.services;
    // A browser in Auckland: the plan's step names the version's time in Auckland's wall clock.
    const w = await web.page({ timezoneId: 'Pacific/Auckland' });
    const { page } = w;
    await signUpInBrowser(page, t.url, 'opal', { name: 'Opal' });
    const me = (await services.accounts.read.accountById(
      (await services.instance.read.get())!.controllers[0]!,
    ))!.agentId;

    await page.goto(`${t.url}/assistant`);
    await ask(page, 'create an identity called Ada the baker');
    await createPersona(w, t, me, 'assistant-answers-persona');

    // What did my agents do today: read without asking, answered in the reply, nothing to confirm.
    await page.goto(`${t.url}/assistant`);
    await ask(page, 'what did my agents do today');
    const reply = lastReply(page);
    await reply
      .locator('[data-said]')
      .getByText(/things? (was|were) done on your behalf/)
      .waitFor();
    assert.match(await reply.locator('[data-said]').innerText(), /Create an identity: 1 time/);
    assert.equal(await page.locator('[data-plan]').count(), 0, 'no plan');
    assert.equal(await page.getByRole('button', { name: /Confirm/ }).count(), 0, 'no confirmation');
    // Tributary says what it read, apart from the assistant's words.
    const notes = reply.locator('[data-notes]');
    assert.match(await notes.innerText(), /From Tributary[\s\S]*Read without asking.*Recent tool calls/);
    await checkPage(w, 'assistant-answers-activity');

    // Roll back my site: the versions are read, and the rollback to the first publication proposed.
    const site = await twoPublications(page, t.url);
    await page.goto(`${t.url}/assistant`);
    await ask(page, 'roll back my site');
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();
    const firstPublished = (await services.builder.read.version(site.siteId, site.first))!.publishedAt!;
    const auckland = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Pacific/Auckland',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(firstPublished))
        .map((p) => [p.type, p.value]),
    );
    assert.match(
      await card.locator('[data-step-words]').innerText(),
      new RegExp(
        `^1\\. Serve the version published on \\d+ \\w{3} at ${auckland.hour}:${auckland.minute} again on your site ‘.+’$`,
      ),
    );
    const steps = (await (
      await page.request.get(`${t.url}/api/autobot/threads/${page.url().split('/').pop()!.split(/[?#]/)[0]}`)
    ).json()) as Loose;
    const plan = steps.result.messages.at(-1).plan;
    assert.deepEqual(plan.steps[0].args, { siteId: site.siteId, versionId: site.first, targetAgentId: me });
    await checkPage(w, 'assistant-answers-rollback');
    await card.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const done = page.locator('[data-plan]').last().locator('[data-done]');
    await done.getByRole('link', { name: 'Its versions and publishing' }).waitFor();
    assert.equal((await services.builder.read.site(site.siteId))!.publishedVersionId, site.first);
  });

  test('given an OpenAI-compatible model: reads run without asking and the model answers from them, a persona is created in words with a link, a rollback is proposed in the same turn as its read, and the model’s words stand apart from Tributary’s', async () => {
    const t = web.t;
    const services = t.instance.services;
    const w = await web.page({ timezoneId: 'UTC' });
    const { page } = w;
    await signUpInBrowser(page, t.url, 'ada', { name: 'Ada' });
    const me = (await services.accounts.read.accountById(
      (await services.instance.read.get())!.controllers[0]!,
    ))!.agentId;

    // Create a persona: the model proposes, the plan is in words.
    web.model.reply(
      { toolCalls: [{ name: 'svc__agent__create_persona', arguments: { name: 'Ada the baker' } }] },
      // A model that claims more than it did: its words are its own, the plan card says what is true.
      { text: 'Done! I have created Ada the baker for you.' },
    );
    await page.goto(`${t.url}/assistant`);
    await ask(page, 'Create a persona called Ada the baker');
    const claim = lastReply(page);
    await claim.locator('[data-said]').getByText('Done! I have created Ada the baker for you.').waitFor();
    assert.match(
      await claim.locator('[data-notes]').innerText(),
      /From Tributary[\s\S]*Nothing in the plan below has run/,
    );
    await createPersona(w, t, me, 'assistant-answers-model-persona');

    // What did my agents do today: the read runs, its result goes back to the model, which answers.
    web.model.reply(
      { toolCalls: [{ name: 'svc__audit__recent', arguments: { limit: 20 } }] },
      { text: 'Today one persona was created for you: Ada the baker.' },
    );
    const before = web.model.requests.length;
    await page.goto(`${t.url}/assistant`);
    await ask(page, 'What did my agents do today?');
    const reply = lastReply(page);
    await reply.getByText('Today one persona was created for you: Ada the baker.').waitFor();
    const second = web.model.requests[before + 1]!;
    const tool = (second.body.messages as Loose[]).find((m) => m.role === 'tool');
    assert.match(String(tool?.content), /svc\.agent\.create_persona/, 'the read’s result reached the model');
    assert.equal(await page.locator('[data-plan]').count(), 0, 'no plan');
    assert.match(await reply.locator('[data-notes]').innerText(), /Read without asking/);
    await checkPage(w, 'assistant-answers-model-activity');

    // The API says the same, in separate fields.
    const threadId = page.url().split('/').pop()!.split(/[?#]/)[0]!;
    const thread = (await (
      await page.request.get(`${t.url}/api/autobot/threads/${threadId}`)
    ).json()) as Loose;
    const answer = thread.result.messages.at(-1);
    assert.equal(answer.text, 'Today one persona was created for you: Ada the baker.');
    assert.deepEqual(
      answer.notes.map((n: Loose) => n.kind),
      ['ran', 'outside'],
    );

    // Roll back my site: the versions (ids and times only) are read and the rollback proposed at once.
    const site = await twoPublications(page, t.url);
    web.model.reply(
      { toolCalls: [{ name: 'svc__builder__list_versions', arguments: {} }] },
      {
        toolCalls: [
          {
            name: 'svc__builder__rollback',
            arguments: { siteId: site.siteId, versionId: site.first },
          },
        ],
      },
      { text: 'I propose going back to the version you published first.' },
    );
    await page.goto(`${t.url}/assistant`);
    await ask(page, 'Roll back my site');
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();
    assert.match(
      await card.locator('[data-step-words]').innerText(),
      // The browser's zone is UTC (the context's): known, so not said.
      /^1\. Serve the version published on \d+ \w{3} at \d\d:\d\d again on your site ‘.+’$/,
    );
    assert.doesNotMatch(await lastReply(page).innerText(), /Not added to the plan/);
    await checkPage(w, 'assistant-answers-model-rollback');
    await card.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Plan confirmed').waitFor();
    const done = page.locator('[data-plan]').last().locator('[data-done]');
    await done.getByText('The step ran.').waitFor();
    assert.equal((await services.builder.read.site(site.siteId))!.publishedVersionId, site.first);
    // Its first publish gave it an address: the reply links to the site as visitors see it.
    const live = done.locator('[data-live-link] a');
    await live.waitFor();
    assert.match((await live.getAttribute('href')) ?? '', /^http:\/\/[a-z0-9-]+\.[a-z0-9.-]+(:\d+)?\/$/);
  });
});
