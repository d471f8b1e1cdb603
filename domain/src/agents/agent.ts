// The agent aggregate (stream `agent-<id>`): persons, groups, locales, regions, the global agent, personas.
import { conflict, invalid, notFound } from '../shared/errors.js';
import type { NewEvent } from '../shared/envelope.js';
import type { AgentKind, AgentEventData as EventData } from './events.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

export const agentStream = (agentId: string) => `agent-${agentId}`;

export interface AgentState {
  exists: boolean;
  agentId?: string;
  kind?: AgentKind;
  name?: string;
  handle?: string | undefined;
  ownerAgentId?: string | undefined;
  bio?: string;
  avatarUrl?: string;
  /** A deleted persona: its stream is closed to every command. */
  deleted?: boolean;
}

export const initialAgentState = (): AgentState => ({ exists: false });

export function evolveAgent(state: AgentState, event: StoredEventLike): AgentState {
  switch (event.type) {
    case 'agent.created': {
      const d = event.data as EventData<'agent.created'>;
      return {
        exists: true,
        agentId: d.agentId,
        kind: d.kind,
        name: d.name,
        handle: d.handle,
        ownerAgentId: d.ownerAgentId,
      };
    }
    case 'agent.profile_updated': {
      const d = event.data as EventData<'agent.profile_updated'>;
      return {
        ...state,
        ...(d.name !== undefined && { name: d.name }),
        ...(d.handle !== undefined && { handle: d.handle }),
        ...(d.bio !== undefined && { bio: d.bio }),
        ...(d.avatarUrl !== undefined && { avatarUrl: d.avatarUrl }),
      };
    }
    case 'agent.deleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

/** Commands act only on an agent that exists and is not deleted; anything else is agent.not_found. */
function requireLiveAgent(agent: AgentState): asserts agent is AgentState & { agentId: string } {
  if (!agent.exists || !agent.agentId || agent.deleted) throw notFound('agent.not_found', 'no such agent');
}

/** A uniqueness claim (streams `handle-<h>` and `email-<hash>`): the stream exists iff claimed. */
export interface ClaimState {
  claimed: boolean;
}
export const initialClaimState = (): ClaimState => ({ claimed: false });
export const evolveClaim = (_s: ClaimState, _e: StoredEventLike): ClaimState => ({ claimed: true });
export const handleStream = (handle: string) => `handle-${handle}`;

export function decideClaimHandle(handle: string, agentId: string, claim: ClaimState): NewEvent {
  if (claim.claimed) throw conflict('agent.handle_taken', `the handle @${handle} is taken`, { handle });
  return { stream: handleStream(handle), type: 'handle.claimed', data: { handle, agentId } };
}

interface CreatePersona {
  personaId: string;
  name: string;
  handle?: string | undefined;
}

/** A person (or the instance's primary agent) owns personas; a persona owns none. */
export function decideCreatePersona(
  cmd: CreatePersona,
  state: { owner: AgentState; handleClaim?: ClaimState },
): NewEvent[] {
  const { owner } = state;
  requireLiveAgent(owner);
  if (owner.kind === 'persona') throw invalid('agent.persona_cannot_own', 'a persona cannot own personas');
  const events: NewEvent[] = [];
  if (cmd.handle)
    events.push(decideClaimHandle(cmd.handle, cmd.personaId, state.handleClaim ?? initialClaimState()));
  events.push({
    stream: agentStream(cmd.personaId),
    type: 'agent.created',
    data: {
      agentId: cmd.personaId,
      kind: 'persona',
      name: cmd.name,
      ...(cmd.handle && { handle: cmd.handle }),
      ownerAgentId: owner.agentId,
    },
  });
  return events;
}

interface UpdateProfile {
  name?: string | undefined;
  bio?: string | undefined;
  avatarUrl?: string | undefined;
}

export function decideUpdateProfile(cmd: UpdateProfile, agent: AgentState): NewEvent[] {
  requireLiveAgent(agent);
  const changes: UpdateProfile = {};
  if (cmd.name !== undefined && cmd.name !== agent.name) changes.name = cmd.name;
  if (cmd.bio !== undefined && cmd.bio !== agent.bio) changes.bio = cmd.bio;
  if (cmd.avatarUrl !== undefined && cmd.avatarUrl !== agent.avatarUrl) changes.avatarUrl = cmd.avatarUrl;
  if (Object.keys(changes).length === 0) return []; // nothing changes: no event, idempotent
  return [{ stream: agentStream(agent.agentId), type: 'agent.profile_updated', data: { ...changes } }];
}

/**
 * Deleting a persona: only a persona (a person, group or instance agent is not deleted this way), and only
 * once. Who may delete it is settled before this, as for every command on an agent: its owner, or the
 * instance's controllers for the personas of the primary agent.
 */
export function decideDeletePersona(agent: AgentState): NewEvent[] {
  requireLiveAgent(agent);
  if (agent.kind !== 'persona')
    throw invalid('agent.not_a_persona', 'only a persona can be deleted', { kind: agent.kind });
  return [{ stream: agentStream(agent.agentId), type: 'agent.deleted', data: {} }];
}
