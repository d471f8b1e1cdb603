// The form submission limiter: per key, a minute's and a day's count from the first of each window;
// a refusal counts nothing and says how long to wait; memory is bounded by forgetting the least
// recently seen key.
import { createSubmissionLimiter } from '@tributary/infra';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('the form submission limiter', () => {
  test('given the minute limit reached, then the next waits out the minute; another key is not held back', () => {
    const limiter = createSubmissionLimiter({ perMinute: 3, perDay: 100 });
    for (let i = 0; i < 3; i++) assert.equal(limiter.take('a', at(i * 1000)), 0);
    assert.equal(limiter.take('a', at(10_000)), 50);
    assert.equal(limiter.take('a', at(59_500)), 1);
    assert.equal(limiter.take('b', at(10_000)), 0);
    assert.equal(limiter.take('a', at(60_000)), 0, 'a new minute');
  });

  test('given the day limit reached over many minutes, then the next waits until the day from the first is over', () => {
    const limiter = createSubmissionLimiter({ perMinute: 2, perDay: 4 });
    for (let i = 0; i < 4; i++) assert.equal(limiter.take('a', at(i * 60_000)), 0);
    assert.equal(limiter.take('a', at(10 * 60_000)), 86_400 - 600);
    assert.equal(limiter.take('a', at(86_400_000)), 0, 'a new day');
  });

  test('given more keys than it holds, then the least recently seen is forgotten first', () => {
    const limiter = createSubmissionLimiter({ perMinute: 1, perDay: 10, maxKeys: 2 });
    assert.equal(limiter.take('a', at(0)), 0);
    assert.equal(limiter.take('b', at(1)), 0);
    assert.ok(limiter.take('a', at(2)) > 0, 'a is held back, and now the most recently seen');
    assert.equal(limiter.take('c', at(3)), 0, 'c pushes b out');
    assert.ok(limiter.take('a', at(4)) > 0, 'a is still counted');
    assert.equal(limiter.take('b', at(5)), 0, 'b was forgotten');
  });
});
