import { createStreamStateCache } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

describe('stream state cache', () => {
  test('given a held state, when it is read back, then it is the same state and version, frozen all the way down', () => {
    const cache = createStreamStateCache(10);
    cache.set('agent-a', { state: { exists: true, tags: ['x'] }, version: 3 });
    const held = cache.get('agent-a')!;
    assert.deepEqual(held, { state: { exists: true, tags: ['x'] }, version: 3 });
    assert.ok(Object.isFrozen(held.state));
    assert.throws(() => {
      (held.state as { tags: string[] }).tags.push('y');
    }, TypeError);
  });

  test('given a state held at version 5, when a slower command offers version 4, then version 5 stays', () => {
    const cache = createStreamStateCache(10);
    cache.set('agent-a', { state: { v: 5 }, version: 5 });
    cache.set('agent-a', { state: { v: 4 }, version: 4 });
    assert.equal(cache.get('agent-a')!.version, 5);
    cache.set('agent-a', { state: { v: 6 }, version: 6 });
    assert.deepEqual(cache.get('agent-a')!.state, { v: 6 });
  });

  test('given a full cache, when another stream is held, then the least recently used one goes', () => {
    const cache = createStreamStateCache(2);
    cache.set('a', { state: {}, version: 1 });
    cache.set('b', { state: {}, version: 1 });
    cache.get('a'); // a is now the most recently used
    cache.set('c', { state: {}, version: 1 });
    assert.ok(cache.get('a'));
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('c'));
  });

  test('given a size that is not a positive integer, when a cache is made, then it is refused', () => {
    assert.throws(() => createStreamStateCache(0));
    assert.throws(() => createStreamStateCache(1.5));
  });
});
