import { agentStream, decideUpdateProfile, type AgentState } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { agentOutput, displayName, targetAgentId } from './schemas.js';

export const updateProfile = defineOperation({
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
      avatarUrl: z.string().url().max(2000).optional(),
    })
    .refine((v) => v.name !== undefined || v.bio !== undefined || v.avatarUrl !== undefined, {
      message: 'give at least one of name, bio, avatarUrl',
    }),
  output: agentOutput,
  async run(ctx, input) {
    const stream = agentStream(ctx.actor.agentId);
    await ctx.commit([stream], (states) =>
      decideUpdateProfile(
        { name: input.name, bio: input.bio, avatarUrl: input.avatarUrl },
        states.get(stream) as AgentState,
      ),
    );
    const agent = await ctx.services.read.agent(ctx.actor.agentId);
    return agentOutput.parse(agent);
  },
});
