import { chainRefusal, type Envelope } from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const event = (id: string, streamVersion: number): Envelope => ({
  v: 1,
  id,
  type: 'agent.profile_updated',
  origin: 'origin-1',
  keyId: 'ed25519:key',
  stream: 'agent-1',
  streamVersion,
  actorId: 'agent-1',
  occurredAt: '2026-06-10T00:00:00.000Z',
  nonce: 'nonce-nonce-nonce-nonce',
  data: { name: 'x' },
  sig: 'x'.repeat(86),
});

describe("an origin's stream stays a chain", () => {
  test('given nothing imported of the stream, when its first event arrives at any version, then it is accepted', () => {
    assert.equal(chainRefusal(event('a', 1), 0, undefined), null);
    assert.equal(chainRefusal(event('a', 3), 0, undefined), null);
  });

  test('given version 5 imported, when version 7 arrives (6 was private to the origin), then it is accepted', () => {
    assert.equal(chainRefusal(event('b', 7), 5, undefined), null);
  });

  test('given version 7 imported, when version 5 arrives, then it is refused federation.out_of_order with the head', () => {
    const refusal = chainRefusal(event('c', 5), 7, undefined);
    assert.equal(refusal?.code, 'federation.out_of_order');
    assert.deepEqual(refusal?.details, { stream: 'agent-1', streamVersion: 5, head: 7 });
  });

  test('given version 7 imported as event x, when another event arrives at version 7 (or at a lower one x holds), then it is refused federation.equivocation naming x', () => {
    const atHead = chainRefusal(event('y', 7), 7, 'x');
    assert.equal(atHead?.code, 'federation.equivocation');
    assert.deepEqual(atHead?.details, { stream: 'agent-1', streamVersion: 7, heldEventId: 'x' });
    assert.equal(chainRefusal(event('y', 4), 7, 'x')?.code, 'federation.equivocation');
  });

  test('given the head at 7, when an event arrives at version 7 with no known holder, then it is out of order, never accepted', () => {
    assert.equal(chainRefusal(event('z', 7), 7, undefined)?.code, 'federation.out_of_order');
  });
});
