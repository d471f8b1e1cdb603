// svc.assistant.read_vault: the vault document of an agent you control (your own by default), as
// Markdown. Only its owner reads it: someone else's agent is not found.
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { readVaultDocument } from './vault-document.js';

export const readVault = defineAssistantOperation({
  name: 'svc.assistant.read_vault',
  title: 'Read the vault document',
  description:
    'The vault document of your agent (or the persona named by `targetAgentId`): Markdown with one section per plan ' +
    'step the assistant finished — what ran, for whom, with what result, and where its events sit in the log.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    agentId: z.string(),
    markdown: z.string(),
    entries: z.number().int(),
    lastPosition: z.number().int().nullable(),
  }),
  async run(ctx) {
    return readVaultDocument(ctx.services, ctx.actor.agentId);
  },
});
