// GET /api/autobot/codex: the connected external-assistant account of the acting agent, from its stream
// — the provider, scopes and times, never a token.
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { accountOutput, accountView, assistantAccountState } from './account-support.js';

export const readAccount = defineAssistantOperation({
  name: 'svc.assistant.account.read',
  title: 'Read the connected external assistant account',
  description:
    'Whether an external assistant account is connected, which provider, its scopes and when its access expires; never a token.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: accountOutput,
  async run(ctx) {
    const { state } = await assistantAccountState(ctx.services, ctx.actor.agentId);
    return accountView(ctx.services, ctx.actor.agentId, state, ctx.services.clock.now());
  },
});
