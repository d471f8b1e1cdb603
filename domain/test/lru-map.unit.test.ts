// The LruMap that bounds what a process keeps per peer or per key (docs/scaling.md#a-thousand-peers).
import { LruMap } from '@tributary/domain';
import assert from 'node:assert/strict';
import { test } from 'vitest';

test('given an LruMap of 3, when a thousand keys are set, then it holds the last 3 only', () => {
  const m = new LruMap<string, number>(3);
  for (let i = 0; i < 1000; i++) m.set(`peer-${i}`, i);
  assert.equal(m.size, 3);
  assert.deepEqual(
    ['peer-996', 'peer-997', 'peer-998', 'peer-999'].map((k) => m.get(k)),
    [undefined, 997, 998, 999],
  );
});

test('given a full LruMap, when an old key is read before a new one is set, then the least recently used goes instead', () => {
  const m = new LruMap<string, number>(2);
  m.set('a', 1).set('b', 2);
  assert.equal(m.get('a'), 1);
  m.set('c', 3);
  assert.deepEqual([m.has('a'), m.has('b'), m.has('c')], [true, false, true]);
});

test('given getOrSet, when a key is asked twice, then it is made once, and again only after it was dropped', () => {
  const m = new LruMap<string, object>(1);
  let made = 0;
  const make = () => ({ n: ++made });
  const first = m.getOrSet('k', make);
  assert.equal(m.getOrSet('k', make), first);
  m.getOrSet('other', make);
  assert.notEqual(m.getOrSet('k', make), first);
  assert.equal(made, 3);
});

test('given a bound below one, when an LruMap is made, then it is refused', () => {
  assert.throws(() => new LruMap(0), RangeError);
});
