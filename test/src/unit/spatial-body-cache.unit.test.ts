// The serialized-body cache of GET /wow/spatial/<id>: one load for a burst of readers, readers never wait
// on a freshness check, a changed world replaces the body, a graph no longer public is dropped.
import { createSpatialBodyCache, SPATIAL_BODY_CHECK_MS } from '@tributary/adapters';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const tick = () => new Promise((r) => setImmediate(r));

function fakeSource() {
  const s = {
    revision: 1,
    updatedAt: '2026-01-01T00:00:00.000Z',
    public: true,
    loads: 0,
    checks: 0,
    async load(id: string) {
      s.loads += 1;
      await tick();
      return {
        text: JSON.stringify({ id, revision: s.revision }),
        revision: s.revision,
        updatedAt: s.updatedAt,
      };
    },
    async version() {
      s.checks += 1;
      await tick();
      return s.public ? s.updatedAt : null;
    },
  };
  return s;
}

describe('the spatial body cache', () => {
  test('given a burst of readers of an uncached graph, then it is loaded once', async () => {
    const source = fakeSource();
    const cache = createSpatialBodyCache(source, () => 0);
    const bodies = await Promise.all(Array.from({ length: 10 }, () => cache.get('g')));
    assert.equal(source.loads, 1);
    assert.ok(bodies.every((b) => b === bodies[0]));
    assert.equal(JSON.parse(bodies[0]!.body.toString()).revision, 1);
  });

  test('given a body older than the interval, then it is served at once and replaced after a check finds a change', async () => {
    const source = fakeSource();
    let now = 0;
    const cache = createSpatialBodyCache(source, () => now);
    const first = await cache.get('g');
    source.revision = 2;
    source.updatedAt = '2026-01-01T00:00:01.000Z';
    // Within the interval: no check, the same body.
    assert.equal(await cache.get('g'), first);
    assert.equal(source.checks, 0);
    now = SPATIAL_BODY_CHECK_MS;
    // Due: served as it was while one check runs.
    assert.equal(await cache.get('g'), first);
    assert.equal(await cache.get('g'), first);
    for (let i = 0; i < 5; i++) await tick();
    assert.equal(source.checks, 1);
    const second = await cache.get('g');
    assert.notEqual(second.etag, first.etag);
    assert.equal(JSON.parse(second.body.toString()).revision, 2);
  });

  test('given a graph no longer public, then the check drops it and the next reader loads (and gets the route’s error)', async () => {
    const source = fakeSource();
    let now = 0;
    const cache = createSpatialBodyCache(source, () => now);
    await cache.get('g');
    source.public = false;
    now = SPATIAL_BODY_CHECK_MS;
    assert.ok(cache.peek('g'));
    for (let i = 0; i < 5; i++) await tick();
    assert.equal(cache.peek('g'), undefined);
    await cache.get('g');
    assert.equal(source.loads, 2);
  });
});
