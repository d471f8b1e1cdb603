// What was live when, end to end on a real instance over PostgreSQL (docs/builder.md#history): every
// publish, rollback and restore of a site, and every suspension by an operator and its lifting, is in
// rm_builder_history, newest first, with what each replaced and never a preview; svc.builder.list_history
// answers it over REST and over MCP through the official SDK client, and refuses another owner's site
// (the operator's included); the publish page tells it in words; the projection rebuilt from the log
// equals the incremental one, and the fill from the log of migrations 0109, 0110 (a restore's draft
// revision) and 0111 (suspensions) gives the same rows.
import { loadMigrations, rebuildProjections } from '@tributary/infra';
import { builderHistoryProjection } from '@tributary/projections';
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
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

describe('what was live when', () => {
  let instance: TestInstance;
  let ada: Person;
  let bea: Person;
  let siteId: string;
  const v: Record<string, string> = {};
  const previews: string[] = [];

  const pool = () => instance.instance.pool;
  const rows = async () =>
    (
      await pool().query(
        `SELECT site_id, seq, action, version_id, replaced_version_id, actor_id, at, draft_revision, reason
           FROM rm_builder_history ORDER BY site_id, seq`,
      )
    ).rows;
  const save = async (words: string) => {
    const current = await ada.browser.get('/api/builder/draft');
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      revision: current.json.result.revision,
      document: draft(words),
    });
    assert.equal(saved.status, 201, saved.text);
  };
  const op = async (who: Person, name: string, body: Loose = {}) => {
    const r = await who.browser.post(`/api/ops/${name}`, body);
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.text}`);
    return r.json.result as Loose;
  };

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bea = await signUp(instance.url, 'bea');
    // Publish, a preview, a mistake published, back, forward, back again, the good one restored into the
    // draft, a new publish; then the same for bea's site, so two sites' histories sit side by side.
    // (Each preview is of a draft never published, so its version is only ever a preview.)
    const previewOf = async (words: string) => {
      await save(words);
      previews.push((await op(ada, 'svc.builder.preview')).versionId);
    };
    await previewOf('Kale');
    await save('Leek');
    v.leek = (await op(ada, 'svc.builder.publish', { note: 'leek' })).versionId;
    siteId = (await op(ada, 'svc.builder.list_versions')).siteId;
    await previewOf('Bean');
    await save('Leak');
    v.leak = (await op(ada, 'svc.builder.publish', { note: 'typo' })).versionId;
    for (const back of [v.leek, v.leak, v.leek])
      await op(ada, 'svc.builder.rollback', { siteId, versionId: back });
    assert.equal((await op(ada, 'svc.builder.restore_version', { versionId: v.leek })).restored, true);
    await previewOf('Corn');
    await save('Pea');
    v.pea = (await op(ada, 'svc.builder.publish', { note: 'pea' })).versionId;
    await op(bea, 'svc.builder.publish');
  });
  afterAll(async () => {
    await instance?.stop();
  });

  test('given publishes, rollbacks back and forward and a restore, when listing over REST, then each is there newest first with what it replaced, and no preview', async () => {
    const listed = await op(ada, 'svc.builder.list_history', { siteId });
    assert.equal(listed.siteId, siteId);
    assert.equal(listed.nextBefore, null);
    const said = listed.entries.map((e: Loose) => [
      e.rollback ? 'rollback' : e.restore ? 'restore' : 'publish',
      e.versionId,
      e.replacedVersionId,
    ]);
    assert.deepEqual(said, [
      ['publish', v.pea, v.leek],
      ['restore', v.leek, null],
      ['rollback', v.leek, v.leak],
      ['rollback', v.leak, v.leek],
      ['rollback', v.leek, v.leak],
      ['publish', v.leak, v.leek],
      ['publish', v.leek, null],
    ]);
    assert.ok(listed.entries.every((e: Loose) => e.by === ada.agentId));
    for (const e of listed.entries) assert.ok(!previews.includes(e.versionId), 'a preview is never in it');
    // Each version is named with when it was first published, as the versions list says it.
    const versions = (await op(ada, 'svc.builder.list_versions')).versions as Loose[];
    const firstPublished = new Map(versions.map((x) => [x.versionId, x.publishedAt]));
    for (const e of listed.entries) {
      assert.equal(e.versionPublishedAt, firstPublished.get(e.versionId));
      assert.equal(
        e.replacedVersionPublishedAt,
        e.replacedVersionId ? firstPublished.get(e.replacedVersionId) : null,
      );
    }
    const times = listed.entries.map((e: Loose) => Date.parse(e.at));
    assert.deepEqual(
      [...times].sort((a, b) => b - a),
      times,
      'newest first',
    );

    // A page at a time.
    const first = await op(ada, 'svc.builder.list_history', { siteId, limit: 4 });
    assert.deepEqual(first.entries, listed.entries.slice(0, 4));
    const rest = await op(ada, 'svc.builder.list_history', { siteId, limit: 4, before: first.nextBefore });
    assert.deepEqual(rest.entries, listed.entries.slice(4));
    assert.equal(rest.nextBefore, null);

    // Another owner's site is not found; bea's own history is hers alone.
    const refused = await bea.browser.post('/api/ops/svc.builder.list_history', { siteId });
    assert.equal(refused.status, 404);
    assert.equal(refused.json.code, 'builder.site_not_found');
    const hers = await op(bea, 'svc.builder.list_history');
    assert.equal(hers.entries.length, 1);
    assert.equal(hers.entries[0].by, bea.agentId);
  });

  test('given an MCP token with svc.builder.read, when an agent asks for the history through the SDK client, then it answers the same; without the scope it is not offered', async () => {
    const viaRest = await op(ada, 'svc.builder.list_history', { siteId });
    const { token } = await issueToken(ada, { scopes: ['svc.builder.read'] });
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.builder.list_history'));
      const listed = structured(
        await client.callTool({ name: 'svc.builder.list_history', arguments: { siteId } }),
      );
      assert.deepEqual(listed, viaRest);
      assert.equal(
        errorCodeOf(
          await client.callTool({ name: 'svc.builder.list_history', arguments: { siteId, before: 'x' } }),
        ),
        'input.invalid',
      );
    } finally {
      await client.close();
    }
    const { token: other } = await issueToken(ada, { scopes: ['svc.agent.read'] });
    const narrow = await mcpClient(instance.url, { bearer: other });
    try {
      const tools = (await narrow.listTools()).tools.map((t) => t.name);
      assert.ok(!tools.includes('svc.builder.list_history'));
    } finally {
      await narrow.close();
    }
  });

  test('given the publish page, then the history is told in words: forward and back, the restore, an earlier version published again, and nothing of ids', async () => {
    // The first version restored into the draft and published: a publish of content that was online before.
    await op(ada, 'svc.builder.restore_version', { versionId: v.leek });
    assert.equal((await op(ada, 'svc.builder.publish')).versionId, v.leek);
    const res = await ada.browser.get(`/builder/sites/${siteId}/publish`);
    assert.equal(res.status, 200);
    const history = /<section[^>]*id="history"[\s\S]*?<\/section>/.exec(res.text)?.[0] ?? '';
    const words = history
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/ ([).,])/g, '$1')
      .trim();
    const titles = [...history.matchAll(/<strong>([^<]+)<\/strong>/g)].map((m) => m[1]);
    assert.deepEqual(titles, [
      'Published',
      'Restored into the draft',
      'Published',
      'Restored into the draft',
      'Went back to an earlier version',
      'Put a newer version back online',
      'Went back to an earlier version',
      'Published',
      'Published',
    ]);
    assert.match(
      words,
      /You put “typo” \(published [^)]+ UTC\) online again, in place of “leek” \(published [^)]+\)\./,
    );
    assert.match(words, /You put the site online for the first time, with the note “leek”\./);
    assert.match(
      words,
      /^.*? Published [^·]+ · just now You put the draft online, the same as “leek” \(published [^)]+\), in place of “pea” \(published [^)]+\)\./,
    );
    for (const id of [...Object.values(v), ...previews])
      assert.ok(!history.includes(id), 'no version id shown');
  });

  test('given the operator (ada) suspends bea’s site and lifts it, when bea lists her history over REST, then she reads both, by the operator, with the reason, and the page says them in words; no one else reads it', async () => {
    const beaSite = (await op(bea, 'svc.builder.list_history')).siteId as string;
    const reason = 'Pages imitating a bank';
    const suspended = await op(ada, 'svc.builder.suspend_site', { siteId: beaSite, reason });
    assert.equal(suspended.suspended, true);
    const suspendedPage = await bea.browser.get(`/builder/sites/${beaSite}/publish`);
    assert.match(suspendedPage.text, /This site is suspended by the operators of this instance/);
    await op(ada, 'svc.builder.unsuspend_site', { siteId: beaSite });

    const hers = await op(bea, 'svc.builder.list_history');
    assert.equal(hers.nextBefore, null);
    const { at: _a1, ...lifted } = hers.entries[0];
    const { at: _a2, ...suspension } = hers.entries[1];
    const none = { rollback: false, restore: false, versionId: null, versionPublishedAt: null };
    const noReplaced = { replacedVersionId: null, replacedVersionPublishedAt: null };
    assert.deepEqual(lifted, {
      by: ada.agentId,
      ...none,
      suspended: false,
      unsuspended: true,
      reason: null,
      ...noReplaced,
    });
    assert.deepEqual(suspension, {
      by: ada.agentId,
      ...none,
      suspended: true,
      unsuspended: false,
      reason,
      ...noReplaced,
    });
    assert.equal(hers.entries.length, 3, 'the two, then her first publish');
    assert.equal(hers.entries[2].by, bea.agentId);
    assert.ok(Date.parse(hers.entries[0].at) >= Date.parse(hers.entries[1].at));

    // Her history is hers: the operator who suspended it does not read it, nor does ada's own show it.
    const refused = await ada.browser.post('/api/ops/svc.builder.list_history', { siteId: beaSite });
    assert.equal(refused.status, 404);
    assert.equal(refused.json.code, 'builder.site_not_found');
    const adas = await op(ada, 'svc.builder.list_history', { siteId });
    assert.ok(adas.entries.every((e: Loose) => !e.suspended && !e.unsuspended));

    // The publish page says it in words, for the owner.
    const res = await bea.browser.get(`/builder/sites/${beaSite}/publish`);
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.text, /This site is suspended by the operators/, 'lifted: no notice');
    const history = /<section[^>]*id="history"[\s\S]*?<\/section>/.exec(res.text)?.[0] ?? '';
    const titles = [...history.matchAll(/<strong>([^<]+)<\/strong>/g)].map((m) => m[1]);
    assert.deepEqual(titles, ['Back online', 'Suspended by the operator:', 'Published']);
    const words = history
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/ ([).,:])/g, '$1')
      .trim();
    assert.match(words, /Suspended by the operator: “Pages imitating a bank”/);
    assert.match(
      words,
      /ada \(an operator of this instance\) took the site offline with this reason: while it is suspended, visitors see the reason instead of the site/,
    );
    assert.match(words, /ada \(an operator of this instance\) lifted the suspension/);
  });

  test('given the log, then the history rebuilt from it equals the incremental one', async () => {
    const incremental = await rows();
    // Ada's nine changes, bea's first publish, and her site's suspension and its lifting.
    assert.equal(incremental.length, 12);
    assert.deepEqual(
      incremental.filter((r) => r.version_id === null).map((r) => [r.action, r.reason]),
      [
        ['suspended', 'Pages imitating a bank'],
        ['unsuspended', null],
      ],
    );
    const counts = await rebuildProjections(pool(), [builderHistoryProjection]);
    assert.ok(counts['builder-history']! > 0);
    assert.deepEqual(await rows(), incremental);
  });

  test('given an instance upgrading to migrations 0109, 0110 and 0111, then their fill from the log gives the rows the projection keeps', async () => {
    const incremental = await rows();
    // Restores among them, with the revision each saved.
    assert.ok(incremental.some((r) => r.action === 'restored' && Number.isInteger(r.draft_revision)));
    // Suspensions among them, with their reason.
    assert.ok(incremental.some((r) => r.action === 'suspended' && r.reason !== null));
    const migrations = (await loadMigrations()).filter((m) => [109, 110, 111].includes(m.version));
    assert.deepEqual(
      migrations.map((m) => m.version),
      [109, 110, 111],
      'migrations 0109, 0110 and 0111 ship, in order',
    );
    const client = await pool().connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM rm_builder_history');
      for (const m of migrations) await client.query(m.sql);
      const filled = (
        await client.query(
          `SELECT site_id, seq, action, version_id, replaced_version_id, actor_id, at, draft_revision, reason
             FROM rm_builder_history ORDER BY site_id, seq`,
        )
      ).rows;
      assert.deepEqual(filled, incremental);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    assert.deepEqual(await rows(), incremental);
  });
});
