import {
  decideRevokeToken,
  mcpTokenStream,
  notFound,
  uuidSchema,
  type McpTokenState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineTokensOperation } from './tokens-operation.js';

export const revokeToken = defineTokensOperation({
  name: 'svc.tokens.revoke',
  title: 'Revoke an MCP token',
  description:
    'Revoke one of your scoped MCP tokens by its jti; the very next call with it fails. Others keep working.',
  kind: 'command',
  scopes: ['svc.tokens.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({ jti: uuidSchema }),
  async run(ctx, input) {
    const { principal } = ctx;
    const accountId =
      principal.kind === 'session' || principal.kind === 'token' ? principal.accountId : undefined;
    if (!accountId) throw notFound('token.not_found', 'no such token among yours');
    // A token bound to a persona may revoke only the tokens of that persona (itself included).
    if (principal.kind === 'token' && principal.boundAgentId) {
      const record = await ctx.services.tokens.read.tokenByJti(input.jti);
      if (record?.personaId !== principal.boundAgentId)
        throw notFound('token.not_found', 'no such token among yours');
    }
    const stream = mcpTokenStream(input.jti);
    const { events } = await ctx.commit([stream], (states) =>
      decideRevokeToken({ jti: input.jti, accountId, reason: 'owner' }, states.get(stream) as McpTokenState),
    );
    return { jti: input.jti, revoked: true, alreadyRevoked: events.length === 0 };
  },
});
