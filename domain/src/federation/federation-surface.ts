// The rest of the federation surface: peer mutations, queries, reconciliation probes,
// discovery and manifests. The limits and the peer-mutation receipt live here, pure.
import { conflict } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { AgentKind } from '../agents/index.js';
import type { AgentState } from '../agents/index.js';
import type { peerMutationApplied } from './events.js';
import type { PeerState } from './peer.js';
import { streamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { z } from 'zod';

/** Resources answered per `GET /api/federation/query` page. */
export const QUERY_MAX_LIMIT = 100;
/** Entity references per `POST /api/federation/entity-status` probe. */
export const ENTITY_STATUS_MAX = 100;
/** Signed manifests are valid this long after issuance. */
export const MANIFEST_LIFETIME_DAYS = 30;
/** A mutation envelope's body, at most. */
export const MUTATION_MAX_BYTES = 64 * 1024;

export const peerMutationStream = (peerId: string, mutationId: string) => `mutation-${peerId}-${mutationId}`;

export interface PeerMutationState {
  applied: boolean;
}
export const peerMutationStreams = streamAggregate<PeerMutationState>('mutation-', {
  initial: () => ({ applied: false }),
  evolve: (_s: PeerMutationState, _e: StoredEventLike) => ({ applied: true }),
});

interface RecordPeerMutation {
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
