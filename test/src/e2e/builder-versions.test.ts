// Versions are publishes, end to end on a real instance over PostgreSQL (docs/builder.md#versions): a
// preview is never listed nor a rollback or restore target — over REST, over MCP through the official
// SDK client, and for the assistant's "previous version" — and a refusal writes nothing; the first
// publish answers the site's address derived from its title, served at once; rollback says the draft
// differs, restore puts the live version back into the draft, and publishing then changes nothing.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { builderFootprint } from './builder-helpers.js';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const draft = (words: string) => ({
  schemaVersion: 1,
  pages: [{ path: '/', title: 'Home', blocks: [{ type: 'text', markdown: words }] }],
});

describe('versions are publishes', () => {
  let instance: TestInstance;
  let ada: Person;
  const published: string[] = [];
  const previews: string[] = [];

  const save = async (words: string) => {
    const current = await ada.browser.get('/api/builder/draft');
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      revision: current.json.result.revision,
      document: draft(words),
    });
    assert.equal(saved.status, 201, saved.text);
  };
  const op = async (name: string, body: Loose = {}) => {
    const r = await ada.browser.post(`/api/ops/${name}`, body);
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.text}`);
    return r.json.result as Loose;
  };

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    await op('svc.builder.update_site', { title: 'Ada’s Soups' });
    // publish, preview, publish, preview: two versions, two previews in between.
    for (const [i, words] of ['Leek', 'Pea', 'Carrot', 'Kale'].entries()) {
      await save(words);
      if (i % 2 === 0) published.push((await op('svc.builder.publish', { note: words })).versionId);
      else previews.push((await ada.browser.post('/api/builder/preview', {})).json.result.versionId);
    }
  });
  afterAll(async () => {
    await instance?.stop();
  });

  test('given publishes and previews, when listing over REST, then only the publishes, newest first, and a preview is refused as a rollback or restore target with nothing written', async () => {
    const listed = await op('svc.builder.list_versions');
    assert.deepEqual(
      listed.versions.map((v: Loose) => v.versionId),
      [...published].reverse(),
    );
    assert.ok(listed.versions.every((v: Loose) => v.publishedBy === ada.agentId && v.publishedAt));
    const site = (await ada.browser.get('/api/builder/site')).json.result;
    assert.deepEqual(
      site.versions.map((v: Loose) => [v.note, v.publishedByName]),
      [
        ['Carrot', 'ada'],
        ['Leek', 'ada'],
      ],
    );
    assert.equal(site.state, 'unpublished_changes', 'the draft holds Kale, only previewed');

    const before = await builderFootprint(instance.instance.pool);
    for (const path of ['/api/builder/rollback', '/api/builder/restore']) {
      const r = await ada.browser.post(path, { versionId: previews[0] });
      assert.equal(r.status, 409, `${path}: ${r.text}`);
      assert.equal(r.json.code, 'builder.version_not_published');
    }
    assert.deepEqual(await builderFootprint(instance.instance.pool), before);
  });

  test('given an MCP token, when an agent lists, rolls back and restores through the SDK client, then previews are not there', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const listed = structured(await client.callTool({ name: 'svc.builder.list_versions', arguments: {} }));
      assert.deepEqual(
        listed.versions.map((v: Loose) => v.versionId),
        [...published].reverse(),
      );
      for (const name of ['svc.builder.rollback', 'svc.builder.restore_version'])
        assert.equal(
          errorCodeOf(await client.callTool({ name, arguments: { versionId: previews[1] } })),
          'builder.version_not_published',
          name,
        );
    } finally {
      await client.close();
    }
  });

  test('given the built-in planner, when asked for the previous version, then it proposes the publish before the served one, never the preview made between them', async () => {
    const r = await ada.browser.post('/api/autobot/chat', {
      message: 'roll back my site to the previous version',
    });
    assert.equal(r.status, 200, r.text);
    const plan = r.json.result.plan as Loose;
    const step = plan.steps.find((s: Loose) => s.tool === 'svc.builder.rollback');
    assert.ok(step, `a rollback step: ${JSON.stringify(plan.steps)}`);
    assert.equal(step.args.versionId, published[0]);
    assert.notEqual(step.args.versionId, previews[0]);
    const confirmed = await ada.browser.post('/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    const site = (await ada.browser.get('/api/builder/site')).json.result;
    assert.equal(site.publication.versionId, published[0]);
    assert.equal(site.state, 'unpublished_changes');
  });

  test('given the rollback, when the live version is restored into the draft, then the draft is it and publishing changes nothing', async () => {
    const restored = await ada.browser.post('/api/builder/restore', { versionId: published[0] });
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.json.result.restored, true);
    assert.equal(restored.json.result.state, 'live');
    const current = (await ada.browser.get('/api/builder/draft')).json.result;
    assert.deepEqual(current.document.pages[0].blocks, draft('Leek').pages[0]!.blocks);
    const again = await op('svc.builder.publish');
    assert.equal(again.published, false);
    assert.equal(again.versionId, published[0]);
  });

  test('given the first publish, then it answered the address from the title, served at once', async () => {
    const site = (await ada.browser.get('/api/builder/site')).json.result;
    assert.equal(site.address.label, 'adas-soups');
    assert.equal(site.liveUrl, site.address.url);
    const sites = (await ada.browser.get('/api/builder/sites')).json.result.sites as Loose[];
    assert.equal(sites[0]!.liveUrl, site.address.url);
    const page = await fetch(site.address.pathUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Leek/);
  });
});
