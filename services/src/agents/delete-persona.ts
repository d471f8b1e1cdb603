import { agentStream, decideDeletePersona, forbidden, uuidSchema, type AgentState } from '@tributary/domain';
import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { confirmPassword } from '../accounts/index.js';

export const deletePersona = defineAgentsOperation({
  name: 'svc.agent.delete_persona',
  title: 'Delete an identity',
  description:
    'Delete an identity (a persona) you own: it stops acting and owning, leaves lists, the registry and discovery, and ' +
    'peers learn of it (the reconciliation probe answers "deleted"). Its events stay in the log and its ' +
    'handle stays reserved.',
  kind: 'command',
  scopes: ['svc.agent.write'],
  // Irreversible, so never a tool: a signed-in person, who gives the password again.
  enabledFor: [],
  input: z.strictObject({
    // Named explicitly: there is no default, so nothing is deleted by omission.
    targetAgentId: uuidSchema.describe('the persona to delete'),
    password: z.string().min(1).max(200).describe('your password, asked again'),
  }),
  output: z.object({ agentId: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    if (ctx.principal.kind !== 'session')
      throw forbidden('auth.session_required', 'deleting a persona needs a signed-in session');
    await confirmPassword(ctx.services, ctx.principal.accountId, input.password);
    const stream = agentStream(ctx.actor.agentId);
    await ctx.commit([stream], (states) => decideDeletePersona(states.get(stream) as AgentState));
    return { agentId: ctx.actor.agentId, deleted: true as const };
  },
});
