// Every agent an imported event names must be the origin's own: one of ours, or one another origin
// already named, refuses the event; one not known yet gets a local id here (a placeholder until the
// origin's agent.created arrives).
import { foreignAgentRefusal, type AgentHome, type DomainError } from '@tributary/domain';
import type { AgentBinding, ImportLookup } from '../ports/federation.js';
import type { Placed } from './batch.js';

export interface AgentBindings {
  /** Why `refs` cannot be the origin's, or null. */
  refusal(refs: Placed['refs']): DomainError | null;
  /** Binds each agent of `refs` not bound yet to a new local id. */
  bind(refs: Placed['refs']): void;
  /** The local id of one of the origin's agents (bound already, or by `bind`). */
  localId(remoteAgentId: string): string;
  /** The bindings `bind` made, to record with the import. */
  newBindings: AgentBinding[];
}

export function agentBindings(
  origin: string,
  homes: ImportLookup['agentHomes'],
  entityId: () => string,
): AgentBindings {
  const bound = new Map<string, string>(); // remote id (of this origin) → local id
  const otherOrigin = new Set<string>();
  for (const b of homes.bindings)
    if (b.origin === origin) bound.set(b.remoteAgentId, b.localAgentId);
    else otherOrigin.add(b.remoteAgentId);
  const homeOf = (agentId: string): AgentHome =>
    bound.has(agentId)
      ? { kind: 'remote', origin }
      : otherOrigin.has(agentId)
        ? { kind: 'remote', origin: '' }
        : homes.local.has(agentId)
          ? { kind: 'local' }
          : { kind: 'unknown' };
  const newBindings: AgentBinding[] = [];
  return {
    refusal: (refs) => foreignAgentRefusal(origin, refs, homeOf),
    bind(refs) {
      for (const { agentId } of refs)
        if (!bound.has(agentId)) {
          const localAgentId = entityId();
          bound.set(agentId, localAgentId);
          newBindings.push({ origin, remoteAgentId: agentId, localAgentId });
        }
    },
    localId: (remoteAgentId) => bound.get(remoteAgentId)!,
    newBindings,
  };
}
