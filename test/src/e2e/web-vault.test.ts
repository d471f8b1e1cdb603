// The vault page renders the vault's Markdown (headings, lists, code) and renders hostile text inert.
// The vault projection already escapes text from outside (titles, summaries); this test goes past it and
// puts hostile Markdown straight into the vault's read model, as if a projection bug let it through:
// script tags, an img with a handler, javascript: and data: links must come out as text — no element,
// no handler, no link — with no CSP violation (an inline script would be one) and nothing run.
import { proposeTestPlan } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import { checkPage, webSuite } from './web-kit.js';

const HOSTILE = [
  '## Plan `p`, step 1: <script>window.pwned = 1</script>',
  '',
  '- What ran: `svc.agent.create_persona` with `{"name":"<b>x</b>"}`',
  '- Result: ran — [click me](javascript:window.pwned=2) and [data](data:text/html,<script>parent.pwned=3</script>)',
  '- Also: <img src="/nope" onerror="window.pwned=4"> <a href="javascript:window.pwned=5">raw link</a>',
  '- Auto: <javascript:window.pwned=6> and [fine](https://example.org/ok)',
  '',
].join('\n');

webSuite('the vault page', (web) => {
  test('given a vault holding script tags, handlers and javascript: links, when the person opens it, then it renders as text: no script, no handler, no unsafe link', async () => {
    const w = await web.signedUp('ada', { name: 'Ada' });
    const { page } = w;
    const me = (await page.locator('#me code').first().textContent())!.trim();
    await web.t.instance.pool.query(
      `INSERT INTO rm_assistant_vault_entries (plan_id, step, agent_id, owner_agent_id, position, status, markdown)
       VALUES ($1, 1, $2, $2, 1, 'ran', $3)`,
      [randomUUID(), me, HOSTILE],
    );
    // What the read operation answers is exactly that Markdown (the page renders it, never edits it).
    const read = await page.request.get(`${web.t.url}/api/autobot/vault`);
    assert.ok(((await read.json()) as { result: { markdown: string } }).result.markdown.includes(HOSTILE));

    await page.goto(`${web.t.url}/assistant/vault`);
    const vault = page.locator('[data-vault]');
    await vault.waitFor();
    // Rendered Markdown: the document's headings sit under the page's h1, the list is a list.
    assert.equal(await vault.locator('h2').first().textContent(), 'Assistant vault');
    assert.match(
      (await vault.locator('h3').textContent()) ?? '',
      /step 1: <script>window\.pwned = 1<\/script>/,
    );
    assert.ok((await vault.locator('li').count()) >= 4);
    // Nothing of it is markup: no script, image or element with a handler; the tags show as text.
    assert.equal(await vault.locator('script, img, iframe, object, embed, b').count(), 0);
    assert.equal(await vault.locator('[onerror], [onclick], [onload]').count(), 0);
    assert.match(await vault.innerText(), /<img src="\/nope" onerror="window\.pwned=4">/);
    // The only link is the https one, marked as not vouched for.
    const links = await vault
      .locator('a')
      .evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href'), rel: a.getAttribute('rel') })));
    assert.deepEqual(links, [{ href: 'https://example.org/ok', rel: 'noopener nofollow ugc' }]);
    assert.equal(await page.evaluate('typeof window.pwned'), 'undefined');
    await checkPage(w, 'assistant-vault-hostile');
    await w.context.close();
  });

  test('given a confirmed plan, when the person opens the assistant settings, then they see whom the assistant acts as and what it did', async () => {
    const w = await web.signedUp('bea', { name: 'Bea' });
    const { page } = w;
    const account = await web.t.instance.services.accounts.read.accountByIdentifier('bea');
    const plan = await proposeTestPlan(
      web.t.instance.services,
      { accountId: account!.accountId, agentId: account!.agentId },
      {
        text: 'a persona please',
        steps: [{ tool: 'svc.agent.create_persona', args: { name: 'Bea Bakes' } }],
      },
    );
    const confirmed = await page.request.post(`${web.t.url}/api/autobot/confirm`, {
      headers: { 'content-type': 'application/json', origin: web.t.url },
      data: { planHash: plan.hash },
    });
    assert.equal(confirmed.status(), 200, await confirmed.text());
    await page.goto(`${web.t.url}/assistant/settings`);
    assert.equal(await page.locator('[data-field="acts-as"]').textContent(), 'Bea');
    const row = page.locator('#provenance tbody tr', { hasText: 'svc.agent.create_persona' });
    await row.waitFor();
    // In words: what the step did, and that it ran as step 1 of a plan the person confirmed.
    assert.match(await row.innerText(), /Create an identity[\s\S]*step 1 of a plan you confirmed/);
    // The page shows what the instance recorded: one persona, made by that plan step.
    const personas = await web.t.instance.services.agents.read.personasOf(account!.agentId);
    assert.deepEqual(
      personas.map((p) => p.name),
      ['Bea Bakes'],
    );
    await checkPage(w, 'assistant-settings-activity');
    await w.context.close();
  });
});
