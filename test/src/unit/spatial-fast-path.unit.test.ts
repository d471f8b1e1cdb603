// The fast path of GET /wow/spatial/<id> in front of the application: it answers only a cached graph to a
// client within its limit, with the route's headers; everything else falls through to the app.
import { createSpatialBodyCache, createWowFastPath } from '@tributary/adapters';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';

const CACHED = '0f8fad5b-d9cb-469f-a165-70867728950e';
const NOT_CACHED = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('the /wow/spatial fast path', () => {
  let server: http.Server;
  let url: string;
  let allowed = true;
  const bodies = createSpatialBodyCache(
    {
      load: async (id) => ({
        text: JSON.stringify({ id }),
        revision: 3,
        updatedAt: '2026-01-01T00:00:00.000Z',
      }),
      version: async () => '2026-01-01T00:00:00.000Z',
    },
    () => 0,
  );
  beforeAll(async () => {
    await bodies.get(CACHED);
    const fast = createWowFastPath({
      bodies,
      limiter: { take: () => (allowed ? 0 : 5) },
      trustProxy: () => false,
    });
    server = http.createServer((req, res) => {
      if (!fast(req, res)) res.writeHead(418).end('app');
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('given a cached graph, then it is answered with the route’s headers, 304 on its ETag, no body to HEAD', async () => {
    const r = await fetch(`${url}/wow/spatial/${CACHED}`);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { id: CACHED });
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.equal(r.headers.get('cache-control'), 'public, max-age=10');
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const etag = r.headers.get('etag')!;
    assert.match(etag, new RegExp(`^"${CACHED}-3-`));
    assert.equal(
      (await fetch(`${url}/wow/spatial/${CACHED}`, { headers: { 'if-none-match': etag } })).status,
      304,
    );
    const head = await fetch(`${url}/wow/spatial/${CACHED}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  test('given anything else, then the app answers: not cached, another path or method, a query, over the limit', async () => {
    for (const path of [
      `/wow/spatial/${NOT_CACHED}`,
      `/wow/spatial/${CACHED}/node/a`,
      `/wow/spatial/${CACHED}?x=1`,
      '/wow/world',
    ])
      assert.equal((await fetch(url + path)).status, 418, path);
    assert.equal((await fetch(`${url}/wow/spatial/${CACHED}`, { method: 'POST' })).status, 418);
    allowed = false;
    assert.equal((await fetch(`${url}/wow/spatial/${CACHED}`)).status, 418);
    allowed = true;
  });
});
