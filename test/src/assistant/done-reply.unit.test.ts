// What a confirmation did, in words and links (services/src/assistant/done-reply.ts): read off the
// steps' titles, statuses and own events, never tool ids or event counts.
import { doneReply } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const step = (n: number, title: string, status: string, events: { type: string; stream: string }[] = []) => ({
  step: n,
  title,
  status,
  errorCode: status === 'failed' ? 'agent.handle_taken' : null,
  events,
});

describe('the reply after a confirmation', () => {
  test('given steps that ran, then each is said in its words, with links to what was made or changed', () => {
    const r = doneReply([
      step(1, 'Create an identity named ‘Ada the baker’', 'ran', [
        { type: 'agent.created', stream: 'agent-a1' },
      ]),
      step(2, 'Serve the version published on 5 Dec at 14:02 (UTC) again on your site ‘Home’', 'ran', [
        { type: 'site.rolled_back', stream: 'site-s1' },
      ]),
    ]);
    assert.equal(
      r.text,
      'All 2 steps ran.\nCreated an identity named ‘Ada the baker’.\n' +
        'Served the version published on 5 Dec at 14:02 (UTC) again on your site ‘Home’.',
    );
    assert.deepEqual(r.links, [
      { label: 'Your identities', href: '/home#personas' },
      { label: 'Its versions and publishing', href: '/builder/sites/s1/publish' },
    ]);
    assert.doesNotMatch(r.text, /svc\.|event/);
  });

  test('given a failure, a skip and a cancellation, then each says so in words, and nothing links to what was not made', () => {
    const r = doneReply([
      step(1, 'Create an identity named ‘Ada’', 'failed'),
      step(2, 'Publish the current draft of your default site', 'skipped'),
      step(3, 'List your sites', 'cancelled'),
    ]);
    assert.deepEqual(
      r.lines.map((l) => l.text),
      [
        'Did not work: Create an identity named ‘Ada’ (agent.handle_taken). Nothing of it was written.',
        'Not run: Publish the current draft of your default site, because an earlier step did not work.',
        'Cancelled: List your sites.',
      ],
    );
    assert.equal(r.text.split('\n')[0], 'Not everything worked.');
    assert.deepEqual(r.links, []);
  });

  test('given a site published, then the reply links first to where it is live, or to giving it an address', () => {
    const published = [
      step(1, 'Publish the current draft of your default site', 'ran', [
        { type: 'site.published', stream: 'site-s1' },
      ]),
    ];
    const live = doneReply(
      published,
      new Map([['s1', { title: 'Home', url: 'http://ada.sites.localhost/' }]]),
    );
    assert.deepEqual(live.links[0], {
      label: 'Open ‘Home’ as visitors see it',
      href: 'http://ada.sites.localhost/',
      live: true,
    });
    const unaddressed = doneReply(published, new Map([['s1', { title: 'Home', url: null }]]));
    assert.deepEqual(unaddressed.links[0], {
      label: 'Give ‘Home’ an address, so people can visit it',
      href: '/builder/sites/s1/address',
    });
    assert.equal(
      unaddressed.links.some((l) => l.live),
      false,
    );
  });
});
