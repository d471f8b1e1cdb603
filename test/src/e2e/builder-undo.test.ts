// Undo and redo of a draft, end to end on a real instance over PostgreSQL (docs/builder.md#undo): each
// step saves an earlier revision's document as a new revision and walks back and forth through the
// draft's history; an ordinary save after an undo drops what could be redone; a stale revision, bad input,
// nothing to undo or redo, and another account's site are refused with their codes and change nothing —
// over REST and over MCP through the official SDK client. An undo that would take back a restore of a
// published version is refused until asked for (builder.undo_takes_back_restore), says which restore it
// took back, and the draft then holds the rolled-back changes again (read_site's draftHoldsRolledBack),
// also when a publish came between the restore and the undo.
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
const wordsOf = (d: Loose) => d.document.pages[0].blocks[0]?.markdown as string | undefined;

describe('undo and redo of a draft', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;
  let siteId: string;

  const current = async (who: Person = ada) => {
    const r = await who.browser.get(`/api/builder/draft?siteId=${siteId}`);
    assert.equal(r.status, 200, r.text);
    return r.json.result as Loose;
  };
  const save = async (words: string) => {
    const { revision } = await current();
    const saved = await ada.browser.call('PUT', '/api/builder/draft', {
      siteId,
      revision,
      document: draft(words),
    });
    assert.equal(saved.status, 201, saved.text);
    return saved.json.result.revision as number;
  };
  const step = async (which: 'undo' | 'redo', body: Loose, who: Person = ada) =>
    who.browser.post(`/api/builder/draft/${which}`, body);

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    siteId = (await ada.browser.get('/api/builder/site')).json.result.site.siteId;
    for (const words of ['Leek', 'Pea', 'Carrot']) await save(words);
  });
  afterAll(async () => {
    await instance?.stop();
  });

  test('given three saves, when undoing twice and redoing twice over REST, then the draft walks back and forth, each step a new revision', async () => {
    const start = await current();
    assert.equal(wordsOf(start), 'Carrot');
    assert.equal(start.canUndo, true);
    assert.equal(start.canRedo, false);
    const seen: string[] = [];
    let revision = start.revision as number;
    for (const which of ['undo', 'undo', 'redo', 'redo'] as const) {
      const r = await step(which, { siteId, revision });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.result.revision, revision + 1);
      revision = r.json.result.revision;
      const now = await current();
      assert.equal(now.revision, revision);
      seen.push(wordsOf(now)!);
    }
    assert.deepEqual(seen, ['Pea', 'Leek', 'Pea', 'Carrot']);
    const end = await current();
    assert.equal(end.canRedo, false);
    assert.equal(end.canUndo, true);
  });

  test('given nothing undone since the last save, when redoing, then 409 builder.nothing_to_redo and nothing is written', async () => {
    const before = await current();
    const r = await step('redo', { siteId, revision: before.revision });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.code, 'builder.nothing_to_redo');
    assert.equal((await current()).revision, before.revision);
  });

  test('given an undo, when an ordinary save follows, then there is nothing to redo and undo goes back to the state before that save', async () => {
    const before = await current();
    const undone = await step('undo', { siteId, revision: before.revision });
    assert.equal(undone.status, 200, undone.text);
    assert.equal(undone.json.result.canRedo, true);
    await save('Kale');
    const after = await current();
    assert.equal(after.canRedo, false);
    assert.equal(
      (await step('redo', { siteId, revision: after.revision })).json.code,
      'builder.nothing_to_redo',
    );
    const back = await step('undo', { siteId, revision: after.revision });
    assert.equal(back.status, 200, back.text);
    assert.equal(wordsOf(await current()), 'Pea');
  });

  test('given a stale revision or bad input, when undoing, then the refusal has its code and the draft is unchanged', async () => {
    const before = await current();
    const stale = await step('undo', { siteId, revision: before.revision - 1 });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.json.code, 'builder.draft_stale');
    assert.equal(stale.json.currentRevision, before.revision);
    for (const body of [
      { siteId },
      { siteId, revision: 'latest' },
      { siteId, revision: 0 },
      { siteId, revision: before.revision, extra: true },
      { siteId: 'not-a-site', revision: before.revision },
    ]) {
      const r = await step('undo', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.code, 'input.invalid');
    }
    const after = await current();
    assert.equal(after.revision, before.revision);
    assert.equal(wordsOf(after), wordsOf(before));
  });

  test('given another account, when it undoes or redoes the site, then 404 builder.site_not_found and the draft is unchanged', async () => {
    const before = await current();
    for (const which of ['undo', 'redo'] as const) {
      const r = await step(which, { siteId, revision: before.revision }, bob);
      assert.equal(r.status, 404, r.text);
      assert.equal(r.json.code, 'builder.site_not_found');
    }
    assert.equal((await current()).revision, before.revision);
  });

  test('given a new site, when undoing its first revision, then 409 builder.nothing_to_undo', async () => {
    const made = await ada.browser.post('/api/ops/svc.builder.create_site', { title: 'Fresh' });
    assert.equal(made.status, 201, made.text);
    const fresh = made.json.result.siteId as string;
    const d = (await ada.browser.get(`/api/builder/draft?siteId=${fresh}`)).json.result;
    assert.equal(d.canUndo, false);
    const r = await step('undo', { siteId: fresh, revision: d.revision });
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.code, 'builder.nothing_to_undo');
  });

  test('given MCP tokens, when the owner undoes and redoes through the SDK client and another account tries, then the owner walks the history and the other is refused', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const { token: bobToken } = await issueToken(bob, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: token });
    const other = await mcpClient(instance.url, { bearer: bobToken });
    try {
      const before = await current();
      const undone = structured(
        await client.callTool({
          name: 'svc.builder.undo_draft',
          arguments: { siteId, revision: before.revision },
        }),
      );
      assert.equal(undone.revision, before.revision + 1);
      assert.equal(undone.canRedo, true);
      assert.equal(
        errorCodeOf(
          await other.callTool({
            name: 'svc.builder.redo_draft',
            arguments: { siteId, revision: undone.revision },
          }),
        ),
        'builder.site_not_found',
      );
      assert.equal(
        errorCodeOf(
          await client.callTool({ name: 'svc.builder.redo_draft', arguments: { siteId, revision: 'x' } }),
        ),
        'input.invalid',
      );
      const redone = structured(
        await client.callTool({
          name: 'svc.builder.redo_draft',
          arguments: { siteId, revision: undone.revision },
        }),
      );
      assert.equal(redone.restoredRevision, before.revision);
      assert.equal(wordsOf(await current()), wordsOf(before));
    } finally {
      await client.close();
      await other.close();
    }
  });

  test('given a rollback, a restore, a publish and an edit, when undoing three times, then the third undo stops at the restore until asked for, says it, and the rollback warning is back', async () => {
    const made = await ada.browser.post('/api/ops/svc.builder.create_site', { title: 'Bakery' });
    assert.equal(made.status, 201, made.text);
    const bakery = made.json.result.siteId as string;
    const draftOf = async () =>
      (await ada.browser.get(`/api/builder/draft?siteId=${bakery}`)).json.result as Loose;
    const saveWords = async (words: string) => {
      const { revision } = await draftOf();
      const r = await ada.browser.call('PUT', '/api/builder/draft', {
        siteId: bakery,
        revision,
        document: draft(words),
      });
      assert.equal(r.status, 201, r.text);
    };
    const call = async (path: string, body: Loose) => {
      const r = await ada.browser.post(path, { siteId: bakery, ...body });
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      return r.json.result as Loose;
    };
    const siteRead = async () =>
      (await ada.browser.get(`/api/builder/site?siteId=${bakery}`)).json.result as Loose;

    await saveWords('Open 7:30 to 18:00.');
    const good = await call('/api/builder/publish', {});
    await saveWords('Open 9:00 to 12:00.'); // the wrong hours
    await call('/api/builder/publish', {});
    await call('/api/builder/rollback', { versionId: good.versionId });
    assert.equal((await siteRead()).draftHoldsRolledBack, true);
    const restored = await call('/api/builder/restore', { versionId: good.versionId });
    assert.equal(restored.restored, true);
    assert.equal((await siteRead()).draftHoldsRolledBack, false);
    await saveWords('Open 7:30 to 18:00. Fresh bread daily.');
    const next = await call('/api/builder/publish', {});
    assert.equal(next.published, true);
    await saveWords('Open 7:30 to 18:00. Fresh bread every day.');

    const undo = (body: Loose = {}) =>
      ada.browser.post('/api/builder/draft/undo', { siteId: bakery, ...body });
    let d = await draftOf();
    const first = await undo({ revision: d.revision });
    assert.equal(first.status, 200, first.text);
    // Back to what is online: not a restore.
    assert.deepEqual(
      {
        restore: first.json.result.restore,
        was: first.json.result.wasOnline,
        is: first.json.result.isOnline,
      },
      { restore: null, was: false, is: true },
    );
    d = await draftOf();
    const second = await undo({ revision: d.revision });
    assert.equal(second.status, 200, second.text);
    // Past the publish: the draft no longer matches the site, and the answer says so.
    assert.deepEqual(
      {
        restore: second.json.result.restore,
        was: second.json.result.wasOnline,
        is: second.json.result.isOnline,
      },
      { restore: null, was: true, is: false },
    );
    assert.equal(wordsOf(await draftOf()), 'Open 7:30 to 18:00.');
    assert.equal((await siteRead()).draftHoldsRolledBack, false);

    // The third would take back the restore: refused, with what it is about, and nothing written.
    d = await draftOf();
    const events = await instance.instance.pool.query(`SELECT count(*)::int AS n FROM events`);
    const stopped = await undo({ revision: d.revision });
    assert.equal(stopped.status, 409, stopped.text);
    assert.equal(stopped.json.code, 'builder.undo_takes_back_restore');
    assert.equal(stopped.json.versionId, good.versionId);
    assert.ok(Date.parse(stopped.json.restoredAt) >= Date.parse(stopped.json.versionPublishedAt));
    assert.equal((await draftOf()).revision, d.revision);
    assert.equal(
      (await instance.instance.pool.query(`SELECT count(*)::int AS n FROM events`)).rows[0].n,
      events.rows[0].n,
    );
    for (const bad of [{ undoRestore: 'yes' }, { undoRestore: 1 }]) {
      const r = await undo({ revision: d.revision, ...bad });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.code, 'input.invalid');
    }

    // Asked for: the restore is taken back, the answer names it, and the warning is back.
    const third = await undo({ revision: d.revision, undoRestore: true });
    assert.equal(third.status, 200, third.text);
    assert.equal(third.json.result.restore.versionId, good.versionId);
    assert.equal(third.json.result.restore.restoredAt, stopped.json.restoredAt);
    assert.equal(wordsOf(await draftOf()), 'Open 9:00 to 12:00.');
    const site = await siteRead();
    assert.equal(site.state, 'unpublished_changes');
    assert.equal(site.draftHoldsRolledBack, true);

    // Redo puts the restore back, and says so; the warning goes.
    const redo = await ada.browser.post('/api/builder/draft/redo', {
      siteId: bakery,
      revision: third.json.result.revision,
    });
    assert.equal(redo.status, 200, redo.text);
    assert.equal(redo.json.result.restore.versionId, good.versionId);
    assert.equal(wordsOf(await draftOf()), 'Open 7:30 to 18:00.');
    assert.equal((await siteRead()).draftHoldsRolledBack, false);

    // Over MCP the same refusal, and the same undo once asked for.
    const { token } = await issueToken(ada, { scopes: ['svc.builder.read', 'svc.builder.write'] });
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const revision = (await draftOf()).revision as number;
      assert.equal(
        errorCodeOf(
          await client.callTool({ name: 'svc.builder.undo_draft', arguments: { siteId: bakery, revision } }),
        ),
        'builder.undo_takes_back_restore',
      );
      const undone = structured(
        await client.callTool({
          name: 'svc.builder.undo_draft',
          arguments: { siteId: bakery, revision, undoRestore: true },
        }),
      );
      assert.equal((undone.restore as Loose).versionId, good.versionId);
      assert.equal(wordsOf(await draftOf()), 'Open 9:00 to 12:00.');
    } finally {
      await client.close();
    }
  });
});
