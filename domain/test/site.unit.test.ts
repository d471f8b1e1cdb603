// The site and draft aggregates and the core builder deciders, given/when/then.
import {
  decideCreateSite,
  decideSaveDraft,
  decideUpdateSiteSettings,
  DRAFT_LIMITS,
  fold,
  initialSiteState,
  requireDraftWithinBytes,
  siteDraftStream,
  siteStream,
  starterDraft,
  type DraftState,
  type NewEvent,
  type SiteState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const SITE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OWNER = 'owner-1';

/** The events as a stream would store them: versions 1..n. */
const stored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const created = () =>
  decideCreateSite(
    { siteId: SITE, ownerAgentId: OWNER, title: 'Soups', isDefault: true },
    initialSiteState(),
  );
const siteState = (more: NewEvent[] = []): SiteState =>
  fold(siteStream(SITE), stored([...created().filter((e) => e.stream === siteStream(SITE)), ...more]));
const draftState = (saves = 0): DraftState =>
  fold(
    siteDraftStream(SITE),
    stored([
      ...created().filter((e) => e.stream === siteDraftStream(SITE)),
      ...Array.from({ length: saves }, () => ({
        stream: siteDraftStream(SITE),
        type: 'site.draft_saved',
        data: { siteId: SITE, document: starterDraft('Again') },
      })),
    ]),
  );

describe('creating a site', () => {
  test('given no site, when creating one, then the site and its starter draft are created on their own streams', () => {
    const events = created();
    assert.deepEqual(
      events.map((e) => [e.stream, e.type]),
      [
        [siteStream(SITE), 'site.created'],
        [siteDraftStream(SITE), 'site.draft_saved'],
      ],
    );
    assert.deepEqual(events[0]!.data, { siteId: SITE, ownerAgentId: OWNER, title: 'Soups', isDefault: true });
    assert.deepEqual((events[1]!.data as { document: unknown }).document, starterDraft('Soups'));
  });

  test('given the site exists, when its owner creates it again, then nothing is decided (the default site on demand is idempotent)', () => {
    assert.deepEqual(
      decideCreateSite({ siteId: SITE, ownerAgentId: OWNER, title: 'Other', isDefault: true }, siteState()),
      [],
    );
  });

  test('given the site exists under another owner, when someone else creates it, then builder.site_not_found', () => {
    assert.equal(
      codeOf(() =>
        decideCreateSite(
          { siteId: SITE, ownerAgentId: 'intruder', title: 'x', isDefault: true },
          siteState(),
        ),
      ),
      'builder.site_not_found',
    );
  });

  test('given the events, then the folded site has the defaults and the draft is at revision 1', () => {
    const s = siteState();
    assert.equal(s.exists, true);
    assert.equal(s.title, 'Soups');
    assert.equal(s.theme, 'classic');
    assert.equal(s.language, 'en');
    assert.deepEqual(s.versions, []);
    assert.equal(draftState().revision, 1);
  });
});

describe('site settings', () => {
  test('given a site, when its owner changes the title and theme, then only what changed is recorded', () => {
    const events = decideUpdateSiteSettings(
      { ownerAgentId: OWNER, title: 'Soups', theme: 'dark', language: 'fr' },
      siteState(),
    );
    assert.deepEqual(events, [
      { stream: siteStream(SITE), type: 'site.settings_updated', data: { theme: 'dark', language: 'fr' } },
    ]);
    const after = siteState(events);
    assert.equal(after.theme, 'dark');
    assert.equal(after.language, 'fr');
    assert.equal(after.title, 'Soups');
  });

  test('given a site, when nothing changes, then no event', () => {
    assert.deepEqual(decideUpdateSiteSettings({ ownerAgentId: OWNER, title: 'Soups' }, siteState()), []);
  });

  test('given someone else’s site or none, when updating it, then builder.site_not_found', () => {
    assert.equal(
      codeOf(() => decideUpdateSiteSettings({ ownerAgentId: 'intruder', title: 'x' }, siteState())),
      'builder.site_not_found',
    );
    assert.equal(
      codeOf(() => decideUpdateSiteSettings({ ownerAgentId: OWNER, title: 'x' }, initialSiteState())),
      'builder.site_not_found',
    );
  });
});

describe('saving a draft', () => {
  const doc = starterDraft('New');

  test('given the draft at revision 1, when saving over revision 1, then a new draft is saved on the draft stream', () => {
    const events = decideSaveDraft(
      { ownerAgentId: OWNER, revision: 1, document: doc },
      { site: siteState(), draft: draftState() },
    );
    assert.deepEqual(events, [
      { stream: siteDraftStream(SITE), type: 'site.draft_saved', data: { siteId: SITE, document: doc } },
    ]);
  });

  test('given the draft moved to revision 3, when saving over revision 1, then builder.draft_stale with the current revision', () => {
    try {
      decideSaveDraft(
        { ownerAgentId: OWNER, revision: 1, document: doc },
        { site: siteState(), draft: draftState(2) },
      );
      assert.fail('a stale revision was accepted');
    } catch (e) {
      assert.equal((e as { code: string }).code, 'builder.draft_stale');
      assert.deepEqual((e as { details: unknown }).details, { currentRevision: 3 });
    }
  });

  test('given someone else’s site, when saving its draft, then builder.site_not_found', () => {
    assert.equal(
      codeOf(() =>
        decideSaveDraft(
          { ownerAgentId: 'intruder', revision: 1, document: doc },
          { site: siteState(), draft: draftState() },
        ),
      ),
      'builder.site_not_found',
    );
  });

  test('given a draft over the byte limit, then builder.draft_too_large; at the limit, accepted', () => {
    assert.equal(
      codeOf(() => requireDraftWithinBytes(DRAFT_LIMITS.bytes + 1)),
      'builder.draft_too_large',
    );
    assert.equal(
      codeOf(() => requireDraftWithinBytes(DRAFT_LIMITS.bytes)),
      'no error',
    );
  });
});

describe('versions and the publication pointer', () => {
  const version = (versionId: string, draftRevision: number): NewEvent => ({
    stream: siteStream(SITE),
    type: 'site.version_created',
    data: { versionId, draftRevision, manifestHash: 'a'.repeat(64), manifest: [] },
  });
  const pointer = (type: string, versionId: string): NewEvent => ({
    stream: siteStream(SITE),
    type,
    data: { siteId: SITE, ownerAgentId: OWNER, versionId, manifestHash: 'a'.repeat(64), manifest: [] },
  });

  test('given versions published, rolled back, suspended and lifted, then the fold keeps every version and follows the pointer', () => {
    const s = siteState([
      version('v1', 1),
      pointer('site.published', 'v1'),
      version('v2', 2),
      pointer('site.published', 'v2'),
      { ...pointer('site.rolled_back', 'v1'), data: { ...pointer('', 'v1').data, fromVersionId: 'v2' } },
      { stream: siteStream(SITE), type: 'site.suspended', data: { siteId: SITE, reason: 'spam' } },
    ]);
    assert.deepEqual(
      s.versions.map((v) => v.versionId),
      ['v1', 'v2'],
    );
    assert.equal(s.publishedVersionId, 'v1');
    assert.equal(s.suspendedReason, 'spam');
    const lifted = siteState([
      { stream: siteStream(SITE), type: 'site.suspended', data: { siteId: SITE, reason: 'spam' } },
      { stream: siteStream(SITE), type: 'site.unsuspended', data: { siteId: SITE } },
    ]);
    assert.equal(lifted.suspendedReason, undefined);
  });
});
