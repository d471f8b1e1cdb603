// GET /api/autobot/codex/models: the models the connected account can use, from the provider's models
// endpoint (OpenAI's `GET /v1/models` shape), called with the account's access token — refreshed first
// when it is about to expire.
import { assertAccountConnected } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { accountModels, accountPorts, assistantAccountState } from './account-support.js';

export const listAccountModels = defineAssistantOperation({
  name: 'svc.assistant.account.list_models',
  title: 'List the models of the connected external assistant account',
  description:
    'The models available through the connected external assistant account, as its provider lists them; one of them can be chosen in the assistant settings.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    provider: z.string(),
    models: z.array(
      z.object({ id: z.string(), ownedBy: z.string().nullable(), created: z.number().nullable() }),
    ),
  }),
  async run(ctx) {
    const ports = accountPorts(ctx.services);
    assertAccountConnected((await assistantAccountState(ctx.services, ctx.actor.agentId)).state);
    const models = await accountModels(ctx.services, ctx.actor.agentId);
    return {
      provider: ports.provider.name,
      models: models.map((m) => ({ id: m.id, ownedBy: m.ownedBy ?? null, created: m.created ?? null })),
    };
  },
});
