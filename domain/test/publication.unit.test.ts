// Versions and the publication pointer, given/when/then: a version per content, publishing moving the
// pointer once, rollback to any version of the same site, restore into the draft (kept for the site's
// history), and the refusals.
import {
  decideCreateSite,
  decidePublish,
  decideRestoreVersion,
  decideRollback,
  decideVersion,
  fold,
  initialSiteState,
  siteDraftStream,
  siteStream,
  starterDraft,
  type DraftDocument,
  type ManifestEntry,
  type NewEvent,
  type RenderedVersion,
  type SiteState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const SITE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OWNER = 'owner-1';

const manifest = (n: number): ManifestEntry[] => [
  { path: '/index.html', sha256: String(n).repeat(64).slice(0, 64), contentType: 'text/html', length: n },
];
const rendered = (n: number): RenderedVersion => ({
  versionId: `00000000-0000-8000-8000-00000000000${n}`,
  draftRevision: n,
  manifestHash: String(n).repeat(64).slice(0, 64),
  manifest: manifest(n),
});

/** The site stream after these events (the site's creation first). */
const siteAfter = (more: NewEvent[] = []): SiteState => {
  const created = decideCreateSite(
    { siteId: SITE, ownerAgentId: OWNER, title: 'Soups', isDefault: true },
    initialSiteState(),
  ).filter((e) => e.stream === siteStream(SITE));
  return fold(
    siteStream(SITE),
    [...created, ...more].map((e, i) => ({ ...e, streamVersion: i + 1 })),
  );
};
const publishEvents = (...ns: number[]): NewEvent[] => {
  const events: NewEvent[] = [];
  for (const n of ns)
    events.push(...decidePublish({ ownerAgentId: OWNER, rendered: rendered(n) }, siteAfter(events)).events);
  return events;
};
const suspended = {
  stream: siteStream(SITE),
  type: 'site.suspended',
  data: { siteId: SITE, reason: 'spam' },
};

describe('a version per content', () => {
  test('given no version with this hash, when deciding, then one site.version_created', () => {
    const d = decideVersion({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter());
    assert.equal(d.reused, false);
    assert.equal(d.versionId, rendered(1).versionId);
    assert.deepEqual(d.events, [
      {
        stream: siteStream(SITE),
        type: 'site.version_created',
        data: {
          versionId: rendered(1).versionId,
          draftRevision: 1,
          manifestHash: rendered(1).manifestHash,
          manifest: manifest(1),
        },
      },
    ]);
  });

  test('given a version with the same hash, when deciding, then it is reused and nothing is written', () => {
    const site = siteAfter(decideVersion({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter()).events);
    const d = decideVersion(
      { ownerAgentId: OWNER, rendered: { ...rendered(1), versionId: 'other', draftRevision: 9 } },
      site,
    );
    assert.deepEqual(d, { versionId: rendered(1).versionId, reused: true, events: [] });
  });

  test('given another owner, then site_not_found', () => {
    assert.equal(
      codeOf(() => decideVersion({ ownerAgentId: 'x', rendered: rendered(1) }, siteAfter())),
      'builder.site_not_found',
    );
  });
});

describe('publishing', () => {
  test('given a new content, when publishing, then the version and the pointer move in one decision', () => {
    const d = decidePublish({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter());
    assert.deepEqual(
      d.events.map((e) => e.type),
      ['site.version_created', 'site.published'],
    );
    assert.deepEqual(d.events[1]!.data, {
      siteId: SITE,
      ownerAgentId: OWNER,
      versionId: rendered(1).versionId,
      manifestHash: rendered(1).manifestHash,
      manifest: manifest(1),
      title: 'Soups',
    });
  });

  test('given the same content published, when publishing again, then nothing', () => {
    const site = siteAfter(publishEvents(1));
    assert.equal(site.publishedVersionId, rendered(1).versionId);
    assert.deepEqual(decidePublish({ ownerAgentId: OWNER, rendered: rendered(1) }, site).events, []);
  });

  test('given an older version’s content, when publishing, then only the pointer moves back to it', () => {
    const d = decidePublish({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter(publishEvents(1, 2)));
    assert.deepEqual(
      d.events.map((e) => e.type),
      ['site.published'],
    );
    assert.equal(d.reused, true);
  });

  test('given a note, when publishing, then site.publish_noted beside site.published; none when nothing changes', () => {
    const d = decidePublish(
      { ownerAgentId: OWNER, rendered: rendered(1), note: 'opening hours' },
      siteAfter(),
    );
    assert.deepEqual(
      d.events.map((e) => e.type),
      ['site.version_created', 'site.published', 'site.publish_noted'],
    );
    assert.deepEqual(d.events[2]!.data, { versionId: rendered(1).versionId, note: 'opening hours' });
    const again = decidePublish(
      { ownerAgentId: OWNER, rendered: rendered(1), note: 'x' },
      siteAfter(d.events),
    );
    assert.deepEqual(again.events, []);
  });

  test('given a suspended site, when publishing, then site_suspended', () => {
    assert.equal(
      codeOf(() => decidePublish({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter([suspended]))),
      'builder.site_suspended',
    );
  });
});

describe('rolling back', () => {
  const rollback = (n: number, site: SiteState) =>
    decideRollback(
      {
        ownerAgentId: OWNER,
        versionId: rendered(n).versionId,
        manifestHash: rendered(n).manifestHash,
        manifest: manifest(n),
      },
      site,
    );

  test('given three publishes, when rolling back to the first, then site.rolled_back from the third', () => {
    assert.deepEqual(rollback(1, siteAfter(publishEvents(1, 2, 3))), [
      {
        stream: siteStream(SITE),
        type: 'site.rolled_back',
        data: {
          siteId: SITE,
          ownerAgentId: OWNER,
          versionId: rendered(1).versionId,
          manifestHash: rendered(1).manifestHash,
          manifest: manifest(1),
          fromVersionId: rendered(3).versionId,
        },
      },
    ]);
  });

  test('given the version already served, then nothing', () => {
    assert.deepEqual(rollback(2, siteAfter(publishEvents(1, 2))), []);
  });

  test('given a version the site does not have, then version_not_found', () => {
    assert.equal(
      codeOf(() => rollback(3, siteAfter(publishEvents(1, 2)))),
      'builder.version_not_found',
    );
  });

  test('given a site never published, then not_published', () => {
    const site = siteAfter(decideVersion({ ownerAgentId: OWNER, rendered: rendered(1) }, siteAfter()).events);
    assert.equal(
      codeOf(() => rollback(1, site)),
      'builder.not_published',
    );
  });

  test('given a version that was only ever previewed, then version_not_published', () => {
    const previewed = decideVersion(
      { ownerAgentId: OWNER, rendered: rendered(3) },
      siteAfter(publishEvents(1)),
    );
    assert.equal(
      codeOf(() => rollback(3, siteAfter([...publishEvents(1), ...previewed.events]))),
      'builder.version_not_published',
    );
  });

  test('given a suspended site or another owner, then refused', () => {
    assert.equal(
      codeOf(() => rollback(1, siteAfter([...publishEvents(1, 2), suspended]))),
      'builder.site_suspended',
    );
    assert.equal(
      codeOf(() =>
        decideRollback(
          {
            ownerAgentId: 'x',
            versionId: rendered(1).versionId,
            manifestHash: rendered(1).manifestHash,
            manifest: manifest(1),
          },
          siteAfter(publishEvents(1, 2)),
        ),
      ),
      'builder.site_not_found',
    );
  });

  test('given a manifest that is not the version’s, then it is a bug, not a decision', () => {
    assert.throws(() =>
      decideRollback(
        {
          ownerAgentId: OWNER,
          versionId: rendered(1).versionId,
          manifestHash: rendered(2).manifestHash,
          manifest: manifest(2),
        },
        siteAfter(publishEvents(1, 2)),
      ),
    );
  });
});

describe('restoring into the draft', () => {
  const document = (words: string): DraftDocument => ({
    ...starterDraft('Soups'),
    pages: [{ path: '/', title: 'Soups', blocks: [{ type: 'text', markdown: words }] }],
  });
  const draft = { revision: 4, document: document('Leak soup'), undoTo: 3, redoTo: null };

  test('given a published version, when restoring it over the current revision, then the draft saved and site.version_restored for the history, in one decision', () => {
    const events = decideRestoreVersion(
      { ownerAgentId: OWNER, versionId: rendered(1).versionId, revision: 4, document: document('Leek soup') },
      { site: siteAfter(publishEvents(1, 2)), draft },
    );
    assert.deepEqual(events, [
      {
        stream: siteDraftStream(SITE),
        type: 'site.draft_saved',
        data: { siteId: SITE, document: document('Leek soup') },
      },
      {
        stream: siteStream(SITE),
        type: 'site.version_restored',
        data: { versionId: rendered(1).versionId, draftRevision: 5 },
      },
    ]);
  });

  test('given a draft that already holds the version, then nothing: no history line either', () => {
    const events = decideRestoreVersion(
      { ownerAgentId: OWNER, versionId: rendered(1).versionId, revision: 4, document: document('Leak soup') },
      { site: siteAfter(publishEvents(1, 2)), draft },
    );
    assert.deepEqual(events, []);
  });

  test('given a preview or a stale revision, then refused', () => {
    const previewed = decideVersion(
      { ownerAgentId: OWNER, rendered: rendered(3) },
      siteAfter(publishEvents(1)),
    ).events;
    const site = siteAfter([...publishEvents(1), ...previewed]);
    assert.equal(
      codeOf(() =>
        decideRestoreVersion(
          { ownerAgentId: OWNER, versionId: rendered(3).versionId, revision: 4, document: document('x') },
          { site, draft },
        ),
      ),
      'builder.version_not_published',
    );
    assert.equal(
      codeOf(() =>
        decideRestoreVersion(
          { ownerAgentId: OWNER, versionId: rendered(1).versionId, revision: 3, document: document('x') },
          { site, draft },
        ),
      ),
      'builder.draft_stale',
    );
  });
});
