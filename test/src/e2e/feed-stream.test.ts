// The feed route streams a large page as its rows arrive (several writes, chunked): the body must still
// be exactly the page's JSON text, with the stored envelope bytes inside.
import { readFeed } from '@tributary/services';
import { feedPageJson, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { v7 as uuidv7 } from 'uuid';

describe('the feed over HTTP, streamed', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'locale', INSTANCE_NAME: 'Stream' } });
    // 300 agents with long multi-byte names: a page of ~200 kB, far more than one write.
    const { signer, store } = instance.instance.services;
    const at = new Date().toISOString();
    const sealed = await signer.sealMany(
      Array.from({ length: 300 }, (_, i) => {
        const agentId = randomUUID();
        return {
          v: 1,
          id: uuidv7(),
          type: 'agent.created',
          origin: signer.origin,
          keyId: signer.keyId,
          stream: `agent-${agentId}`,
          streamVersion: 1,
          actorId: agentId,
          occurredAt: at,
          nonce: randomBytes(16).toString('base64url'),
          data: { agentId, kind: 'person', name: `Zoë ✓ 😀 ${i} `.repeat(20).trim() },
        };
      }),
    );
    await store.append(
      sealed.map((s) => ({ stream: s.envelope.stream, expectedVersion: 0, envelopes: [s] })),
    );
    await instance.instance.sequencer.drain();
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a page larger than one write, when read over HTTP, then the body is exactly the page JSON', async () => {
    const res = await fetch(`${instance.url}/api/federation/events?since=0&limit=500`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('transfer-encoding'), 'chunked');
    const body = await res.text();
    assert.ok(body.length > 150_000);
    const expected = feedPageJson(await readFeed(instance.instance.services, { since: 0, limit: 500 }));
    assert.equal(body, expected);
    const page = JSON.parse(body) as { events: unknown[]; hasMore: boolean };
    assert.ok(page.events.length >= 300);
    assert.equal(page.hasMore, false);
  });

  test('given a small page, when read over HTTP, then it is sent whole with its length', async () => {
    const res = await fetch(`${instance.url}/api/federation/events?since=0&limit=2`);
    assert.equal(res.status, 200);
    assert.ok(Number(res.headers.get('content-length')) > 0);
    const body = await res.text();
    assert.equal(body, feedPageJson(await readFeed(instance.instance.services, { since: 0, limit: 2 })));
  });
});
