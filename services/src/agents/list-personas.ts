import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { agentOutput, targetAgentId } from '../shared/schemas.js';

export const listPersonas = defineAgentsOperation({
  name: 'svc.agent.list_personas',
  title: 'List identities',
  description: 'The identities (personas) owned by the acting agent.',
  kind: 'query',
  scopes: ['svc.agent.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ personas: z.array(agentOutput) }),
  async run(ctx) {
    const personas = await ctx.services.agents.read.personasOf(ctx.actor.agentId);
    return { personas: personas.map((p) => agentOutput.parse(p)) };
  },
});
