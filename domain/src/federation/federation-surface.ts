// The rest of the federation surface (issue 5, part 6): peer mutations, queries, reconciliation probes,
// discovery and manifests. The limits and the peer-mutation receipt live here, pure.
import { conflict } from '../errors.js';
import type { NewEvent } from '../envelope.js';
import { defineEvent, type EventDefinition } from '../events/define-event.js';
import { registerEvents, type AgentKind } from '../events/catalogue.js';
import type { AgentState } from '../aggregates/agent.js';
import type { PeerState } from '../aggregates/peer.js';
import { registerAggregate } from '../aggregates/registry.js';
import type { StoredEventLike } from '../aggregates/stored-event-like.js';
import { z } from 'zod';

/** Resources answered per `GET /api/federation/query` page. */
export const QUERY_MAX_LIMIT = 100;
/** Entity references per `POST /api/federation/entity-status` probe. */
export const ENTITY_STATUS_MAX = 100;
/** Signed manifests are valid this long after issuance (spec §8). */
export const MANIFEST_LIFETIME_DAYS = 30;
/** A mutation envelope's body, at most. */
export const MUTATION_MAX_BYTES = 64 * 1024;

/**
 * A peer-signed mutation was applied here: recorded in the same transaction as the command's own events,
 * on a stream of its own per (peer, mutation id), so the same mutation can never apply twice. The
 * envelope is kept verbatim, so an auditor can re-verify that the peer asked for the change.
 */
export const peerMutationApplied = defineEvent({
  type: 'peer.mutation_applied',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    peerId: z.string(),
    mutationId: z.string(),
    operation: z.string(),
    nonce: z.string(),
    issuedAt: z.string(),
    /** The mutation envelope exactly as received (the peer's signature covers its RFC 8785 form). */
    envelope: z.string(),
  }),
});
export const FEDERATION_SURFACE_EVENTS = [peerMutationApplied] as const satisfies readonly EventDefinition[];
registerEvents(FEDERATION_SURFACE_EVENTS);

export const peerMutationStream = (peerId: string, mutationId: string) => `mutation-${peerId}-${mutationId}`;

export interface PeerMutationState {
  applied: boolean;
}
registerAggregate<PeerMutationState>('mutation-', {
  initial: () => ({ applied: false }),
  evolve: (_s: PeerMutationState, _e: StoredEventLike) => ({ applied: true }),
});

export interface RecordPeerMutation {
  peerId: string;
  mutationId: string;
  operation: string;
  nonce: string;
  issuedAt: string;
  envelope: string;
}

/** The receipt of a peer mutation; a mutation id already applied is a replay. */
export function decideRecordPeerMutation(cmd: RecordPeerMutation, state: PeerMutationState): NewEvent {
  if (state.applied)
    throw conflict('federation.replayed_mutation', 'that mutation was already applied', {
      mutationId: cmd.mutationId,
    });
  return {
    stream: peerMutationStream(cmd.peerId, cmd.mutationId),
    type: 'peer.mutation_applied',
    data: { ...cmd },
  };
}

/**
 * The agent that stands for a peer instance is born with `peer.registered` (not `agent.created`): its
 * profile starts from the peer's role and registered name, then the profile updates on its own stream.
 */
export function peerAgentState(peer: PeerState, folded: AgentState): AgentState {
  if (!peer.exists || !peer.agentId) return folded;
  return {
    ...folded,
    exists: true,
    agentId: peer.agentId,
    kind: peer.role as AgentKind,
    name: folded.name ?? peer.name ?? '',
  };
}

export type PeerMutationAppliedData = z.infer<typeof peerMutationApplied.data>;
