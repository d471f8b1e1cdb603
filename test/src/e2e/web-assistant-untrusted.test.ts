// Outside-value highlighting on the plan card, in a real browser (docs/web.md#assistant,
// docs/assistant.md#untrusted-content). With a scripted model on loopback: the assistant reads the
// person's personas (a read allowed to run unconfirmed) and answers with a name from that result; in
// the next message the model proposes a write whose argument repeats it. The card shows that value
// highlighted (a visible <mark> naming the kind of content), with the note under the step — in light
// and dark mode — and the plan stored on the instance carries the same mark. Confirming runs it as shown.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, webSuite, type WebSuiteOptions } from './web-kit.js';

const withModel: WebSuiteOptions = { model: true, instance: { env: { ASSISTANT_CHAT_TIMEOUT_MS: '30000' } } };

webSuite('outside values highlighted on the plan card', withModel, (web) => {
  test('given a reply made from a tool result, when the next plan repeats a value from it, then the card highlights that value and the stored plan marks it', async () => {
    const services = web.t.instance.services;
    const w = await web.signedUp('ada', { name: 'Ada' });
    const { page } = w;
    const me = (await services.accounts.read.accountByIdentifier('ada'))!.agentId;
    // A persona whose name will come back to the model inside a tool result: outside content.
    await page.getByLabel('Name', { exact: true }).fill('Marlowe the Curious');
    await page.getByRole('button', { name: 'Create identity' }).click();
    await page.getByText('Identity created.').waitFor();

    // Listing personas runs without asking: reads of the person's own data do, by default.
    await page.goto(`${web.t.url}/assistant/settings`);
    await page.getByRole('checkbox', { name: /Your identities, profile/, checked: true }).waitFor();

    // Turn 1: the model reads the personas (it runs at once) and answers with the name it read.
    web.model.reply(
      { toolCalls: [{ name: 'svc__agent__list_personas', arguments: {} }] },
      { text: 'You have one persona: Marlowe the Curious.' },
    );
    await page.goto(`${web.t.url}/assistant`);
    await page.getByLabel('Your message').fill('Which personas do I have?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/assistant\/threads\//);
    await page.getByText('You have one persona: Marlowe the Curious.').waitFor();
    await page
      .locator('[data-notes]')
      .getByText(/written after reading/)
      .waitFor();

    // Turn 2: the person's own message does not name it; the model's write repeats the name it read.
    web.model.reply(
      {
        toolCalls: [
          {
            name: 'svc__agent__create_persona',
            arguments: { name: 'Marlowe the Curious' },
          },
        ],
      },
      { text: 'Confirm to create it.' },
    );
    await page.getByLabel('Your message').fill('Make me another persona just like that one.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Confirm to create it.').waitFor();
    const card = page.locator('[data-plan]').last();
    await card.getByText('waiting for you').waitFor();

    // The highlight: the outside value is in a visible <mark>, named for screen readers.
    const mark = card.locator('[data-step-words] mark.untrusted[data-untrusted="/name"]');
    await mark.waitFor({ state: 'visible' });
    assert.match(await mark.innerText(), /Marlowe the Curious/);
    assert.match((await mark.textContent()) ?? '', /\(from .+\)/, 'the kind of content is named');
    assert.equal(
      await card.locator('[data-step-words] mark.untrusted').count(),
      1,
      'only the outside value is marked',
    );
    // (An expression string: this package's types have no DOM.)
    const style = (await page.evaluate(`(() => {
      const s = getComputedStyle([...document.querySelectorAll('[data-step-words] mark.untrusted')].at(-1));
      return { bg: s.backgroundColor, visibility: s.visibility };
    })()`)) as { bg: string; visibility: string };
    assert.notEqual(style.bg, 'rgba(0, 0, 0, 0)', 'the mark has a background: it is visibly highlighted');
    assert.equal(style.visibility, 'visible');
    await card.locator('.untrusted-note').getByText('came from outside content').waitFor();
    await checkPage(w, 'assistant-plan-untrusted');

    // The same plan as the instance stores it: the step's `untrusted` list marks /name from a tool result.
    const threadId = new URL(page.url()).pathname.split('/').pop()!;
    const thread = (await (
      await page.request.get(`${web.t.url}/api/autobot/threads/${threadId}`)
    ).json()) as {
      result: {
        messages: {
          plan: { steps: { tool: string; untrusted: { path: string; source: string }[] }[] } | null;
        }[];
      };
    };
    const plans = thread.result.messages.flatMap((m) => (m.plan ? [m.plan] : []));
    const step = plans.at(-1)?.steps[0];
    assert.equal(step?.tool, 'svc.agent.create_persona');
    assert.deepEqual(step?.untrusted, [{ path: '/name', source: 'tool_result' }]);

    // In dark mode the highlight stays visible and readable (axe's contrast rule on the card).
    const dark = await web.page({ colorScheme: 'dark' });
    await dark.context.addCookies(await w.context.cookies());
    await dark.page.goto(page.url());
    await dark.page.locator('[data-step-words] mark.untrusted').waitFor({ state: 'visible' });
    await checkPage(dark, 'dark-assistant-plan-untrusted');
    await dark.context.close();

    // Confirmed, it runs as shown: a second persona with that name.
    await card.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText('Plan confirmed').waitFor();
    assert.deepEqual(
      (await services.agents.read.personasOf(me)).map((p) => p.name),
      ['Marlowe the Curious', 'Marlowe the Curious'],
    );
    await w.context.close();
  });
});
