// The per-address token bucket of the public surfaces (adapters/src/http/rate-limit.ts): `take` spends a
// request, `peek` answers what `take` would without spending (the webhook counts only refused deliveries).
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { createRateLimiter } from '../src/http/rate-limit.js';

describe('rate limiter', () => {
  test('given a budget of 3 a minute, when an address takes 3, then the 4th waits 20 s, another address does not, and 20 s later one more is allowed', () => {
    let now = 0;
    const limiter = createRateLimiter({ count: 3, perSeconds: 60 }, { now: () => now });
    assert.deepEqual(
      [1, 2, 3].map(() => limiter.take('a')),
      [0, 0, 0],
    );
    assert.equal(limiter.take('a'), 20);
    assert.equal(limiter.take('b'), 0);
    now += 20_000;
    assert.equal(limiter.take('a'), 0);
    assert.equal(limiter.take('a'), 20);
  });

  test('given peek, when asked any number of times, then it spends nothing and answers what take would', () => {
    let now = 0;
    const limiter = createRateLimiter({ count: 2, perSeconds: 60 }, { now: () => now });
    for (let i = 0; i < 10; i++) assert.equal(limiter.peek('a'), 0);
    assert.equal(limiter.take('a'), 0);
    assert.equal(limiter.take('a'), 0);
    assert.equal(limiter.peek('a'), 30);
    assert.equal(limiter.peek('a'), 30);
    now += 10_000;
    assert.equal(limiter.peek('a'), 20); // a third of a request refilled
    now += 20_000;
    assert.equal(limiter.peek('a'), 0);
    assert.equal(limiter.take('a'), 0);
  });

  test('given no limit (off), then take and peek always allow', () => {
    const limiter = createRateLimiter(null);
    for (let i = 0; i < 5; i++) assert.equal(limiter.take('a') + limiter.peek('a'), 0);
  });
});
