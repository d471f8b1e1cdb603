// Preview, publish and rollback as specifications on the real pipeline over the in-memory log: which
// events each writes, the version reused for the same content, publishing twice having one effect,
// rollback never rendering, and the refusals (suspended site, another site's version) writing nothing.
import { siteDraftStream, siteStream, starterDraft, type DraftDocument } from '@tributary/domain';
import { manifestHash, openPreview, PREVIEW_PREFIX } from '@tributary/services';
import { describe, expect, it } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';
import { UNIT_BASE_URL } from './memory-services.js';

interface VersionAnswer {
  siteId: string;
  versionId: string;
  manifestHash: string;
  draftRevision: number;
  reused: boolean;
}
interface PreviewAnswer extends VersionAnswer {
  previewUrl: string;
  expiresAt: string;
  html: string;
}
interface PublishAnswer extends VersionAnswer {
  published: boolean;
  liveUrl: string;
}

const page = (path: string, title: string, text = title): DraftDocument['pages'][number] => ({
  path,
  title,
  blocks: [
    { type: 'heading', level: 1, text: title },
    { type: 'text', markdown: text },
  ],
});
const draftWith = (words: string): DraftDocument => ({
  ...starterDraft('Soups'),
  pages: [page('/', 'Soups', words), page('/about', 'About')],
  navigation: { items: [{ label: 'About', url: '/about' }] },
});

/** The owner's default site, made by a first preview (which creates it on demand). */
async function siteOf(t: UnitInstance, who: UnitAccount): Promise<string> {
  return (await t.when<PreviewAnswer>('svc.builder.preview', {}, who.principal)).result.siteId;
}

async function saveDraft(t: UnitInstance, who: UnitAccount, siteId: string, document: DraftDocument) {
  await t.given(who.agentId, [
    { stream: siteDraftStream(siteId), type: 'site.draft_saved', data: { siteId, document } },
  ]);
}

/** Every file of a version, read back from the blob store. */
async function bytesOf(t: UnitInstance, siteId: string, versionId: string): Promise<Map<string, Buffer>> {
  const version = await t.services.builder.read.version(siteId, versionId);
  expect(version, `version ${versionId}`).not.toBeNull();
  const files = new Map<string, Buffer>();
  for (const entry of version!.manifest) {
    const bytes = await t.services.builder.blobs.get(entry.sha256);
    expect(bytes, entry.path).toBeDefined();
    expect(bytes!.length).toBe(entry.length);
    files.set(entry.path, bytes!);
  }
  return files;
}

describe('svc.builder.preview', () => {
  it('renders the draft into a version, stores its files and answers a preview URL and the page', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const first = await t.when<PreviewAnswer>('svc.builder.preview', {}, ada.principal);
    first.thenEvents([
      { type: 'site.created' },
      { type: 'site.draft_saved' },
      { type: 'site.version_created' },
    ]);
    const r = first.result;
    const versionEvent = first.events[2]!;
    expect(versionEvent.stream).toBe(siteStream(r.siteId));
    expect(versionEvent.data).toMatchObject({
      versionId: r.versionId,
      manifestHash: r.manifestHash,
      draftRevision: 1,
    });
    const manifest = (versionEvent.data as { manifest: Parameters<typeof manifestHash>[0] }).manifest;
    expect(manifestHash(manifest)).toBe(r.manifestHash);
    expect(r.reused).toBe(false);
    expect(r.html).toMatch(/^<!doctype html>/);
    expect(r.previewUrl.startsWith(`${UNIT_BASE_URL}${PREVIEW_PREFIX}`)).toBe(true);
    expect(r.previewUrl.endsWith('/')).toBe(true);
    // The page answered is the stored page, byte for byte.
    const files = await bytesOf(t, r.siteId, r.versionId);
    expect(files.get('/index.html')!.toString('utf8')).toBe(r.html);
  });

  it('reuses the version the site has for the same content, and makes a new one for new content', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    const again = await t.when<PreviewAnswer>('svc.builder.preview', { siteId }, ada.principal);
    again.thenEvents([]);
    expect(again.result.reused).toBe(true);
    await saveDraft(t, ada, siteId, draftWith('Tomato'));
    const changed = await t.when<PreviewAnswer>(
      'svc.builder.preview',
      { siteId, path: '/about' },
      ada.principal,
    );
    changed.thenEvents([{ type: 'site.version_created', data: { draftRevision: 2 } }]);
    expect(changed.result.versionId).not.toBe(again.result.versionId);
    expect(changed.result.html).toContain('<title>About – ada</title>');
    expect(changed.result.previewUrl).toMatch(/\/about\/$/);
  });

  it('opens the version its token names until the token expires; another token opens nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = (await t.when<PreviewAnswer>('svc.builder.preview', {}, ada.principal)).result;
    const token = new URL(r.previewUrl).pathname.slice(PREVIEW_PREFIX.length).split('/')[0]!;
    const now = t.clock.now();
    const open = await openPreview(t.services, token, now);
    expect(open).toMatchObject({ siteId: r.siteId, versionId: r.versionId, suspendedReason: null });
    expect(open!.files.map((f) => f.path)).toContain('/index.html');
    expect(new Date(r.expiresAt).getTime() - now.getTime()).toBeGreaterThan(899_000);
    expect(
      await openPreview(t.services, token, new Date(new Date(r.expiresAt).getTime() + 1000)),
    ).toBeUndefined();
    const tampered = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await openPreview(t.services, tampered, now)).toBeUndefined();
    const otherVersion = token.replace(r.versionId, r.siteId);
    expect(await openPreview(t.services, otherVersion, now)).toBeUndefined();
    expect(await openPreview(t.services, 'not-a-token', now)).toBeUndefined();
  });

  it('refuses a page the draft does not have, another owner’s site, and bad input, writing nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const siteId = await siteOf(t, ada);
    (await t.when('svc.builder.preview', { siteId, path: '/nope' }, ada.principal)).thenError(
      'builder.page_not_found',
    );
    (await t.when('svc.builder.preview', { siteId }, bob.principal)).thenError('builder.site_not_found');
    (await t.when('svc.builder.preview', { siteId, path: '/../etc' }, ada.principal)).thenError(
      'input.invalid',
    );
    (await t.when('svc.builder.preview', { siteId, extra: 1 }, ada.principal)).thenError('input.invalid');
  });

  it('refuses a draft naming media or forms the owner does not hold', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    const doc = draftWith('x');
    doc.pages[0]!.blocks.push({ type: 'form', formId: '6f1c1b0e-8f5a-4c47-9a53-0f0b0a0c0d0e' });
    await saveDraft(t, ada, siteId, doc);
    (await t.when('svc.builder.preview', { siteId }, ada.principal)).thenError('builder.unknown_reference');
    (await t.when('svc.builder.publish', { siteId }, ada.principal)).thenError('builder.unknown_reference');
  });
});

describe('svc.builder.publish', () => {
  it('publishes the previewed version without a new one, and serves the very bytes the preview served', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const preview = (await t.when<PreviewAnswer>('svc.builder.preview', {}, ada.principal)).result;
    const outcome = await t.when<PublishAnswer>('svc.builder.publish', {}, ada.principal);
    // The first publish of a site without an address claims one from its title, in the same append.
    outcome.thenEvents([
      { type: 'site.address_claimed', data: { label: 'ada', siteId: preview.siteId } },
      { type: 'site.address_set', data: { label: 'ada' } },
      {
        type: 'site.published',
        stream: siteStream(preview.siteId),
        data: {
          siteId: preview.siteId,
          ownerAgentId: ada.agentId,
          versionId: preview.versionId,
          manifestHash: preview.manifestHash,
          title: 'ada',
        },
      },
    ]);
    expect(outcome.result).toMatchObject({
      versionId: preview.versionId,
      reused: true,
      published: true,
      addressClaimed: true,
      address: { label: 'ada' },
    });
    expect(outcome.result.liveUrl).toBe('https://ada.sites.unit.test/');
    const site = await t.services.builder.read.site(preview.siteId);
    expect(site?.publishedVersionId).toBe(preview.versionId);
  });

  it('renders and publishes at once when the draft was never previewed', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    await saveDraft(t, ada, siteId, draftWith('Leek'));
    const outcome = await t.when<PublishAnswer>('svc.builder.publish', { siteId }, ada.principal);
    outcome.thenEvents([
      { type: 'site.address_claimed' },
      { type: 'site.address_set' },
      { type: 'site.version_created' },
      { type: 'site.published' },
    ]);
    expect(outcome.result).toMatchObject({ reused: false, published: true, draftRevision: 2 });
    const files = await bytesOf(t, siteId, outcome.result.versionId);
    expect(files.get('/about/index.html')!.toString('utf8')).toContain('<h1>About</h1>');
  });

  it('has one effect when run twice, one after the other or at the same time', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    await saveDraft(t, ada, siteId, draftWith('Pea'));
    const before = t.store.all().length;
    const [a, b] = await Promise.all([
      t.when<PublishAnswer>('svc.builder.publish', { siteId }, ada.principal),
      t.when<PublishAnswer>('svc.builder.publish', { siteId }, ada.principal),
    ]);
    expect(a.result.versionId).toBe(b.result.versionId);
    const written = t.store
      .all()
      .slice(before)
      .map((e) => e.type);
    expect(written).toEqual([
      'site.address_claimed',
      'site.address_set',
      'site.version_created',
      'site.published',
    ]);
    expect([a.result.published, b.result.published].sort()).toEqual([false, true]);
    const site = await t.services.builder.read.versionsOf(siteId, { limit: 10 });
    expect(site.filter((v) => v.versionId === a.result.versionId)).toHaveLength(1);
    const third = await t.when<PublishAnswer>('svc.builder.publish', { siteId }, ada.principal);
    third.thenEvents([]);
    expect(third.result.published).toBe(false);
  });

  it('refuses a suspended site, writing nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    await t.given(t.primaryAgentId, [
      { stream: siteStream(siteId), type: 'site.suspended', data: { siteId, reason: 'spam' } },
    ]);
    const outcome = await t.when('svc.builder.publish', { siteId }, ada.principal);
    outcome.thenError('builder.site_suspended');
    expect((outcome.error as { details?: unknown }).details).toEqual({ reason: 'spam' });
    (await t.when('svc.builder.publish', { siteId }, (await t.signUp('bob')).principal)).thenError(
      'builder.site_not_found',
    );
  });
});

describe('svc.builder.rollback', () => {
  /** Three publishes of three drafts; their version ids, oldest first. */
  async function threePublishes(t: UnitInstance, who: UnitAccount, siteId: string): Promise<string[]> {
    const ids: string[] = [];
    for (const words of ['one', 'two', 'three']) {
      await saveDraft(t, who, siteId, draftWith(words));
      ids.push(
        (await t.when<PublishAnswer>('svc.builder.publish', { siteId }, who.principal)).result.versionId,
      );
    }
    return ids;
  }

  it('serves the first version again, with its stored manifest, without rendering anything', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const siteId = await siteOf(t, ada);
    const [v1, v2, v3] = await threePublishes(t, ada, siteId);
    const before = await bytesOf(t, siteId, v1!);
    // A settings change would alter any new render; rollback takes the stored version as it is.
    await t.given(ada.agentId, [
      { stream: siteStream(siteId), type: 'site.settings_updated', data: { theme: 'dark' } },
    ]);
    const stored = await t.services.builder.read.version(siteId, v1!);
    const outcome = await t.when('svc.builder.rollback', { versionId: v1 }, ada.principal);
    outcome.thenEvents([
      {
        type: 'site.rolled_back',
        data: {
          siteId,
          ownerAgentId: ada.agentId,
          versionId: v1,
          manifestHash: stored!.manifestHash,
          manifest: stored!.manifest,
          fromVersionId: v3,
        },
      },
    ]);
    expect((await t.services.builder.read.site(siteId))?.publishedVersionId).toBe(v1);
    expect(await bytesOf(t, siteId, v1!)).toEqual(before);
    // Forward again to a later version; the one already served is nothing to do.
    (await t.when('svc.builder.rollback', { siteId, versionId: v2 }, ada.principal)).thenEvents([
      { type: 'site.rolled_back', data: { versionId: v2, fromVersionId: v1 } },
    ]);
    (await t.when('svc.builder.rollback', { siteId, versionId: v2 }, ada.principal)).thenEvents([]);
    expect((await t.services.builder.read.versionsOf(siteId, { limit: 10 })).length).toBe(4);
  });

  it('refuses another site’s version (even the owner’s own other site), unknown ones and suspended sites', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const adaSite = await siteOf(t, ada);
    const bobSite = await siteOf(t, bob);
    const [adaV1] = await threePublishes(t, ada, adaSite);
    const [bobV1] = await threePublishes(t, bob, bobSite);
    (await t.when('svc.builder.rollback', { versionId: bobV1 }, ada.principal)).thenError(
      'builder.version_not_found',
    );
    (await t.when('svc.builder.rollback', { siteId: adaSite, versionId: bobV1 }, ada.principal)).thenError(
      'builder.version_not_found',
    );
    (await t.when('svc.builder.rollback', { siteId: bobSite, versionId: bobV1 }, ada.principal)).thenError(
      'builder.site_not_found',
    );
    (
      await t.when(
        'svc.builder.rollback',
        { versionId: '7d444840-9dc0-11d1-b245-5ffdce74fad2' },
        ada.principal,
      )
    ).thenError('builder.version_not_found');
    (await t.when('svc.builder.rollback', { versionId: 'v1' }, ada.principal)).thenError('input.invalid');
    await t.given(t.primaryAgentId, [
      { stream: siteStream(adaSite), type: 'site.suspended', data: { siteId: adaSite, reason: 'spam' } },
    ]);
    (await t.when('svc.builder.rollback', { versionId: adaV1 }, ada.principal)).thenError(
      'builder.site_suspended',
    );
  });

  it('refuses a site that was never published: there is nothing to roll back', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const preview = (await t.when<PreviewAnswer>('svc.builder.preview', {}, ada.principal)).result;
    (await t.when('svc.builder.rollback', { versionId: preview.versionId }, ada.principal)).thenError(
      'builder.not_published',
    );
  });
});
