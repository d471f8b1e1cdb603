// The home page's recent events as lines for a person (docs/web.md#home-events): consecutive events of
// one kind, by one agent, about one site, form or stream, are one line saying how many; the renders behind
// previews and publishes are left out; a site or form the reader knows is named.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { eventLines, lineSentence } from '../src/web/event-words.js';

const SITE = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const FORM = '33333333-3333-4333-8333-333333333333';
const ADA = 'agent-ada';
let sequence = 100;
const ev = (type: string, o: { stream?: string; data?: Record<string, unknown>; actorId?: string } = {}) => ({
  sequence: sequence--,
  event: {
    type,
    actorId: o.actorId ?? ADA,
    stream: o.stream ?? `site-${SITE}`,
    occurredAt: '2026-12-06T19:30:00Z',
    data: o.data ?? {},
  },
});
const titles = new Map([
  [SITE, 'Ada’s Bakery'],
  [OTHER, 'Ada’s Catering'],
]);
const words = (events: ReturnType<typeof ev>[], hasMore = false) =>
  eventLines(events, hasMore).map((l) =>
    lineSentence(l, {
      siteTitle: (id) => titles.get(id),
      formName: (id) => (id === FORM ? 'Contact' : undefined),
    }),
  );

describe('recent events as lines', () => {
  test('given six draft saves with renders between them, then one line naming the site, the renders left out', () => {
    const saves = Array.from({ length: 6 }, () => [
      ev('site.draft_saved', { stream: `draft-${SITE}`, data: { siteId: SITE } }),
      ev('site.version_created', { data: { versionId: 'v' } }),
    ]).flat();
    assert.deepEqual(words(saves), ['The draft of ‘Ada’s Bakery’ was saved 6 times']);
  });

  test('given saves of two sites, or by two agents, then a line each', () => {
    const events = [
      ev('site.draft_saved', { stream: `draft-${SITE}`, data: { siteId: SITE } }),
      ev('site.draft_saved', { stream: `draft-${OTHER}`, data: { siteId: OTHER } }),
      ev('site.draft_saved', { stream: `draft-${OTHER}`, data: { siteId: OTHER }, actorId: 'agent-persona' }),
    ];
    assert.deepEqual(words(events), [
      'The draft of ‘Ada’s Bakery’ was saved',
      'The draft of ‘Ada’s Catering’ was saved',
      'The draft of ‘Ada’s Catering’ was saved',
    ]);
  });

  test('given events apart, then they stay apart: only a run is one line', () => {
    const save = () => ev('site.draft_saved', { stream: `draft-${SITE}`, data: { siteId: SITE } });
    const events = [save(), ev('site.published', { data: { siteId: SITE } }), save(), save()];
    assert.deepEqual(words(events), [
      'The draft of ‘Ada’s Bakery’ was saved',
      '‘Ada’s Bakery’ was published',
      'The draft of ‘Ada’s Bakery’ was saved twice',
    ]);
  });

  test('given a form and a submission, then both are named; a site not known keeps the general sentence', () => {
    const events = [
      ev('form.submission_received', { stream: 'submission-x', data: { formId: FORM, siteId: SITE } }),
      ev('form.created', { stream: `form-${FORM}`, data: { formId: FORM } }),
      ev('site.published', { data: { siteId: '44444444-4444-4444-8444-444444444444' } }),
    ];
    assert.deepEqual(words(events), [
      'Someone sent the form ‘Contact’ on ‘Ada’s Bakery’',
      'The form ‘Contact’ was made',
      'A site was published',
    ]);
  });

  test('given a run at the end of a read that has more, then it says "at least"', () => {
    const events = [
      ev('agent.profile_updated', { stream: 'agent-ada' }),
      ev('agent.profile_updated', { stream: 'agent-ada' }),
    ];
    assert.deepEqual(words(events, true), ['A name or profile was changed at least twice']);
    assert.deepEqual(words(events, false), ['A name or profile was changed twice']);
  });
});
