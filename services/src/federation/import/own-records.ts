// Our own record of an import, sealed and signed to go in its transaction: the new bindings (one
// `agents.materialized` for the whole import, one per BINDINGS_PER_RECORD) and the origin's keys learned
// for it (docs/architecture.md#pipeline).
import { BINDINGS_PER_RECORD, bindingsStream, type NewEvent } from '@tributary/domain';
import { sealEvents } from '../../pipeline/seal-events.js';
import type { AppendStream } from '../../ports/event-store.js';
import type { FederationOperationServices } from '../federation-operation.js';
import type { AgentBinding } from '../ports/federation.js';
import type { OriginKeys } from '../relay.js';

export async function sealOwnRecords(
  services: FederationOperationServices,
  o: { origin: string; now: Date; primaryAgentId: string },
  learned: OriginKeys['learned'],
  newBindings: readonly AgentBinding[],
  /** The current versions of the local streams, as looked up under the lock. */
  versions: ReadonlyMap<string, number>,
): Promise<AppendStream[]> {
  const { origin } = o;
  const records: NewEvent[] = [];
  for (let i = 0; i < newBindings.length; i += BINDINGS_PER_RECORD)
    records.push({
      stream: bindingsStream(origin),
      type: 'agents.materialized',
      data: {
        origin,
        bindings: newBindings
          .slice(i, i + BINDINGS_PER_RECORD)
          .map((b) => ({ agentId: b.localAgentId, remoteAgentId: b.remoteAgentId })),
      },
    });
  const ownEvents: NewEvent[] = [...(learned ? [learned.event] : []), ...records];
  if (ownEvents.length === 0) return [];
  const expected = new Map([[bindingsStream(origin), versions.get(bindingsStream(origin)) ?? 0]]);
  if (learned) expected.set(learned.event.stream, learned.expectedVersion);
  return sealEvents(ownEvents, expected, {
    signer: services.signer,
    ids: services.ids,
    actorId: o.primaryAgentId,
    occurredAt: o.now.toISOString(),
  });
}
