import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { agentOutput, targetAgentId } from '../shared/schemas.js';

export const readProfile = defineAgentsOperation({
  name: 'svc.profile.read',
  title: 'Read a profile',
  description: 'The profile of the acting agent (yourself, or a persona you own).',
  kind: 'query',
  scopes: ['svc.profile.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: agentOutput,
  async run(ctx) {
    return agentOutput.parse(ctx.actor);
  },
});
