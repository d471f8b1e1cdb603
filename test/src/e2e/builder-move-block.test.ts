// svc.builder.move_block end to end on a real instance over PostgreSQL (docs/builder.md#move-block): a
// block moves over REST and over MCP as a new draft revision; another person's site is 404 and a move
// off the page, of a block that is not there, or from a stale revision answers its code and writes
// nothing.
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

const words = ['One', 'Two', 'Three', 'Four'];
const draft = {
  schemaVersion: 1,
  pages: [
    { path: '/', title: 'Home', blocks: words.map((w) => ({ type: 'text', markdown: w })) },
    { path: '/more', title: 'More', blocks: [{ type: 'divider' }] },
  ],
};

describe('moving a block', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;
  let siteId: string;

  const order = (d: Loose) => d.document.pages[0].blocks.map((b: Loose) => b.markdown);

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    const created = await ada.browser.post('/api/builder/sites', { title: 'Ada’s Soups' });
    assert.equal(created.status, 201, created.text);
    siteId = created.json.result.siteId;
    const first = (await ada.browser.get(`/api/builder/draft?siteId=${siteId}`)).json.result;
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      siteId,
      revision: first.revision,
      document: draft,
    });
    assert.equal(saved.status, 201, saved.text);
  });
  afterAll(async () => {
    await instance?.stop();
  });

  const draftOf = async () =>
    (await ada.browser.get(`/api/builder/draft?siteId=${siteId}`)).json.result as Loose;

  test('given four blocks, when the first is moved to the third place over REST, then the order is new and the revision one more', async () => {
    const before = await draftOf();
    const r = await ada.browser.post('/api/builder/draft/move-block', {
      siteId,
      revision: before.revision,
      from: 0,
      to: 2,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result.moved, true);
    assert.equal(r.json.result.revision, before.revision + 1);
    const after = await draftOf();
    assert.deepEqual(order(after), ['Two', 'Three', 'One', 'Four']);
    assert.deepEqual(after.document.pages[1], before.document.pages[1], 'the other page is untouched');
  });

  test('given a block moved to where it is, then nothing is saved', async () => {
    const before = await draftOf();
    const footprint = await builderFootprint(instance.instance.pool);
    const r = await ada.browser.post('/api/builder/draft/move-block', {
      siteId,
      revision: before.revision,
      from: 1,
      to: 1,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result.moved, false);
    assert.equal(r.json.result.revision, before.revision);
    assert.deepEqual(await builderFootprint(instance.instance.pool), footprint);
  });

  test('given bad moves, then each answers its code as problem+json and nothing is written', async () => {
    const { revision } = await draftOf();
    const footprint = await builderFootprint(instance.instance.pool);
    const cases: [Loose, number, string][] = [
      [{ siteId, revision, from: 4, to: 0 }, 404, 'builder.block_not_found'],
      [{ siteId, revision, from: 0, to: 4 }, 400, 'builder.block_position_invalid'],
      [{ siteId, revision, page: '/nowhere', from: 0, to: 1 }, 404, 'builder.page_not_found'],
      [{ siteId, revision, page: '/more', from: 0, to: 1 }, 400, 'builder.block_position_invalid'],
      [{ siteId, revision: revision - 1, from: 0, to: 1 }, 409, 'builder.draft_stale'],
      [{ siteId, revision, from: -1, to: 1 }, 400, 'input.invalid'],
      [{ siteId, revision, from: 'first', to: 1 }, 400, 'input.invalid'],
      [{ siteId, revision, from: 0, to: 1, extra: true }, 400, 'input.invalid'],
    ];
    for (const [body, status, code] of cases) {
      const r = await ada.browser.post('/api/builder/draft/move-block', body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(r.json.code, code, JSON.stringify(body));
    }
    const stale = await ada.browser.post('/api/builder/draft/move-block', {
      siteId,
      revision: revision - 1,
      from: 0,
      to: 1,
    });
    assert.equal(stale.json.currentRevision, revision);
    assert.deepEqual(await builderFootprint(instance.instance.pool), footprint);
  });

  test('given another person, when they move a block of this site (REST or as if it were theirs), then 404 builder.site_not_found and nothing moves', async () => {
    const { revision } = await draftOf();
    const footprint = await builderFootprint(instance.instance.pool);
    const r = await bob.browser.post('/api/builder/draft/move-block', { siteId, revision, from: 0, to: 1 });
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.code, 'builder.site_not_found');
    const asAda = await bob.browser.post('/api/builder/draft/move-block', {
      siteId,
      targetAgentId: ada.agentId,
      revision,
      from: 0,
      to: 1,
    });
    assert.equal(asAda.status, 404, asAda.text);
    assert.equal(asAda.json.code, 'agent.not_found');
    assert.deepEqual(await builderFootprint(instance.instance.pool), footprint);
  });

  test('given an MCP token, when an agent moves a block through the SDK client, then the draft has the new order', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const { revision } = await draftOf();
      const moved = structured(
        await client.callTool({
          name: 'svc.builder.move_block',
          arguments: { siteId, revision, from: 3, to: 0 },
        }),
      );
      assert.equal(moved.moved, true);
      assert.deepEqual(order(await draftOf()), ['Four', 'Two', 'Three', 'One']);
      assert.equal(
        errorCodeOf(
          await client.callTool({
            name: 'svc.builder.move_block',
            arguments: { siteId, revision: moved.revision, from: 9, to: 0 },
          }),
        ),
        'builder.block_not_found',
      );
    } finally {
      await client.close();
    }
  });
});
