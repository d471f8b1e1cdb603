// Signed envelopes for store-level tests, sealed by a real signer under the test log's origin.
import type { AppendStream, Signer } from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

export function envelopeMaker(signer: Signer, origin: string) {
  /** Seals one of our own events: a fresh id and nonce, our origin and key. */
  const sealed = (e: {
    stream: string;
    streamVersion: number;
    type: string;
    actorId: string;
    occurredAt: string;
    data: Record<string, unknown>;
  }) =>
    signer.seal({
      v: 1,
      id: uuidv7(),
      origin,
      keyId: signer.keyId,
      nonce: randomUUID().replace(/-/g, ''),
      ...e,
    });
  /** Signed events of a neutral type (`handle.claimed`, off the feed unless `type` says otherwise). */
  const envelopes = (
    stream: string,
    fromVersion: number,
    count: number,
    type = 'handle.claimed',
    actorId = origin,
  ): AppendStream => ({
    stream,
    expectedVersion: fromVersion,
    envelopes: Array.from({ length: count }, (_, i) =>
      sealed({
        type,
        stream,
        streamVersion: fromVersion + i + 1,
        actorId,
        occurredAt: new Date().toISOString(),
        data: type === 'handle.claimed' ? { handle: stream, agentId: origin } : {},
      }),
    ),
  });
  /** One signed event on an agent's own stream (`agent-<id>`), acted by that agent. */
  const agentEvent = (
    agentId: string,
    streamVersion: number,
    type: string,
    data: Record<string, unknown>,
    occurredAt: string,
  ) => sealed({ type, stream: `agent-${agentId}`, streamVersion, actorId: agentId, occurredAt, data });
  return { sealed, envelopes, agentEvent };
}
