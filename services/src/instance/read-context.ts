import { z } from 'zod';
import { defineInstanceOperation } from './instance-operation.js';
import { agentOutput, targetAgentId } from '../shared/schemas.js';

export const instanceContext = defineInstanceOperation({
  name: 'svc.instance.context',
  title: 'Instance context',
  description: 'Who this instance is, who you act as, and how you are authenticated.',
  kind: 'query',
  scopes: ['svc.instance.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    instance: z.object({
      instanceId: z.string(),
      role: z.string(),
      name: z.string(),
      baseUrl: z.string(),
      primaryAgentId: z.string(),
    }),
    actor: agentOutput,
    authMode: z.string(),
    isOperator: z.boolean(),
  }),
  async run(ctx) {
    const { instanceId, role, name, baseUrl, primaryAgentId, controllers } = ctx.instance;
    const accountId = 'accountId' in ctx.principal ? ctx.principal.accountId : undefined;
    return {
      instance: { instanceId, role, name, baseUrl, primaryAgentId },
      actor: agentOutput.parse(ctx.actor),
      authMode: ctx.principal.kind,
      isOperator: ctx.principal.kind === 'system' || (!!accountId && controllers.includes(accountId)),
    };
  },
});
