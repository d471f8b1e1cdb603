// The builder's core operations (sites, settings, drafts) on the real pipeline over the in-memory log.
import { DRAFT_LIMITS, siteDraftStream, starterDraft, type DraftDocument } from '@tributary/domain';
import { defaultSiteId, type SiteView } from '@tributary/services';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test, vi } from 'vitest';
import { givenDefaultSite } from './builder-given.js';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ids = { sha256 };

async function twoPeople(): Promise<{ t: UnitInstance; ada: UnitAccount; bob: UnitAccount }> {
  const t = await unitInstance();
  return { t, ada: await t.signUp('ada'), bob: await t.signUp('bob') };
}

const sites = async (t: UnitInstance, who: UnitAccount, input: Record<string, unknown> = {}) =>
  (await t.when<{ sites: SiteView[] }>('svc.builder.list_sites', input, who.principal)).result.sites;

/** A draft with one page of these blocks (and a footer), as an editor would save it. */
const draftWith = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  pages: [{ path: '/', title: 'Home', blocks }],
  ...extra,
});

describe('svc.builder.list_sites', () => {
  test('given an owner without sites, when listing, then the default site is shown as it will be created, under the id derived from the owner, and nothing is written until the first write creates it', async () => {
    const { t, ada } = await twoPeople();
    const r = await t.when<{ sites: SiteView[] }>('svc.builder.list_sites', {}, ada.principal);
    const siteId = defaultSiteId(ids, ada.agentId);
    r.thenEvents([]);
    // `created: false` tells it from a site that exists: the sites page shows "Make your first site".
    assert.deepEqual(
      r.result.sites.map((s) => [
        s.siteId,
        s.isDefault,
        s.draftRevision,
        s.theme,
        s.publishedVersionId,
        (s as SiteView & { created: boolean }).created,
      ]),
      [[siteId, true, 1, 'classic', null, false]],
    );
    const draft = await t.when<{ revision: number; document: unknown }>(
      'svc.builder.read_draft',
      {},
      ada.principal,
    );
    draft.thenEvents([]);
    assert.deepEqual([draft.result.revision, draft.result.document], [1, starterDraft('ada')]);
    // Saving over the revision the read showed creates the site with its starter draft, then saves.
    (
      await t.when(
        'svc.builder.save_draft',
        { revision: 1, document: draftWith([{ type: 'text', markdown: 'hello' }]) },
        ada.principal,
      )
    ).thenEvents([
      {
        type: 'site.created',
        stream: `site-${siteId}`,
        data: { siteId, ownerAgentId: ada.agentId, title: 'ada', isDefault: true },
      },
      {
        type: 'site.draft_saved',
        stream: `draft-${siteId}`,
        data: { siteId, document: starterDraft('ada') },
      },
      { type: 'site.draft_saved', stream: `draft-${siteId}` },
    ]);
    assert.deepEqual(
      (await sites(t, ada)).map((s) => [
        s.siteId,
        s.draftRevision,
        (s as SiteView & { created: boolean }).created,
      ]),
      [[siteId, 2, true]],
    );
  });

  test('given an owner whose first builder call creates a site, when listing, then that site alone is listed, created, as the default', async () => {
    const { t, ada } = await twoPeople();
    const made = await t.when<SiteView>('svc.builder.create_site', { title: 'Ada Bakes' }, ada.principal);
    assert.deepEqual(
      (await sites(t, ada)).map((s) => [
        s.siteId,
        s.title,
        s.isDefault,
        (s as SiteView & { created: boolean }).created,
      ]),
      [[made.result.siteId, 'Ada Bakes', true, true]],
    );
    assert.equal(made.result.siteId, defaultSiteId(ids, ada.agentId));
  });

  test('given the default id, then it is an RFC 9562 version 8 UUID, the same for the same owner and different for another', () => {
    const a = defaultSiteId(ids, 'agent-a');
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(defaultSiteId(ids, 'agent-a'), a);
    assert.notEqual(defaultSiteId(ids, 'agent-b'), a);
  });

  test('given someone else’s targetAgentId, then agent.not_found and nothing is written', async () => {
    const { t, ada, bob } = await twoPeople();
    (await t.when('svc.builder.list_sites', { targetAgentId: bob.agentId }, ada.principal)).thenError(
      'agent.not_found',
    );
  });

  test('given a persona of the principal, when listing for it, then the persona has its own default site', async () => {
    const { t, ada } = await twoPeople();
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const list = await sites(t, ada, { targetAgentId: persona.agentId });
    assert.deepEqual(
      list.map((s) => [s.ownerAgentId, s.title, s.siteId]),
      [[persona.agentId, 'Cook', defaultSiteId(ids, persona.agentId)]],
    );
    assert.equal((await sites(t, ada)).length, 1, 'ada’s own list is her own default site only');
  });
});

describe('svc.builder.create_site', () => {
  test('given an owner without sites, when creating one, then it is their default site; the next is not, and the default stays first', async () => {
    const { t, ada } = await twoPeople();
    const first = (
      await t.when<SiteView>('svc.builder.create_site', { title: 'Soups' }, ada.principal)
    ).thenEvents([
      { type: 'site.created', data: { title: 'Soups', isDefault: true } },
      { type: 'site.draft_saved' },
    ]);
    assert.equal(first.siteId, defaultSiteId(ids, ada.agentId));
    const second = (
      await t.when<SiteView>('svc.builder.create_site', { title: 'Breads' }, ada.principal)
    ).thenEvents([
      { type: 'site.created', data: { title: 'Breads', isDefault: false } },
      { type: 'site.draft_saved' },
    ]);
    assert.notEqual(second.siteId, first.siteId);
    t.clock.advance(1000);
    const third = (await t.when<SiteView>('svc.builder.create_site', { title: 'Cakes' }, ada.principal))
      .result;
    assert.deepEqual(
      (await sites(t, ada)).map((s) => s.siteId),
      [first.siteId, second.siteId, third.siteId],
    );
  });

  test('given a title that is empty, too long or holds control characters, or an unknown field, then input.invalid', async () => {
    const { t, ada } = await twoPeople();
    for (const input of [
      { title: '  ' },
      { title: 'x'.repeat(121) },
      { title: 'a\u0000b' },
      { title: 'ok', colour: 'red' },
    ])
      (await t.when('svc.builder.create_site', input, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.builder.read_site and update_site', () => {
  test('given a site, when its owner updates settings, then only what changed is recorded and read back', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const [site] = await sites(t, ada);
    const updated = (
      await t.when<SiteView>(
        'svc.builder.update_site',
        { siteId: site!.siteId, title: 'Soups', theme: 'dark', language: 'fr-CA', description: 'Hot soups' },
        ada.principal,
      )
    ).thenEvents([
      {
        type: 'site.settings_updated',
        stream: `site-${site!.siteId}`,
        data: { title: 'Soups', theme: 'dark', language: 'fr-CA', description: 'Hot soups' },
      },
      // The starter's home page still called the site by its old title: it follows the rename.
      {
        type: 'site.draft_saved',
        stream: `draft-${site!.siteId}`,
        data: {
          siteId: site!.siteId,
          document: {
            schemaVersion: 1,
            pages: [{ path: '/', title: 'Soups', blocks: [{ type: 'heading', level: 1, text: 'Soups' }] }],
            navigation: { items: [] },
            footer: { markdown: '', links: [] },
          },
        },
      },
    ]);
    assert.deepEqual([updated.title, updated.theme, updated.language], ['Soups', 'dark', 'fr-CA']);
    // A home page the owner retitled is theirs: a second rename leaves it alone.
    const draft = (
      await t.when<{ revision: number; document: DraftDocument }>('svc.builder.read_draft', {}, ada.principal)
    ).result;
    const mine = structuredClone(draft.document);
    mine.pages[0]!.title = 'Welcome';
    mine.pages[0]!.blocks = [{ type: 'heading', level: 1, text: 'Welcome' }];
    (
      await t.when('svc.builder.save_draft', { revision: draft.revision, document: mine }, ada.principal)
    ).thenEvents([{ type: 'site.draft_saved', stream: `draft-${site!.siteId}` }]);
    (await t.when('svc.builder.update_site', { title: 'More soups' }, ada.principal)).thenEvents([
      { type: 'site.settings_updated', stream: `site-${site!.siteId}`, data: { title: 'More soups' } },
    ]);
    (await t.when('svc.builder.update_site', { theme: 'dark' }, ada.principal)).thenEvents([]);
    const read = (
      await t.when<{ site: SiteView; publication: unknown; versions: unknown[] }>(
        'svc.builder.read_site',
        {},
        ada.principal,
      )
    ).result;
    assert.equal(read.site.description, 'Hot soups');
    assert.equal(read.publication, null);
    assert.deepEqual(read.versions, []);
  });

  test('given an unknown theme or a malformed language, then input.invalid', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    for (const input of [{ theme: 'neon' }, { language: 'english!' }, { description: 'x'.repeat(501) }])
      (await t.when('svc.builder.update_site', input, ada.principal)).thenError('input.invalid');
  });

  test('given a social picture or favicon that is not a media item of hers, then builder.unknown_reference; null when none is set changes nothing', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const stranger = '0f0e0d0c-0000-4000-8000-000000000001';
    (await t.when('svc.builder.update_site', { socialImageId: stranger }, ada.principal)).thenError(
      'builder.unknown_reference',
    );
    (await t.when('svc.builder.update_site', { faviconId: stranger }, ada.principal)).thenError(
      'builder.unknown_reference',
    );
    (
      await t.when('svc.builder.update_site', { socialImageId: null, faviconId: null }, ada.principal)
    ).thenEvents([]);
  });

  test('given bob’s site, when ada names it in any site operation, then builder.site_not_found and nothing is written', async () => {
    const { t, ada, bob } = await twoPeople();
    const [bobs] = await sites(t, bob);
    await givenDefaultSite(t, ada);
    const siteId = bobs!.siteId;
    (await t.when('svc.builder.read_site', { siteId }, ada.principal)).thenError('builder.site_not_found');
    (await t.when('svc.builder.update_site', { siteId, title: 'Mine' }, ada.principal)).thenError(
      'builder.site_not_found',
    );
    (await t.when('svc.builder.read_draft', { siteId }, ada.principal)).thenError('builder.site_not_found');
    (
      await t.when(
        'svc.builder.save_draft',
        { siteId, revision: 1, document: starterDraft('Mine') },
        ada.principal,
      )
    ).thenError('builder.site_not_found');
    // A site that does not exist reads the same.
    (
      await t.when('svc.builder.read_site', { siteId: '0f8fad5b-d9cb-469f-a165-70867728950e' }, ada.principal)
    ).thenError('builder.site_not_found');
  });

  test('given published versions and a preview, when reading the site, then the published versions come newest first a page at a time, with the publication, and the preview is not listed', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const [site] = await sites(t, ada);
    const stream = `site-${site!.siteId}`;
    const hash = (n: number) => String(n).repeat(64);
    await t.given(
      ada.agentId,
      [1, 2, 3, 4, 5, 6].map((n) => ({
        stream,
        type: 'site.version_created',
        data: { versionId: `v${n}`, draftRevision: 1, manifestHash: hash(n), manifest: [] },
      })),
    );
    // v1…v5 were each published (v2 last, as a rollback would leave it); v6 was only previewed.
    const published = (n: number) => ({
      stream,
      type: 'site.published',
      data: {
        siteId: site!.siteId,
        ownerAgentId: ada.agentId,
        versionId: `v${n}`,
        manifestHash: hash(n),
        manifest: [],
        title: 'ada',
      },
    });
    await t.given(ada.agentId, [1, 3, 4, 5, 2].map(published));
    type Read = {
      publication: { versionId: string; manifestHash: string } | null;
      versions: { versionId: string }[];
      nextBefore: string | null;
    };
    const page1 = (await t.when<Read>('svc.builder.read_site', { limit: 2 }, ada.principal)).result;
    assert.deepEqual(
      page1.versions.map((v) => v.versionId),
      ['v5', 'v4'],
    );
    assert.equal(page1.nextBefore, 'v4');
    assert.deepEqual(page1.publication && [page1.publication.versionId, page1.publication.manifestHash], [
      'v2',
      hash(2),
    ]);
    const page2 = (await t.when<Read>('svc.builder.read_site', { limit: 2, before: 'v4' }, ada.principal))
      .result;
    assert.deepEqual(
      page2.versions.map((v) => v.versionId),
      ['v3', 'v2'],
    );
    const page3 = (await t.when<Read>('svc.builder.read_site', { limit: 2, before: 'v2' }, ada.principal))
      .result;
    assert.deepEqual([page3.versions.map((v) => v.versionId), page3.nextBefore], [['v1'], null]);
    (await t.when('svc.builder.read_site', { limit: 0 }, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.builder.read_draft and save_draft', () => {
  const richDraft = draftWith(
    [
      { type: 'heading', level: 1, text: 'Soups' },
      { type: 'text', markdown: 'Hot *soups*, see [the list](/menu) or [mail us](mailto:soup@example.org).' },
      { type: 'button', label: 'Order', url: 'https://example.org/order' },
      { type: 'links', items: [{ label: 'Menu', url: '/menu#today' }] },
      {
        type: 'columns',
        columns: [{ blocks: [{ type: 'text', markdown: '> A quote' }] }, { blocks: [{ type: 'divider' }] }],
      },
    ],
    {
      navigation: { items: [{ label: 'Menu', url: '/menu' }] },
      footer: { markdown: '© Soups, [home](https://example.org)', links: [] },
    },
  );

  test('given a new site, when reading its draft, then the starter draft at revision 1', async () => {
    const { t, ada } = await twoPeople();
    const draft = (
      await t.when<{ revision: number; document: DraftDocument }>('svc.builder.read_draft', {}, ada.principal)
    ).result;
    assert.equal(draft.revision, 1);
    assert.deepEqual(draft.document, starterDraft('ada'));
  });

  test('given a draft saved twice and undone once, when reading it at an earlier revision, then the document as it was then, and a revision it has not reached is builder.revision_not_found', async () => {
    const { t, ada } = await twoPeople();
    // Shown as it will be created: revision 1 only.
    const prospective = await t.when<{ revision: number; document: DraftDocument }>(
      'svc.builder.read_draft',
      { revision: 1 },
      ada.principal,
    );
    prospective.thenEvents([]);
    assert.deepEqual(prospective.result.document, starterDraft('ada'));
    (await t.when('svc.builder.read_draft', { revision: 2 }, ada.principal)).thenError(
      'builder.revision_not_found',
    );
    await givenDefaultSite(t, ada);
    const one = draftWith([{ type: 'text', markdown: 'One.' }]);
    const two = draftWith([{ type: 'text', markdown: 'Two.' }]);
    await t.when('svc.builder.save_draft', { revision: 1, document: one }, ada.principal);
    await t.when('svc.builder.save_draft', { revision: 2, document: two }, ada.principal);
    await t.when('svc.builder.undo_draft', { revision: 3 }, ada.principal);
    type Read = { revision: number; document: DraftDocument; updatedAt: string; canUndo: boolean };
    const at = async (revision: number) => {
      const r = await t.when<Read>('svc.builder.read_draft', { revision }, ada.principal);
      r.thenEvents([]);
      return r.result;
    };
    assert.deepEqual((await at(1)).document, starterDraft('ada'));
    assert.deepEqual(
      [(await at(2)).revision, (await at(2)).document.pages[0]!.blocks, (await at(2)).canUndo],
      [2, [{ type: 'text', markdown: 'One.' }], true],
    );
    assert.deepEqual((await at(3)).document.pages[0]!.blocks, [{ type: 'text', markdown: 'Two.' }]);
    // The undo's own revision holds revision 2's document again; the latest is the draft as it is now.
    const now = (await t.when<Read>('svc.builder.read_draft', {}, ada.principal)).result;
    assert.deepEqual(await at(4), now);
    assert.ok(Date.parse((await at(2)).updatedAt) <= Date.parse(now.updatedAt));
    (await t.when('svc.builder.read_draft', { revision: 5 }, ada.principal)).thenError(
      'builder.revision_not_found',
    );
    (await t.when('svc.builder.read_draft', { revision: 0 }, ada.principal)).thenError('input.invalid');
  });

  test('given three blocks saved, the second edited, then the footer, when reading the draft with lastChanged, then the second block (the footer save changed no block); without it, no lastChanged', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const blocks = (second: string) => [
      { type: 'text' as const, markdown: 'One.' },
      { type: 'text' as const, markdown: second },
      { type: 'text' as const, markdown: 'Three.' },
    ];
    const edited = draftWith(blocks('Two, edited.'));
    await t.when(
      'svc.builder.save_draft',
      { revision: 1, document: draftWith(blocks('Two.')) },
      ada.principal,
    );
    await t.when('svc.builder.save_draft', { revision: 2, document: edited }, ada.principal);
    await t.when(
      'svc.builder.save_draft',
      { revision: 3, document: { ...edited, footer: { markdown: 'New footer.' } } },
      ada.principal,
    );
    type Read = { revision: number; lastChanged?: Record<string, number> };
    const read = await t.when<Read>('svc.builder.read_draft', { lastChanged: true }, ada.principal);
    read.thenEvents([]);
    assert.deepEqual([read.result.revision, read.result.lastChanged], [4, { '/': 1 }]);
    // At revision 2 (the first save), its newest change is the whole page: the first block differs first.
    const atTwo = await t.when<Read>(
      'svc.builder.read_draft',
      { revision: 2, lastChanged: true },
      ada.principal,
    );
    assert.deepEqual(atTwo.result.lastChanged, { '/': 0 });
    const plain = await t.when<Read>('svc.builder.read_draft', {}, ada.principal);
    assert.equal(plain.result.lastChanged, undefined);
  });

  test('given a draft with undo and redo, when reading it with lastChanged (now and at an earlier revision), then its stream is read once for the steps and the saves looked back on', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const siteId = defaultSiteId(ids, ada.agentId);
    const text = (words: string) => ({ type: 'text' as const, markdown: words });
    await t.when(
      'svc.builder.save_draft',
      { revision: 1, document: draftWith([text('One.')]) },
      ada.principal,
    );
    await t.when(
      'svc.builder.save_draft',
      { revision: 2, document: draftWith([text('One.'), text('Two.')]) },
      ada.principal,
    );
    await t.when('svc.builder.undo_draft', { revision: 3 }, ada.principal);
    const reads = vi.spyOn(t.services.store, 'readStreams');
    const draftReads = () =>
      reads.mock.calls.filter(([streams]) => streams.includes(siteDraftStream(siteId))).length;
    type Read = {
      revision: number;
      canUndo: boolean;
      canRedo: boolean;
      lastChanged?: Record<string, number>;
    };
    try {
      const now = await t.when<Read>('svc.builder.read_draft', { lastChanged: true }, ada.principal);
      assert.deepEqual(
        [now.result.revision, now.result.canUndo, now.result.canRedo, now.result.lastChanged],
        [4, true, true, { '/': 0 }],
      );
      assert.equal(draftReads(), 1, 'one read of the draft stream');
      const earlier = await t.when<Read>(
        'svc.builder.read_draft',
        { revision: 3, lastChanged: true },
        ada.principal,
      );
      assert.deepEqual(
        [earlier.result.revision, earlier.result.canUndo, earlier.result.canRedo, earlier.result.lastChanged],
        [3, true, false, { '/': 1 }],
      );
      assert.equal(draftReads(), 2, 'one read of the draft stream for an earlier revision too');
    } finally {
      reads.mockRestore();
    }
  });

  test('given the draft at revision 1, when saving over 1, then revision 2; saving over 1 again is builder.draft_stale naming revision 2', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const saved = (
      await t.when<{ revision: number }>(
        'svc.builder.save_draft',
        { revision: 1, document: richDraft },
        ada.principal,
      )
    ).thenEvents([{ type: 'site.draft_saved' }]);
    assert.equal(saved.revision, 2);
    const read = (
      await t.when<{ revision: number; document: DraftDocument }>('svc.builder.read_draft', {}, ada.principal)
    ).result;
    assert.equal(read.revision, 2);
    assert.equal(read.document.footer.markdown, '© Soups, [home](https://example.org)');
    const stale = await t.when(
      'svc.builder.save_draft',
      { revision: 1, document: starterDraft('Lost') },
      ada.principal,
    );
    stale.thenError('builder.draft_stale');
    assert.deepEqual((stale.error as { details: unknown }).details, { currentRevision: 2 });
  });

  test('given an unknown block type, a missing home page or an unknown member, then input.invalid and nothing is written', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    for (const document of [
      draftWith([{ type: 'html', html: '<script>alert(1)</script>' }]),
      draftWith([{ type: 'heading', text: 'x', onclick: 'alert(1)' }]),
      { schemaVersion: 1, pages: [{ path: '/about', title: 'About', blocks: [] }] },
      { ...draftWith([]), schemaVersion: 2 },
    ])
      (await t.when('svc.builder.save_draft', { revision: 1, document }, ada.principal)).thenError(
        'input.invalid',
      );
  });

  test('given a javascript:, data:, vbscript: or protocol-relative URL in every URL field, then builder.link_invalid naming the field and the link', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const media = '0f8fad5b-d9cb-469f-a165-70867728950e';
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,<script>x</script>',
      'vbscript:x',
      '//evil.example',
    ]) {
      const cases: [unknown, string][] = [
        [draftWith([{ type: 'button', label: 'Go', url: bad }]), 'pages.0.blocks.0.url'],
        [draftWith([{ type: 'links', items: [{ label: 'Go', url: bad }] }]), 'pages.0.blocks.0.items.0.url'],
        [draftWith([{ type: 'image', mediaId: media, alt: 'a', link: bad }]), 'pages.0.blocks.0.link'],
        [draftWith([], { navigation: { items: [{ label: 'Go', url: bad }] } }), 'navigation.items.0.url'],
        [
          draftWith([], { footer: { markdown: '', links: [{ label: 'Go', url: bad }] } }),
          'footer.links.0.url',
        ],
      ];
      for (const [document, path] of cases) {
        const r = await t.when('svc.builder.save_draft', { revision: 1, document }, ada.principal);
        r.thenError('builder.link_invalid');
        const details = (r.error as { details: { path: string; value: string; links: unknown[] } }).details;
        assert.deepEqual(details, { path, value: bad, links: [{ path, value: bad }] }, bad);
      }
    }
  });

  test('given links typed as people type them (a bare email address, a bare www. address, spaces around), then they are saved repaired', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const document = draftWith(
      [
        {
          type: 'links',
          items: [
            { label: 'Write to us', url: 'ada@adasbakery.example' },
            { label: 'Our friends', url: 'www.example.com/bread' },
            { label: 'Map', url: '  https://www.openstreetmap.org/  ' },
            { label: 'Menu', url: '/menu' },
            { label: 'Mail', url: 'mailto:ada@adasbakery.example' },
          ],
        },
        { type: 'button', label: 'Write', url: ' ada+orders@adasbakery.example' },
      ],
      { navigation: { items: [{ label: 'Blog', url: 'WWW.Example.org' }] } },
    );
    (await t.when('svc.builder.save_draft', { revision: 1, document }, ada.principal)).thenEvents([
      { type: 'site.draft_saved' },
    ]);
    const saved = (await t.when<{ document: DraftDocument }>('svc.builder.read_draft', {}, ada.principal))
      .result.document;
    const blocks = saved.pages[0]!.blocks;
    assert.deepEqual(blocks[0]!.type === 'links' && blocks[0]!.items.map((i) => i.url), [
      'mailto:ada@adasbakery.example',
      'https://www.example.com/bread',
      'https://www.openstreetmap.org/',
      '/menu',
      'mailto:ada@adasbakery.example',
    ]);
    assert.equal(blocks[1]!.type === 'button' && blocks[1]!.url, 'mailto:ada+orders@adasbakery.example');
    assert.deepEqual(saved.navigation.items, [{ label: 'Blog', url: 'https://WWW.Example.org' }]);
  });

  test('given links that stay unsafe once repaired, then builder.link_invalid lists each with its place; with another problem too, input.invalid names them all', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const items = [
      { label: 'Map', url: 'https://www.openstreetmap.org/' },
      { label: 'Write to us', url: 'ada at adasbakery' },
      { label: 'Shop', url: 'adasbakery.example' },
    ];
    const r = await t.when(
      'svc.builder.save_draft',
      { revision: 1, document: draftWith([{ type: 'links', items }]) },
      ada.principal,
    );
    r.thenError('builder.link_invalid');
    assert.deepEqual((r.error as { details: unknown }).details, {
      path: 'pages.0.blocks.0.items.1.url',
      value: 'ada at adasbakery',
      links: [
        { path: 'pages.0.blocks.0.items.1.url', value: 'ada at adasbakery' },
        { path: 'pages.0.blocks.0.items.2.url', value: 'adasbakery.example' },
      ],
    });
    const mixed = await t.when(
      'svc.builder.save_draft',
      {
        revision: 1,
        document: draftWith([
          { type: 'links', items },
          { type: 'heading', text: 7 },
        ]),
      },
      ada.principal,
    );
    mixed.thenError('input.invalid');
    assert.deepEqual(
      (mixed.error as { details: { issues: { path: string }[] } }).details.issues.map((i) => i.path).sort(),
      [
        'document.pages.0.blocks.0.items.1.url',
        'document.pages.0.blocks.0.items.2.url',
        'document.pages.0.blocks.1.text',
      ],
    );
  });

  test('given Markdown with a javascript:/data: link (inline, autolink, entity-encoded, as an image) or raw HTML, then builder.unsafe_content naming the field', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const markdowns = [
      '[click](javascript:alert(1))',
      '[click](JAVASCRIPT:alert(1))',
      '[click](data:text/html;base64,PHNjcmlwdD4=)',
      '[click]( javascript:alert(1) )',
      '<javascript:alert(1)>',
      '[click](&#106;avascript:alert(1))',
      '![img](javascript:alert(1))',
      '<script>alert(1)</script>',
      'hello <img src=x onerror=alert(1)> there',
      '<a href="https://example.org">a</a>',
      '<!-- hidden -->',
    ];
    for (const markdown of markdowns) {
      const inBlock = await t.when(
        'svc.builder.save_draft',
        { revision: 1, document: draftWith([{ type: 'text', markdown }]) },
        ada.principal,
      );
      inBlock.thenError('builder.unsafe_content');
      assert.equal(
        (inBlock.error as { details: { path: string } }).details.path,
        'pages.0.blocks.0.markdown',
      );
      const inColumn = await t.when(
        'svc.builder.save_draft',
        {
          revision: 1,
          document: draftWith([
            { type: 'columns', columns: [{ blocks: [] }, { blocks: [{ type: 'text', markdown }] }] },
          ]),
        },
        ada.principal,
      );
      inColumn.thenError('builder.unsafe_content');
      const inFooter = await t.when(
        'svc.builder.save_draft',
        { revision: 1, document: draftWith([], { footer: { markdown, links: [] } }) },
        ada.principal,
      );
      inFooter.thenError('builder.unsafe_content');
      assert.equal((inFooter.error as { details: { path: string } }).details.path, 'footer.markdown');
    }
  });

  test('given markup in a plain-text field, then builder.unsafe_content; a lone < in text is fine', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    for (const document of [
      draftWith([{ type: 'heading', text: '<script>alert(1)</script>' }]),
      draftWith([{ type: 'button', label: '<img src=x onerror=alert(1)>', url: '/' }]),
      { schemaVersion: 1, pages: [{ path: '/', title: '</title><script>x</script>', blocks: [] }] },
    ])
      (await t.when('svc.builder.save_draft', { revision: 1, document }, ada.principal)).thenError(
        'builder.unsafe_content',
      );
    (
      await t.when(
        'svc.builder.save_draft',
        { revision: 1, document: draftWith([{ type: 'heading', text: 'a < b, 1 <3 soup' }]) },
        ada.principal,
      )
    ).thenEvents([{ type: 'site.draft_saved' }]);
  });

  test('given a draft over the byte limit (each count within its own), then builder.draft_too_large and nothing is written', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const big = 'x'.repeat(DRAFT_LIMITS.markdownChars);
    const blocks = Array.from({ length: Math.ceil(DRAFT_LIMITS.bytes / big.length) + 1 }, () => ({
      type: 'text',
      markdown: big,
    }));
    (
      await t.when('svc.builder.save_draft', { revision: 1, document: draftWith(blocks) }, ada.principal)
    ).thenError('builder.draft_too_large');
  });

  test('given counts over DRAFT_LIMITS (pages, blocks), then input.invalid', async () => {
    const { t, ada } = await twoPeople();
    await givenDefaultSite(t, ada);
    const pages = Array.from({ length: DRAFT_LIMITS.pages + 1 }, (_, i) => ({
      path: i === 0 ? '/' : `/p${i}`,
      title: 'P',
      blocks: [],
    }));
    (
      await t.when(
        'svc.builder.save_draft',
        { revision: 1, document: { schemaVersion: 1, pages } },
        ada.principal,
      )
    ).thenError('input.invalid');
    const blocks = Array.from({ length: DRAFT_LIMITS.blocksPerPage + 1 }, () => ({ type: 'divider' }));
    (
      await t.when('svc.builder.save_draft', { revision: 1, document: draftWith(blocks) }, ada.principal)
    ).thenError('input.invalid');
  });
});
