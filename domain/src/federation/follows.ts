// A person or persona follows other agents — of this instance, or of other origins known here (through
// a peer or the relay). The follow relation is private: whom someone follows is their own business and
// the instance's (its relay following mode `people` takes the origins its people follow,
// docs/federation.md#following). One stream per follower, `follows-<agentId>`.
import { z } from 'zod';
import { conflict, invalid } from '../shared/errors.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import type { NewEvent } from '../shared/envelope.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

/** At most this many agents followed by one follower. */
export const FOLLOW_MAX = 5_000;

export const agentFollowed = defineEvent({
  type: 'agent.followed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    /** The follower (ours). */
    agentId: z.string(),
    /** The agent followed, by its id here (a materialized one for another origin's agent). */
    followedAgentId: z.string(),
    /** The instance the followed agent lives on (ours for one of ours). */
    origin: z.string(),
  }),
});

export const agentUnfollowed = defineEvent({
  type: 'agent.unfollowed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ agentId: z.string(), followedAgentId: z.string() }),
});

export const followsEvents = [agentFollowed, agentUnfollowed] as const satisfies readonly EventDefinition[];

export const followsStream = (agentId: string) => `follows-${agentId}`;

export interface FollowsState {
  /** Followed agent id → its origin. */
  following: ReadonlyMap<string, string>;
}

export const initialFollowsState = (): FollowsState => ({ following: new Map() });

export function evolveFollows(state: FollowsState, event: StoredEventLike): FollowsState {
  if (event.type === 'agent.followed') {
    const d = event.data as z.infer<typeof agentFollowed.data>;
    return { following: new Map(state.following).set(d.followedAgentId, d.origin) };
  }
  if (event.type === 'agent.unfollowed') {
    const d = event.data as z.infer<typeof agentUnfollowed.data>;
    const following = new Map(state.following);
    following.delete(d.followedAgentId);
    return { following };
  }
  return state;
}

export function decideFollow(
  state: FollowsState,
  cmd: { agentId: string; followedAgentId: string; origin: string },
): NewEvent[] {
  if (cmd.agentId === cmd.followedAgentId) throw invalid('follow.self', 'an agent cannot follow itself');
  if (state.following.has(cmd.followedAgentId))
    throw conflict('follow.already_following', 'that agent is followed already', {
      agentId: cmd.followedAgentId,
    });
  if (state.following.size >= FOLLOW_MAX)
    throw invalid('follow.too_many', `an agent follows at most ${FOLLOW_MAX} agents`, { max: FOLLOW_MAX });
  return [{ stream: followsStream(cmd.agentId), type: 'agent.followed', data: { ...cmd } }];
}

export function decideUnfollow(
  state: FollowsState,
  cmd: { agentId: string; followedAgentId: string },
): NewEvent[] {
  if (!state.following.has(cmd.followedAgentId))
    throw conflict('follow.not_following', 'that agent is not followed', { agentId: cmd.followedAgentId });
  return [{ stream: followsStream(cmd.agentId), type: 'agent.unfollowed', data: { ...cmd } }];
}
