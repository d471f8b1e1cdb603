// Filling a log with signed events for tests and benchmarks: envelopes as the pipeline would build them,
// and batches of new agents appended straight through the event store.
import { agentStream, type UnsignedEnvelope } from '@tributary/domain';
import { nodeIds } from '@tributary/infra';
import type { AppendStream, Signer } from '@tributary/services';
import { randomUUID } from 'node:crypto';

/** An unsigned envelope of our own instance, as the pipeline's sealEvents would build it. */
export function unsignedEnvelope(
  signer: Signer,
  e: { stream: string; streamVersion: number; type: string; actorId: string; data: Record<string, unknown> },
): UnsignedEnvelope {
  return {
    v: 1,
    id: nodeIds.eventId(),
    type: e.type,
    origin: signer.origin,
    keyId: signer.keyId,
    stream: e.stream,
    streamVersion: e.streamVersion,
    actorId: e.actorId,
    occurredAt: new Date().toISOString(),
    nonce: nodeIds.nonce(),
    data: e.data,
  };
}

/** Appends (untimed) `count` `agent.created` events of new agents through `store`, 500 per transaction. */
export async function appendNewAgents(
  services: { signer: Signer; store: { append(streams: AppendStream[]): Promise<unknown> } },
  count: number,
  label = 'Log filler',
): Promise<void> {
  const { signer, store } = services;
  for (let done = 0; done < count;) {
    const n = Math.min(500, count - done);
    const streams: AppendStream[] = Array.from({ length: n }, (_, i) => {
      const agentId = randomUUID();
      const stream = agentStream(agentId);
      return {
        stream,
        expectedVersion: 0,
        envelopes: [
          signer.seal(
            unsignedEnvelope(signer, {
              stream,
              streamVersion: 1,
              type: 'agent.created',
              actorId: agentId,
              data: { agentId, kind: 'person', name: `${label} ${done + i}` },
            }),
          ),
        ],
      };
    });
    await store.append(streams);
    done += n;
  }
}
