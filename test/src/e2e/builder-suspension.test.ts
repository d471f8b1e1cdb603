// Suspension end to end: an operator suspends someone's site over REST (POST /api/builder/suspend) and
// over MCP (a token holding svc.admin), the owner reads the state and the reason and cannot lift it,
// refusals write nothing, and the site server answers 451 with Link rel=blocked-by at once.
import { defaultSiteId } from '@tributary/services';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, structured, type Person } from './mcp-helpers.js';

const ids = { sha256: (s: string) => createHash('sha256').update(s).digest('hex') };

describe('suspending a site', () => {
  let instance: TestInstance;
  let ada: Person; // the operator (first account)
  let bob: Person;
  let siteId: string;
  let previewUrl: string;

  const events = async () =>
    Number(
      (
        await instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type IN ('site.suspended', 'site.unsuspended')`,
        )
      ).rows[0].n,
    );
  const ownerReads = async () =>
    (await bob.browser.get(`/api/builder/site?siteId=${siteId}`)).json.result.site.suspendedReason;

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    siteId = defaultSiteId(ids, bob.agentId);
    const published = await bob.browser.post('/api/ops/svc.builder.publish', {});
    assert.equal(published.status, 201, published.text);
    const preview = await bob.browser.post('/api/ops/svc.builder.preview', {});
    assert.ok(preview.status === 200 || preview.status === 201, preview.text);
    previewUrl = preview.json.result.previewUrl;
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given the operator, when suspending over REST, then the owner reads the reason and the site answers 451 with Link rel=blocked-by', async () => {
    const r = await ada.browser.post('/api/builder/suspend', {
      targetAgentId: bob.agentId,
      reason: 'Phishing',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.result, {
      siteId,
      ownerAgentId: bob.agentId,
      suspended: true,
      reason: 'Phishing',
    });
    assert.equal(await ownerReads(), 'Phishing');
    await instance.sites.refresh(siteId);
    assert.equal(instance.sites.lookup(siteId)?.suspendedReason, 'Phishing');
    const page = await fetch(previewUrl);
    assert.equal(page.status, 451);
    assert.equal(page.headers.get('link'), `<${instance.url}/>; rel="blocked-by"`);
    assert.match(await page.text(), /Phishing/);
  });

  test('given the owner, when lifting or suspending, then 403 auth.controller_only and nothing is written', async () => {
    const before = await events();
    const lift = await bob.browser.call('DELETE', '/api/builder/suspend', { siteId });
    assert.equal(lift.status, 403, lift.text);
    assert.equal(lift.json.code, 'auth.controller_only');
    const again = await bob.browser.post('/api/builder/suspend', { siteId, reason: 'mine' });
    assert.equal(again.json.code, 'auth.controller_only');
    assert.equal(await events(), before);
    assert.equal(await ownerReads(), 'Phishing');
  });

  test('given bad input, then 400 input.invalid or 404 builder.site_not_found, and nothing is written', async () => {
    const before = await events();
    for (const [body, code] of [
      [{ reason: 'x' }, 'input.invalid'],
      [{ siteId, reason: '' }, 'input.invalid'],
      [{ siteId: '0f8fad5b-d9cb-469f-a165-70867728950e', reason: 'x' }, 'builder.site_not_found'],
      [{ siteId, targetAgentId: ada.agentId, reason: 'x' }, 'builder.site_not_found'],
    ] as const) {
      const r = await ada.browser.post('/api/builder/suspend', body);
      assert.equal(r.json.code, code, JSON.stringify(body));
    }
    assert.equal(await events(), before);
  });

  test('given the operator, when lifting with query parameters, then the site serves again', async () => {
    const r = await ada.browser.call('DELETE', `/api/builder/suspend?siteId=${siteId}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result.suspended, false);
    assert.equal(await ownerReads(), null);
    await instance.sites.refresh(siteId);
    assert.equal((await fetch(previewUrl)).status, 200);
  });

  test('given MCP, then an operator token with svc.admin suspends and lifts; the owner’s token is refused', async () => {
    const operator = await issueToken(ada, { scopes: ['svc.admin'] });
    const owner = await issueToken(bob, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const op = await mcpClient(instance.url, { bearer: operator.token });
    const own = await mcpClient(instance.url, { bearer: owner.token });
    try {
      const tools = (await op.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.builder.suspend_site') && tools.includes('svc.builder.unsuspend_site'));
      const s = await op.callTool({
        name: 'svc.builder.suspend_site',
        arguments: { siteId, reason: 'Spam' },
      });
      assert.equal(structured(s).reason, 'Spam');
      assert.equal(await ownerReads(), 'Spam');
      const refused = await own.callTool({ name: 'svc.builder.unsuspend_site', arguments: { siteId } });
      assert.equal(errorCodeOf(refused), 'auth.insufficient_scope');
      const u = await op.callTool({ name: 'svc.builder.unsuspend_site', arguments: { siteId } });
      assert.equal(structured(u).suspended, false);
      assert.equal(await ownerReads(), null);
    } finally {
      await op.close();
      await own.close();
    }
  });
});
