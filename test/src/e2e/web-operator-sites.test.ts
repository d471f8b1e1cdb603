// The operator's site-suspensions page in a real browser: two published sites, the operator suspends one
// from the page with a reason, the list shows it with its reason, the site answers 451 while the other
// serves, then the operator lifts it and it serves again. The list is also the catalogue query
// svc.builder.list_suspended_sites (REST and MCP, paged). A person who is not an operator is refused the
// page, its posts and the query, and nothing changes. The owner reads the suspension and its lifting in
// the site's history (docs/builder.md#history). Every page through axe and screenshotted.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import { beforeAll, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  password,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';
import { checkPage, signInInBrowser, webSuite, type WebSuiteOptions } from './web-kit.js';

const groupInstance: WebSuiteOptions = {
  instance: { env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Sites', SITES_DOMAIN: 'sites.test' } },
  end: 'destroy',
};

webSuite('the operator’s site-suspensions page', groupInstance, (web) => {
  let ada: Person; // the operator (first account)
  let bob: Person;
  let cleo: Person;
  const sites: Record<string, string> = {};

  const status = async (label: string) => (await fetch(`${web.t.url}/sites/${label}/`)).status;
  const suspensionEvents = async () =>
    Number(
      (
        await web.t.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type IN ('site.suspended', 'site.unsuspended')`,
        )
      ).rows[0].n,
    );

  beforeAll(async () => {
    ada = await signUp(web.t.url, 'ada');
    bob = await signUp(web.t.url, 'bob');
    cleo = await signUp(web.t.url, 'cleo');
    for (const [who, label] of [
      [bob, 'bob-bakes'],
      [cleo, 'cleo-cooks'],
    ] as const) {
      const claimed = await who.browser.post('/api/builder/address', { label });
      assert.equal(claimed.status, 201, claimed.text);
      sites[label] = claimed.json.result.siteId;
      const published = await who.browser.post('/api/ops/svc.builder.publish', {});
      assert.equal(published.status, 201, published.text);
    }
    await eventually('bob-bakes serves', async () => (await status('bob-bakes')) === 200);
    await eventually('cleo-cooks serves', async () => (await status('cleo-cooks')) === 200);
  });

  test('given two published sites, when the operator suspends one from the page with a reason, then the list shows it, it answers 451 and the other serves; lifted, it serves again', async () => {
    const w = await web.page();
    const { page } = w;
    await signInInBrowser(page, web.t.url, 'ada', password);
    await page.goto(`${web.t.url}/operator`);
    await page
      .getByRole('navigation', { name: 'Operator' })
      .getByRole('link', { name: 'Site suspensions' })
      .click();
    await page.getByRole('heading', { name: 'Suspended sites' }).waitFor();
    await page.getByText('No site is suspended.').waitFor();
    await checkPage(w, 'operator-sites-empty');

    // A site id that names no site: refused on the page, nothing written.
    await page.getByLabel('Site id').fill('0f8fad5b-d9cb-469f-a165-70867728950e');
    await page.getByLabel('Reason').fill('Phishing');
    await page.getByRole('button', { name: 'Suspend the site' }).click();
    await page.locator('[data-error-code="builder.site_not_found"]').waitFor();
    assert.equal(await suspensionEvents(), 0);

    await page.getByLabel('Site id').fill(sites['bob-bakes']!);
    await page.getByLabel('Reason').fill('Phishing pages imitating a bank');
    await page.getByRole('button', { name: 'Suspend the site' }).click();
    await page.getByText('Site suspended').waitFor();
    const row = page.locator('#suspended tbody tr');
    assert.equal(await row.count(), 1);
    const text = (await row.first().textContent()) ?? '';
    assert.match(text, new RegExp(sites['bob-bakes']!));
    assert.match(text, /Phishing pages imitating a bank/);
    assert.match(text, new RegExp(bob.agentId));
    await checkPage(w, 'operator-sites');

    await eventually('bob-bakes answers 451', async () => (await status('bob-bakes')) === 451);
    const blocked = await fetch(`${web.t.url}/sites/bob-bakes/`);
    assert.match(await blocked.text(), /Phishing pages imitating a bank/);
    assert.equal(await status('cleo-cooks'), 200);

    // The same list over REST, with its time.
    const listed = (await ada.browser.get('/api/builder/suspended')).json.result as Loose;
    assert.equal(listed.nextAfter, null);
    assert.deepEqual(
      listed.sites.map((s: Loose) => [s.siteId, s.ownerAgentId, s.reason]),
      [[sites['bob-bakes'], bob.agentId, 'Phishing pages imitating a bank']],
    );
    const when = await web.t.instance.pool.query(
      `SELECT occurred_at FROM events WHERE type = 'site.suspended' AND stream = $1`,
      [`site-${sites['bob-bakes']}`],
    );
    assert.equal(listed.sites[0].suspendedAt, when.rows[0].occurred_at.toISOString());

    await page.getByRole('button', { name: /Lift/ }).click();
    await page.getByText('Suspension lifted').waitFor();
    await page.getByText('No site is suspended.').waitFor();
    await eventually('bob-bakes serves again', async () => (await status('bob-bakes')) === 200);
    assert.equal(await status('cleo-cooks'), 200);
    assert.deepEqual((await ada.browser.get('/api/builder/suspended')).json.result.sites, []);
    await w.context.close();

    // Bob, the owner, reads both in his site's history, in words (docs/builder.md#history).
    const owner = await web.page();
    await signInInBrowser(owner.page, web.t.url, 'bob', password);
    await owner.page.goto(`${web.t.url}/builder/sites/${sites['bob-bakes']!}/publish#history`);
    const entries = owner.page.locator('#history .history-entry');
    await entries.first().waitFor();
    assert.deepEqual(await entries.evaluateAll((li) => li.map((e) => e.getAttribute('data-action'))), [
      'unsuspended',
      'suspended',
      'published',
    ]);
    await entries.nth(0).getByText('Back online').waitFor();
    await entries.nth(1).getByText('Suspended by the operator:').waitFor();
    assert.equal(
      await entries.nth(1).locator('[data-field=history-reason]').textContent(),
      '“Phishing pages imitating a bank”',
    );
    await entries.nth(1).getByText('ada (an operator of this instance) took the site offline').waitFor();
    await checkPage(owner, 'builder-history-suspension');
    await owner.context.close();
  });

  test('given both sites suspended, when listed a page of one at a time over REST and MCP, then each page holds one and nextAfter leads to the next', async () => {
    for (const label of ['bob-bakes', 'cleo-cooks']) {
      const r = await ada.browser.post('/api/builder/suspend', {
        siteId: sites[label],
        reason: `spam ${label}`,
      });
      assert.equal(r.status, 200, r.text);
    }
    const ordered = Object.values(sites).sort();
    const first = (await ada.browser.get('/api/builder/suspended?limit=1')).json.result as Loose;
    assert.deepEqual(
      first.sites.map((s: Loose) => s.siteId),
      [ordered[0]],
    );
    assert.equal(first.nextAfter, ordered[0]);
    const second = (await ada.browser.get(`/api/builder/suspended?limit=1&after=${first.nextAfter}`)).json
      .result as Loose;
    assert.deepEqual(
      second.sites.map((s: Loose) => s.siteId),
      [ordered[1]],
    );
    const bad = await ada.browser.get('/api/builder/suspended?limit=1000');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'input.invalid');

    const operator = await issueToken(ada, { scopes: ['svc.admin'] });
    const op = await mcpClient(web.t.url, { bearer: operator.token });
    try {
      const all = structured(await op.callTool({ name: 'svc.builder.list_suspended_sites', arguments: {} }));
      assert.deepEqual(all.sites.map((s: Loose) => s.reason).sort(), ['spam bob-bakes', 'spam cleo-cooks']);
    } finally {
      await op.close();
    }
    for (const label of ['bob-bakes', 'cleo-cooks']) {
      const r = await ada.browser.call('DELETE', '/api/builder/suspend', { siteId: sites[label] });
      assert.equal(r.status, 200, r.text);
    }
  });

  test('given a person who is not an operator, when they open the page, post to it or call the query, then 403 and nothing changes', async () => {
    const w = await web.page();
    await signInInBrowser(w.page, web.t.url, 'bob', password);
    const r = await w.page.goto(`${web.t.url}/operator/sites`);
    assert.equal(r?.status(), 403);
    await w.page.getByRole('heading', { name: 'Operators only' }).waitFor();
    const before = await suspensionEvents();
    const csrf = await w.page.locator('form[action="/signout"] input[name="csrf"]').getAttribute('value');
    const post = await w.page.request.post(`${web.t.url}/operator/sites/suspend`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: web.t.url },
      data: `csrf=${csrf}&siteId=${sites['cleo-cooks']}&reason=mine`,
      maxRedirects: 0,
    });
    assert.equal(post.status(), 403);
    assert.equal(await suspensionEvents(), before);
    assert.equal(await status('cleo-cooks'), 200);

    const listed = await bob.browser.get('/api/builder/suspended');
    assert.equal(listed.status, 403);
    assert.equal(listed.json.code, 'auth.controller_only');
    const token = await issueToken(bob, { scopes: ['svc.builder.read'] });
    const mcp = await mcpClient(web.t.url, { bearer: token.token });
    try {
      const refused = await mcp.callTool({ name: 'svc.builder.list_suspended_sites', arguments: {} });
      assert.equal(errorCodeOf(refused), 'auth.insufficient_scope');
    } finally {
      await mcp.close();
    }
    await w.context.close();
  });
});
