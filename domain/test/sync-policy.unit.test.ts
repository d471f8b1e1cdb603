import { pullMayReplayHistory, retryDelayMs, SYNC_BACKOFF_CAP_MS } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const day = 24 * 60 * 60 * 1000;

describe('sync backoff', () => {
  test('given consecutive failures, when the delay is computed, then it doubles from the base', () => {
    const policy = { baseMs: 1000 };
    // random = 1 gives the nominal delay, random = 0 half of it.
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => retryDelayMs(n, 1, policy)),
      [1000, 2000, 4000, 8000],
    );
    assert.equal(retryDelayMs(3, 0, policy), 2000);
  });

  test('given jitter, then every delay lies between half the nominal delay and the nominal delay', () => {
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(5, Math.random(), { baseMs: 1000 });
      assert.ok(d >= 8000 && d <= 16000, String(d));
    }
  });

  test('given very many failures, then the delay is capped at a week, never more', () => {
    assert.equal(retryDelayMs(1000, 1, { baseMs: 1000 }), SYNC_BACKOFF_CAP_MS);
    assert.equal(SYNC_BACKOFF_CAP_MS, 7 * day);
    assert.equal(retryDelayMs(1000, 1, { baseMs: 1000, capMs: 60_000 }), 60_000);
    assert.equal(retryDelayMs(3, 1, { baseMs: 1000, capMs: 30 * day }), 4000);
    assert.equal(retryDelayMs(1000, 1, { baseMs: 1000, capMs: 30 * day }), SYNC_BACKOFF_CAP_MS);
  });
});

describe('historical replay on pull', () => {
  const now = new Date('2026-06-10T00:00:00Z');
  test('given a pull that never succeeded, then history may be replayed (first contact)', () => {
    assert.equal(pullMayReplayHistory(null, now), true);
  });
  test('given a last success 6 days ago, then the pull stays strict', () => {
    assert.equal(pullMayReplayHistory(new Date(now.getTime() - 6 * day), now), false);
  });
  test('given exactly 7 days, then it stays strict; given more than 7 days, then history may be replayed', () => {
    assert.equal(pullMayReplayHistory(new Date(now.getTime() - 7 * day), now), false);
    assert.equal(pullMayReplayHistory(new Date(now.getTime() - 8 * day), now), true);
  });
});
