import {
  agentStream,
  decideUpdateProfile,
  httpUrlSchema,
  peerAgentState,
  peerStream,
  type AgentState,
  type PeerState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { agentOutput, displayName, targetAgentId } from '../shared/schemas.js';

export const updateProfile = defineAgentsOperation({
  name: 'svc.profile.update',
  title: 'Update a profile',
  description: 'Change the name, bio or avatar of the acting agent. Unchanged fields write nothing.',
  kind: 'command',
  scopes: ['svc.profile.write'],
  enabledFor: ['session', 'token'],
  input: z
    .strictObject({
      targetAgentId,
      name: displayName.optional(),
      bio: z.string().max(2000).optional(),
      avatarUrl: httpUrlSchema().optional(),
    })
    .refine((v) => v.name !== undefined || v.bio !== undefined || v.avatarUrl !== undefined, {
      message: 'give at least one of name, bio, avatarUrl',
    }),
  output: agentOutput,
  async run(ctx, input) {
    const stream = agentStream(ctx.actor.agentId);
    // A peer acting as its own instance agent (a peer mutation): that agent was born with peer.registered.
    const peer = ctx.principal.kind === 'peer' ? peerStream(ctx.principal.peerId) : undefined;
    await ctx.commit(peer ? [stream, peer] : [stream], (states) => {
      const folded = states.get(stream) as AgentState;
      return decideUpdateProfile(
        { name: input.name, bio: input.bio, avatarUrl: input.avatarUrl },
        peer ? peerAgentState(states.get(peer) as PeerState, folded) : folded,
      );
    });
    const agent = await ctx.services.agents.read.agent(ctx.actor.agentId);
    return agentOutput.parse(agent);
  },
});
