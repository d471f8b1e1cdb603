// Versions are what was published (docs/builder.md#versions): a preview never lists nor serves again,
// each version tells when, by whom and why it went live, rollback leaves the draft and says so, restore
// puts a version's content back into the draft, the history says what was online when
// (docs/builder.md#history), and the first publish gives the site an address.
import { siteDraftStream, starterDraft, type DraftDocument } from '@tributary/domain';
import { describe, expect, it, vi } from 'vitest';
import type { SiteHistoryEntry } from '@tributary/services';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

interface Versions {
  servedVersionId: string | null;
  versions: Record<string, unknown>[];
}
interface SiteRead {
  state: string;
  liveUrl: string | null;
  draftHoldsRolledBack: boolean;
  versions: { versionId: string; note: string | null; publishedByName: string | null; publishedAt: string }[];
}

const draftWith = (words: string): DraftDocument => ({
  ...starterDraft('Soups'),
  pages: [{ path: '/', title: 'Soups', blocks: [{ type: 'text', markdown: words }] }],
});

async function save(t: UnitInstance, who: UnitAccount, siteId: string, words: string) {
  await t.given(who.agentId, [
    {
      stream: siteDraftStream(siteId),
      type: 'site.draft_saved',
      data: { siteId, document: draftWith(words) },
    },
  ]);
}
const publish = async (t: UnitInstance, who: UnitAccount, siteId: string, note?: string) =>
  (
    await t.when<{ versionId: string; liveUrl: string }>(
      'svc.builder.publish',
      { siteId, ...(note && { note }) },
      who.principal,
    )
  ).result;
const preview = async (t: UnitInstance, who: UnitAccount, siteId?: string) =>
  (
    await t.when<{ siteId: string; versionId: string }>(
      'svc.builder.preview',
      siteId ? { siteId } : {},
      who.principal,
    )
  ).result;
const readSite = async (t: UnitInstance, who: UnitAccount, siteId: string) =>
  (await t.when<SiteRead>('svc.builder.read_site', { siteId }, who.principal)).result;

describe('versions are publishes', () => {
  it('never lists a preview, in list_versions or read_site, and keeps only ids and times in list_versions', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    await save(t, ada, siteId, 'two');
    await preview(t, ada, siteId);
    const empty = await t.when<Versions>('svc.builder.list_versions', { siteId }, ada.principal);
    expect(empty.result.versions).toEqual([]);
    expect((await readSite(t, ada, siteId)).state).toBe('never_published');

    const live = await publish(t, ada, siteId, 'first soup menu');
    await save(t, ada, siteId, 'three');
    await preview(t, ada, siteId);
    const listed = (await t.when<Versions>('svc.builder.list_versions', { siteId }, ada.principal)).result;
    expect(listed.versions.map((v) => v.versionId)).toEqual([live.versionId]);
    // No note, no name: a result the assistant can read and act on in the same turn.
    expect(Object.keys(listed.versions[0]!).sort()).toEqual([
      'createdAt',
      'publishedAt',
      'publishedBy',
      'served',
      'versionId',
    ]);
    expect(listed.versions[0]).toMatchObject({ publishedBy: ada.agentId, served: true });

    const read = await readSite(t, ada, siteId);
    expect(read.state).toBe('unpublished_changes');
    expect(read.liveUrl).toBe(live.liveUrl);
    expect(read.versions).toHaveLength(1);
    expect(read.versions[0]).toMatchObject({ note: 'first soup menu', publishedByName: 'ada' });
  });

  it('refuses to roll back to a preview or restore one, writing nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    await publish(t, ada, siteId);
    await save(t, ada, siteId, 'only previewed');
    const previewed = await preview(t, ada, siteId);
    (
      await t.when('svc.builder.rollback', { siteId, versionId: previewed.versionId }, ada.principal)
    ).thenError('builder.version_not_published');
    (
      await t.when('svc.builder.restore_version', { siteId, versionId: previewed.versionId }, ada.principal)
    ).thenError('builder.version_not_published');
  });

  it('refuses a note over its limit or with a line break, writing nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    (await t.when('svc.builder.publish', { siteId, note: 'x'.repeat(281) }, ada.principal)).thenError(
      'input.invalid',
    );
    (await t.when('svc.builder.publish', { siteId, note: 'a\nb' }, ada.principal)).thenError('input.invalid');
  });
});

describe('rollback and restore', () => {
  it('rolls back leaving the draft (unpublished changes), restores the version into it, and a publish then changes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    await save(t, ada, siteId, 'Leek soup');
    const good = await publish(t, ada, siteId, 'leek');
    await save(t, ada, siteId, 'Leak soup');
    await publish(t, ada, siteId, 'typo');

    const back = await t.when<{ state: string }>(
      'svc.builder.rollback',
      { siteId, versionId: good.versionId },
      ada.principal,
    );
    back.thenEvents([{ type: 'site.rolled_back' }]);
    expect(back.result.state).toBe('unpublished_changes');
    // The draft still holds the typo the site went back from: the pages warn and offer the restore.
    expect((await readSite(t, ada, siteId)).draftHoldsRolledBack).toBe(true);

    const draft = await t.services.builder.read.draft(siteId);
    (
      await t.when(
        'svc.builder.restore_version',
        { siteId, versionId: good.versionId, revision: 1 },
        ada.principal,
      )
    ).thenError('builder.draft_stale');
    const restored = await t.when<{ revision: number; restored: boolean; state: string }>(
      'svc.builder.restore_version',
      { versionId: good.versionId, revision: draft!.revision },
      ada.principal,
    );
    restored.thenEvents([
      { type: 'site.draft_saved', data: { document: draftWith('Leek soup') } },
      {
        type: 'site.version_restored',
        data: { versionId: good.versionId, draftRevision: draft!.revision + 1 },
      },
    ]);
    expect(restored.result).toMatchObject({ revision: draft!.revision + 1, restored: true, state: 'live' });
    // Restoring again: the draft holds it already.
    (await t.when('svc.builder.restore_version', { versionId: good.versionId }, ada.principal)).thenEvents(
      [],
    );
    const again = await t.when<{ published: boolean; versionId: string }>(
      'svc.builder.publish',
      { siteId },
      ada.principal,
    );
    again.thenEvents([]);
    expect(again.result).toMatchObject({ published: false, versionId: good.versionId });
    // A new edit after the restore is new work, not the rolled-back typo: no warning.
    await save(t, ada, siteId, 'Leek soup, fresh');
    expect(await readSite(t, ada, siteId)).toMatchObject({
      state: 'unpublished_changes',
      draftHoldsRolledBack: false,
    });
  });
});

describe('rollback within one millisecond', () => {
  it('given two publishes and a rollback stamped the same millisecond, when the site is read, then the rollback still counts as going back and the draft warns', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    // Date frozen: every event below carries the same time, as an agent's burst can.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-07T02:30:00.000Z') });
    try {
      await save(t, ada, siteId, 'Leek soup');
      const good = await publish(t, ada, siteId, 'leek');
      await save(t, ada, siteId, 'Leak soup');
      const typo = await publish(t, ada, siteId, 'typo');
      await t.when('svc.builder.rollback', { siteId, versionId: good.versionId }, ada.principal);
      const versions = (await readSite(t, ada, siteId)).versions;
      const at = (id: string) => versions.find((v) => v.versionId === id)?.publishedAt;
      expect(at(good.versionId)).toBe(at(typo.versionId));
      expect(await readSite(t, ada, siteId)).toMatchObject({
        state: 'unpublished_changes',
        draftHoldsRolledBack: true,
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

interface History {
  siteId: string;
  entries: SiteHistoryEntry[];
  nextBefore: number | null;
}

describe('what was online when', () => {
  it('lists every publish, rollback (back and forward) and restore, newest first, with what each replaced; previews never', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { siteId } = await preview(t, ada);
    const history = async (input: Record<string, unknown> = {}) =>
      (await t.when<History>('svc.builder.list_history', { siteId, ...input }, ada.principal)).result;
    expect(await history()).toEqual({ siteId, entries: [], nextBefore: null });

    await save(t, ada, siteId, 'Leek soup');
    const first = await publish(t, ada, siteId, 'leek');
    await save(t, ada, siteId, 'Leak soup');
    await preview(t, ada, siteId);
    const typo = await publish(t, ada, siteId, 'typo');
    await t.when('svc.builder.rollback', { siteId, versionId: first.versionId }, ada.principal);
    await t.when('svc.builder.rollback', { siteId, versionId: typo.versionId }, ada.principal);
    await t.when('svc.builder.rollback', { siteId, versionId: first.versionId }, ada.principal);
    await t.when('svc.builder.restore_version', { siteId, versionId: first.versionId }, ada.principal);
    await save(t, ada, siteId, 'Pea soup');
    const pea = await publish(t, ada, siteId, 'pea');
    // Publishing what is online, and rolling back to it, change nothing: no line.
    await publish(t, ada, siteId);
    await t.when('svc.builder.rollback', { siteId, versionId: pea.versionId }, ada.principal);

    const { entries, nextBefore } = await history();
    expect(nextBefore).toBeNull();
    const versions = await t.services.builder.read.versionsOf(siteId, { limit: 10, publishedOnly: true });
    const publishedAt = new Map(versions.map((v) => [v.versionId, v.publishedAt]));
    const line = (
      kind: 'publish' | 'rollback' | 'restore',
      versionId: string,
      replacedVersionId: string | null,
    ) => ({
      by: ada.agentId,
      rollback: kind === 'rollback',
      restore: kind === 'restore',
      suspended: false,
      unsuspended: false,
      reason: null,
      versionId,
      versionPublishedAt: publishedAt.get(versionId),
      replacedVersionId,
      replacedVersionPublishedAt: replacedVersionId ? publishedAt.get(replacedVersionId) : null,
    });
    expect(entries.map(({ at: _at, ...e }) => e)).toEqual([
      line('publish', pea.versionId, first.versionId),
      line('restore', first.versionId, null),
      line('rollback', first.versionId, typo.versionId),
      line('rollback', typo.versionId, first.versionId),
      line('rollback', first.versionId, typo.versionId),
      line('publish', typo.versionId, first.versionId),
      line('publish', first.versionId, null),
    ]);
    // Newest first, each when it happened; the site's history holds the times of its events.
    const times = entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(entries.at(-1)!.at).toBe(publishedAt.get(first.versionId));
    // Previews are never in it.
    const previewIds = new Set(
      (await t.services.builder.read.versionsOf(siteId, { limit: 20 }))
        .filter((v) => v.publishedAt === null)
        .map((v) => v.versionId),
    );
    expect(previewIds.size).toBeGreaterThan(0);
    for (const e of entries) expect(previewIds.has(e.versionId!)).toBe(false);

    // A page at a time: the pages together are the whole history.
    const one = await history({ limit: 3 });
    expect(one.entries).toEqual(entries.slice(0, 3));
    const two = await history({ limit: 3, before: one.nextBefore });
    expect(two.entries).toEqual(entries.slice(3, 6));
    const three = await history({ limit: 3, before: two.nextBefore });
    expect(three).toMatchObject({ entries: entries.slice(6), nextBefore: null });
  });

  it('holds only ids, times and booleans, answers another owner’s site as not found, and a default site not yet made as empty', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bea = await t.signUp('bea');
    const none = await t.when<History>('svc.builder.list_history', {}, bea.principal);
    expect(none.result).toMatchObject({ entries: [], nextBefore: null });
    none.thenEvents([]);
    const { siteId } = await preview(t, ada);
    await publish(t, ada, siteId, 'words a person wrote');
    const { entries } = (await t.when<History>('svc.builder.list_history', { siteId }, ada.principal)).result;
    expect(entries).toHaveLength(1);
    const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const value of Object.values(entries[0]!))
      expect(
        value === null || typeof value === 'boolean' || ISO.test(String(value)) || UUID.test(String(value)),
      ).toBe(true);
    (await t.when('svc.builder.list_history', { siteId }, bea.principal)).thenError('builder.site_not_found');
    (await t.when('svc.builder.list_history', { siteId, before: 0 }, ada.principal)).thenError(
      'input.invalid',
    );
  });
});

describe('the first publish claims an address', () => {
  it('derives it from the title, with a suffix when taken, and keeps it on later publishes', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bea = await t.signUp('bea');
    const titled = async (who: UnitAccount) => {
      const { siteId } = await preview(t, who);
      await t.when('svc.builder.update_site', { siteId, title: 'Ada’s Bakery' }, who.principal);
      return siteId;
    };
    const adaSite = await titled(ada);
    const beaSite = await titled(bea);
    const first = await t.when<{ address: { label: string }; addressClaimed: boolean; liveUrl: string }>(
      'svc.builder.publish',
      { siteId: adaSite },
      ada.principal,
    );
    expect(first.result).toMatchObject({ address: { label: 'adas-bakery' }, addressClaimed: true });
    expect(first.result.liveUrl).toBe('https://adas-bakery.sites.unit.test/');
    const second = await t.when<{ address: { label: string } }>(
      'svc.builder.publish',
      { siteId: beaSite },
      bea.principal,
    );
    expect(second.result.address.label).toBe('adas-bakery-2');
    await save(t, ada, adaSite, 'new');
    const later = await t.when<{ addressClaimed: boolean; address: { label: string } }>(
      'svc.builder.publish',
      { siteId: adaSite },
      ada.principal,
    );
    expect(later.result).toMatchObject({ addressClaimed: false, address: { label: 'adas-bakery' } });
    expect(later.events.map((e) => e.type)).toEqual(['site.version_created', 'site.published']);
  });
});

describe('suspensions in the history', () => {
  it('lists the operator’s suspension (with its reason and a new reason), and its lifting, by the operator, between the publishes; a publish after it replaced the version online before it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada'); // the operator: the first account
    const bea = await t.signUp('bea');
    const { siteId } = await preview(t, bea);
    await save(t, bea, siteId, 'Leek soup');
    const first = await publish(t, bea, siteId, 'leek');
    const suspend = async (reason: string) =>
      (await t.when('svc.builder.suspend_site', { siteId, reason }, ada.principal)).thenEvents([
        { type: 'site.suspended' },
      ]);
    await suspend('Phishing pages');
    await suspend('Phishing pages imitating a bank');
    (await t.when('svc.builder.unsuspend_site', { siteId }, ada.principal)).thenEvents([
      { type: 'site.unsuspended' },
    ]);
    await save(t, bea, siteId, 'Pea soup');
    const pea = await publish(t, bea, siteId, 'pea');

    const read = await t.when<History>('svc.builder.list_history', { siteId }, bea.principal);
    read.thenEvents([]);
    const { entries } = read.result;
    const said = entries.map((e) => ({
      by: e.by,
      kind: e.suspended
        ? 'suspended'
        : e.unsuspended
          ? 'unsuspended'
          : e.rollback || e.restore
            ? 'other'
            : 'publish',
      reason: e.reason,
      versionId: e.versionId,
      versionPublishedAt: e.versionPublishedAt === null ? null : 'a time',
      replacedVersionId: e.replacedVersionId,
    }));
    const suspension = (kind: string, reason: string | null) => ({
      by: ada.agentId,
      kind,
      reason,
      versionId: null,
      versionPublishedAt: null,
      replacedVersionId: null,
    });
    expect(said).toEqual([
      {
        ...suspension('publish', null),
        by: bea.agentId,
        versionId: pea.versionId,
        versionPublishedAt: 'a time',
        replacedVersionId: first.versionId,
      },
      suspension('unsuspended', null),
      suspension('suspended', 'Phishing pages imitating a bank'),
      suspension('suspended', 'Phishing pages'),
      {
        ...suspension('publish', null),
        by: bea.agentId,
        versionId: first.versionId,
        versionPublishedAt: 'a time',
      },
    ]);
    const times = entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    // The operator reads no one's history through it: it is the owner's.
    (await t.when('svc.builder.list_history', { siteId }, ada.principal)).thenError('builder.site_not_found');
  });
});

describe('a history longer than a page', () => {
  /** ada (the operator) suspends and lifts bob's site `times` times: two entries each. */
  const suspensions = async (t: UnitInstance, operator: UnitAccount, siteId: string, times: number) => {
    for (let i = 0; i < times; i++) {
      await t.when('svc.builder.suspend_site', { siteId, reason: `check ${i}` }, operator.principal);
      await t.when('svc.builder.unsuspend_site', { siteId }, operator.principal);
    }
  };

  it('pages through more than 100 entries with nextBefore, every entry once, and reads a rollback back made before them', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const { siteId } = await preview(t, bob);
    await save(t, bob, siteId, 'Leek soup');
    const good = await publish(t, bob, siteId, 'leek');
    await save(t, bob, siteId, 'Leak soup');
    await publish(t, bob, siteId, 'typo');
    await t.when('svc.builder.rollback', { siteId, versionId: good.versionId }, bob.principal);
    expect((await readSite(t, bob, siteId)).draftHoldsRolledBack).toBe(true);
    await suspensions(t, ada, siteId, 60);

    // 3 entries of bob's, then 120: the rollback is the 121st newest.
    const seen: SiteHistoryEntry[] = [];
    let before: number | null | undefined;
    do {
      const page: History = (
        await t.when<History>(
          'svc.builder.list_history',
          { siteId, limit: 100, ...(before && { before }) },
          bob.principal,
        )
      ).result;
      seen.push(...page.entries);
      before = page.nextBefore;
    } while (before !== null);
    expect(seen).toHaveLength(123);
    expect(seen.filter((e) => e.suspended)).toHaveLength(60);
    expect(seen.filter((e) => e.unsuspended)).toHaveLength(60);
    expect(seen.at(-3)).toMatchObject({ rollback: true, versionId: good.versionId });
    // Each once, newest first, across the pages' seams.
    expect(seen.filter((e) => e.suspended).map((e) => e.reason)).toEqual(
      Array.from({ length: 60 }, (_, i) => `check ${59 - i}`),
    );
    // The draft still holds the typo the site went back from, however long the history since.
    expect((await readSite(t, bob, siteId)).draftHoldsRolledBack).toBe(true);
  });

  it('refuses an undo that would take back a restore made more than 100 entries ago, and a redo says it made the restore again', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const { siteId } = await preview(t, bob);
    await save(t, bob, siteId, 'Leek soup');
    const good = await publish(t, bob, siteId, 'leek');
    await save(t, bob, siteId, 'Leak soup');
    await publish(t, bob, siteId, 'typo');
    const restored = (
      await t.when<{ revision: number }>(
        'svc.builder.restore_version',
        { siteId, versionId: good.versionId },
        bob.principal,
      )
    ).result;
    await suspensions(t, ada, siteId, 55);

    const undo = await t.when(
      'svc.builder.undo_draft',
      { siteId, revision: restored.revision },
      bob.principal,
    );
    undo.thenError('builder.undo_takes_back_restore');
    const confirmed = await t.when<{ revision: number; restore: { versionId: string } | null }>(
      'svc.builder.undo_draft',
      { siteId, revision: restored.revision, undoRestore: true },
      bob.principal,
    );
    expect(confirmed.result.restore).toMatchObject({ versionId: good.versionId });
    const redo = await t.when<{ restore: { versionId: string } | null }>(
      'svc.builder.redo_draft',
      { siteId, revision: confirmed.result.revision },
      bob.principal,
    );
    expect(redo.result.restore).toMatchObject({ versionId: good.versionId });
  });
});
