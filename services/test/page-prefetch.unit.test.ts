// Pulled pages fetched ahead (page-prefetch.ts): a page is used only by the pull that starts exactly where
// it starts, from the same peer address, once, while fresh.
import { createPagePrefetch } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const URL_A = 'https://a.example';

describe('pages fetched ahead', () => {
  test('given a page asked for after 500, when the pull at 500 takes it, then it gets that page, and only once', async () => {
    const prefetch = createPagePrefetch(30_000);
    let fetches = 0;
    prefetch.start('peer-a', URL_A, 500, 1_000, async () => `page ${++fetches}`);
    const taken = prefetch.take('peer-a', URL_A, 500, 2_000);
    assert.ok(taken);
    assert.equal(await taken, 'page 1');
    assert.equal(prefetch.take('peer-a', URL_A, 500, 2_000), undefined, 'given out once');
    assert.equal(fetches, 1);
  });

  test('given a page asked for after 500, when the cursor stands elsewhere or the peer moved, then it is dropped', () => {
    const prefetch = createPagePrefetch(30_000);
    prefetch.start('peer-a', URL_A, 500, 0, async () => 'after 500');
    assert.equal(prefetch.take('peer-a', URL_A, 400, 0), undefined, 'the import failed: the cursor stayed');
    assert.equal(prefetch.take('peer-a', URL_A, 500, 0), undefined, 'and the page is gone, not kept');

    prefetch.start('peer-a', URL_A, 500, 0, async () => 'after 500');
    assert.equal(prefetch.take('peer-a', 'https://a2.example', 500, 0), undefined, 'another base URL');
    prefetch.start('peer-a', URL_A, 500, 0, async () => 'after 500');
    assert.equal(prefetch.take('peer-b', URL_A, 500, 0), undefined, 'another peer');
  });

  test('given a page older than the limit, when its pull comes, then it is not used, and stale pages of other peers go too', () => {
    const prefetch = createPagePrefetch(30_000);
    prefetch.start('peer-a', URL_A, 500, 0, async () => 'old');
    prefetch.start('peer-b', URL_A, 7, 0, async () => 'old too');
    assert.equal(prefetch.take('peer-a', URL_A, 500, 30_001), undefined);
    assert.equal(prefetch.take('peer-b', URL_A, 7, 0), undefined, 'swept by the other peer’s pull');
  });

  test('given a newer page asked for, then it replaces the one held', async () => {
    const prefetch = createPagePrefetch(30_000);
    prefetch.start('peer-a', URL_A, 500, 0, async () => 'after 500');
    prefetch.start('peer-a', URL_A, 1000, 0, async () => 'after 1000');
    assert.equal(prefetch.take('peer-a', URL_A, 500, 0), undefined);
    prefetch.start('peer-a', URL_A, 1000, 0, async () => 'after 1000');
    assert.equal(await prefetch.take('peer-a', URL_A, 1000, 0), 'after 1000');
  });

  test('given a fetch that fails while nobody waits, then nothing is left unhandled, and the taker sees the failure', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const prefetch = createPagePrefetch(30_000);
      prefetch.start('peer-a', URL_A, 500, 0, async () => {
        throw new Error('peer unreachable');
      });
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(unhandled, []);
      await assert.rejects(prefetch.take('peer-a', URL_A, 500, 0)!, /peer unreachable/);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
