// Under the origin's import lock, each new event in batch order: its key, if the batch announced it,
// must come from an announcement that was taken; it must extend its stream's chain; the agents it names
// must be the origin's. An event that passes moves its chain on and binds its agents, so the events
// after it are judged against it.
import { DomainError } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import type { ImportLookup, ImportTransaction } from '../ports/federation.js';
import { agentBindings, type AgentBindings } from './agent-bindings.js';
import type { Placed } from './batch.js';
import type { BatchResults } from './results.js';
import { streamChains, type StreamChains } from './stream-chains.js';

export interface Admitted {
  accepted: Placed[];
  agents: AgentBindings;
  chains: StreamChains;
}

export async function admitEvents(
  services: FederationOperationServices,
  tx: ImportTransaction,
  o: { origin: string; now: Date; relayed: boolean },
  fresh: readonly Placed[],
  found: Pick<ImportLookup, 'agentHomes' | 'streamHeads'>,
  results: BatchResults,
): Promise<Admitted> {
  const agents = agentBindings(o.origin, found.agentHomes, () => services.ids.entityId());
  const chains = await streamChains(tx, o, fresh, found.streamHeads);
  const accepted: Placed[] = [];
  for (const c of fresh) {
    const refusal = announcedKeyRefusal(c, results) ?? chains.refusal(c) ?? agents.refusal(c.refs);
    if (refusal) {
      results.reject(c.index, refusal);
      continue;
    }
    chains.extend(c);
    agents.bind(c.refs);
    accepted.push(c);
    results.accept(c.index, c.envelope.id);
  }
  return { accepted, agents, chains };
}

/** A key announced earlier in this batch counts only if that announcement is taken. */
function announcedKeyRefusal(c: Placed, results: BatchResults): DomainError | null {
  if (c.introducedBy === undefined || results.isAccepted(c.introducedBy)) return null;
  return new DomainError(
    'federation.unknown_key',
    'invalid',
    `no key ${c.envelope.keyId} is known for ${c.envelope.origin}`,
  );
}
