import {
  agentStream,
  decideCreatePersona,
  handleStream,
  type AgentState,
  type ClaimState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { withClaimConflicts } from '../shared/claim-conflicts.js';
import { agentOutput, displayName, handleSchema, targetAgentId } from '../shared/schemas.js';

export const createPersona = defineAgentsOperation({
  name: 'svc.agent.create_persona',
  title: 'Create an identity',
  description:
    'Create an identity (a persona) owned by the acting agent (a person, or the instance agent for its operators).',
  kind: 'command',
  scopes: ['svc.agent.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, name: displayName, handle: handleSchema.optional() }),
  output: agentOutput,
  async run(ctx, input) {
    const personaId = ctx.services.ids.entityId();
    const owner = agentStream(ctx.actor.agentId);
    const streams = [owner, agentStream(personaId), ...(input.handle ? [handleStream(input.handle)] : [])];
    await withClaimConflicts(() =>
      ctx.commit(streams, (states) =>
        decideCreatePersona(
          { personaId, name: input.name, handle: input.handle },
          {
            owner: states.get(owner) as AgentState,
            ...(input.handle && { handleClaim: states.get(handleStream(input.handle)) as ClaimState }),
          },
        ),
      ),
    );
    const persona = await ctx.services.agents.read.agent(personaId);
    if (!persona) throw new Error('persona missing from its inline projection after commit');
    return agentOutput.parse(persona);
  },
});
