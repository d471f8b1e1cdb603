// Suspension deciders, given/when/then: suspend, change the reason, lift; an unknown site is not found.
import {
  decideCreateSite,
  decideSuspendSite,
  decideUnsuspendSite,
  fold,
  initialSiteState,
  siteStream,
  suspensionReasonSchema,
  SUSPENSION_REASON_MAX_CHARS,
  type NewEvent,
  type SiteState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const SITE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const stored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const site = (more: NewEvent[] = []): SiteState =>
  fold(
    siteStream(SITE),
    stored([
      ...decideCreateSite(
        { siteId: SITE, ownerAgentId: 'owner', title: 'T', isDefault: false },
        initialSiteState(),
      ).filter((e) => e.stream === siteStream(SITE)),
      ...more,
    ]),
  );

describe('suspending a site', () => {
  test('given a site, when suspended, then site.suspended with the reason, folded into the state', () => {
    const events = decideSuspendSite({ reason: 'spam' }, site());
    assert.deepEqual(events, [
      { stream: siteStream(SITE), type: 'site.suspended', data: { siteId: SITE, reason: 'spam' } },
    ]);
    assert.equal(site(events).suspendedReason, 'spam');
  });

  test('given a suspended site, when suspended with the same reason, then nothing; with another, the new reason', () => {
    const suspended = decideSuspendSite({ reason: 'spam' }, site());
    assert.deepEqual(decideSuspendSite({ reason: 'spam' }, site(suspended)), []);
    const changed = decideSuspendSite({ reason: 'malware' }, site(suspended));
    assert.deepEqual(
      changed.map((e) => e.data),
      [{ siteId: SITE, reason: 'malware' }],
    );
    assert.equal(site([...suspended, ...changed]).suspendedReason, 'malware');
  });

  test('given a suspended site, when lifted, then site.unsuspended and no reason; lifted again, nothing', () => {
    const suspended = decideSuspendSite({ reason: 'spam' }, site());
    const lifted = decideUnsuspendSite(site(suspended));
    assert.deepEqual(lifted, [
      { stream: siteStream(SITE), type: 'site.unsuspended', data: { siteId: SITE } },
    ]);
    assert.equal(site([...suspended, ...lifted]).suspendedReason, undefined);
    assert.deepEqual(decideUnsuspendSite(site([...suspended, ...lifted])), []);
    assert.deepEqual(decideUnsuspendSite(site()), []);
  });

  test('given no site, then builder.site_not_found for both', () => {
    assert.equal(
      codeOf(() => decideSuspendSite({ reason: 'x' }, initialSiteState())),
      'builder.site_not_found',
    );
    assert.equal(
      codeOf(() => decideUnsuspendSite(initialSiteState())),
      'builder.site_not_found',
    );
  });

  test('given a reason, then it is one trimmed line of 1 to 500 characters', () => {
    assert.equal(suspensionReasonSchema.parse('  spam  '), 'spam');
    for (const bad of ['', '   ', 'a\nb', 'x'.repeat(SUSPENSION_REASON_MAX_CHARS + 1)])
      assert.equal(suspensionReasonSchema.safeParse(bad).success, false, JSON.stringify(bad));
  });
});
