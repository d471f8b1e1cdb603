// A person or persona follows an agent: one of this instance's, or of another origin known here (through
// a peer, or the relay), named as discover resolves it (docs/federation.md#following).
import {
  decideFollow,
  decideUnfollow,
  followsStream,
  isDomainError,
  notFound,
  type FollowsState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineFederationOperation, defineFederationSurfaceOperation } from './federation-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { discoverIdentity } from './discover-identity.js';
import { changingPeopleFollowing } from './relay.js';
import type { Principal } from '../pipeline/principal.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';

export const followOutput = z.object({
  agentId: z.string().describe('the agent followed, by its id here'),
  origin: z.string().describe('the instance it lives on'),
  name: z.string().optional(),
  handle: z.string().nullable().optional(),
});

/** The agent a cue names, as known here: its id here and its origin (follow.unknown_agent otherwise). */
async function resolveFollowed(services: FederationWithSurfaceServices, principal: Principal, cue: string) {
  const unknown = () =>
    notFound('follow.unknown_agent', `no agent known here answers to ${cue}`, { agent: cue });
  let found;
  try {
    found = await discoverIdentity(services, principal, cue);
  } catch (e) {
    if (isDomainError(e) && e.code.startsWith('discover.')) throw unknown();
    throw e;
  }
  if (!found.found || !found.agent) throw unknown();
  const origin =
    found.where === 'this_instance'
      ? found.instance.instanceId
      : found.where === 'peer'
        ? found.peer.peerId
        : found.origin.instanceId;
  return { agentId: found.agent.agentId, origin, name: found.agent.name, handle: found.agent.handle };
}

export const followAgent = defineFederationSurfaceOperation({
  name: 'svc.agent.follow',
  title: 'Follow an agent',
  description:
    'The acting person or persona follows an agent: one of this instance, or of another instance known here (through a peer or the global instance). Name it by its agent id here, @handle, or @handle@host. When this instance takes the origins its people follow, the global instance is told.',
  kind: 'command',
  scopes: ['svc.agent.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    agent: z.string().trim().min(1).max(320).describe('agent id here, @handle, or @handle@host'),
  }),
  output: followOutput,
  async run(ctx, input) {
    const fed = ctx.services.federation;
    const followed = await resolveFollowed(ctx.services, ctx.principal, input.agent);
    const self = (await ctx.services.instance.read.get())!.instanceId;
    const before = await fed.read.followedOrigins();
    const after =
      followed.origin === self || before.includes(followed.origin) ? before : [...before, followed.origin];
    const stream = followsStream(ctx.actor.agentId);
    await changingPeopleFollowing(ctx.services, { before, after }, async () => {
      await ctx.commit([stream], (states) =>
        decideFollow(states.get(stream) as FollowsState, {
          agentId: ctx.actor.agentId,
          followedAgentId: followed.agentId,
          origin: followed.origin,
        }),
      );
    });
    return followed;
  },
});

export const unfollowAgent = defineFederationOperation({
  name: 'svc.agent.unfollow',
  title: 'Stop following an agent',
  description:
    'The acting person or persona stops following an agent, named by its id here (as list_followed gives it). When this instance takes the origins its people follow and nobody here follows another agent there, the global instance is told.',
  kind: 'command',
  scopes: ['svc.agent.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    agentId: z.string().uuid().describe('the agent followed, by its id here'),
  }),
  output: z.object({ agentId: z.string(), origin: z.string(), following: z.literal(false) }),
  async run(ctx, input) {
    const fed = ctx.services.federation;
    const stream = followsStream(ctx.actor.agentId);
    const before = await fed.read.followedOrigins();
    const after = await fed.read.followedOrigins({
      followerAgentId: ctx.actor.agentId,
      followedAgentId: input.agentId,
    });
    let origin = '';
    // Not followed: `after` equals `before`, nothing is told, and the decider refuses follow.not_following.
    await changingPeopleFollowing(ctx.services, { before, after }, async () => {
      await ctx.commit([stream], (states) => {
        const state = states.get(stream) as FollowsState;
        origin = state.following.get(input.agentId) ?? '';
        return decideUnfollow(state, { agentId: ctx.actor.agentId, followedAgentId: input.agentId });
      });
    });
    return { agentId: input.agentId, origin, following: false as const };
  },
});
