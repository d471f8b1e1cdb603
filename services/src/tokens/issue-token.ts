// POST /api/mcp/token: a signed-in person mints a scoped bearer for themselves or for a persona they
// control. Only a session may do this; a token never mints another token (no MCP tool either), so a
// leaked token cannot extend its own life or widen its reach.
import {
  decideIssueToken,
  DomainError,
  forbidden,
  invalid,
  mcpTokenStream,
  scopeSchema,
  type McpTokenState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineTokensOperation } from './tokens-operation.js';
import { targetAgentId } from '../shared/schemas.js';

export const TOKEN_DEFAULT_LIFETIME_SECONDS = 30 * 24 * 60 * 60;
export const TOKEN_MAX_LIFETIME_SECONDS = 90 * 24 * 60 * 60;
const TOKEN_MIN_LIFETIME_SECONDS = 60;

export const issueToken = defineTokensOperation({
  name: 'svc.tokens.issue',
  title: 'Issue a scoped MCP token',
  description:
    'Mint a bearer token for /api/mcp with the given scopes, for yourself or a persona you control. Session only.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    targetAgentId: targetAgentId.describe('a persona (or other agent) you control; defaults to yourself'),
    label: z.string().trim().min(1).max(100).describe('what the token is for, shown in the token list'),
    scopes: z.array(scopeSchema).max(64),
    lifetimeSeconds: z
      .number()
      .int()
      .min(TOKEN_MIN_LIFETIME_SECONDS)
      .max(TOKEN_MAX_LIFETIME_SECONDS)
      .default(TOKEN_DEFAULT_LIFETIME_SECONDS),
    client: z.string().trim().min(1).max(100).optional().describe('the agent or app that will hold it'),
  }),
  async run(ctx, input) {
    const { principal, services, actor } = ctx;
    if (principal.kind !== 'session')
      throw forbidden('token.session_required', 'only a signed-in person may issue tokens');
    // A token that may do nothing is never what a person meant: refused rather than minted unused. (An
    // OAuth grant may still carry no scope: connecting without tools is the client's own request.)
    if (input.scopes.length === 0) throw invalid('token.scopes_required', 'choose at least one scope');
    const tokens = services.tokens.accessTokens;
    if (!tokens)
      throw new DomainError('token.unavailable', 'unavailable', 'this process does not issue tokens');
    const jti = services.ids.entityId();
    const iat = Math.floor(ctx.now.getTime() / 1000);
    const exp = iat + input.lifetimeSeconds;
    const expiresAt = new Date(exp * 1000).toISOString();
    const personaId = actor.agentId === principal.agentId ? undefined : actor.agentId;
    const isInstanceController = ctx.instance.controllers.includes(principal.accountId);
    const stream = mcpTokenStream(jti);
    // Signed before the record is written: a failed commit leaves a token nobody holds, never the reverse.
    const token = await tokens.sign({ sub: principal.accountId, jti, iat, exp });
    const { events } = await ctx.commit([stream], (states) =>
      decideIssueToken(
        {
          jti,
          accountId: principal.accountId,
          agentId: principal.agentId,
          personaId,
          scopes: input.scopes,
          audience: tokens.audience,
          label: input.label,
          client: input.client,
          expiresAt,
        },
        states.get(stream) as McpTokenState,
        { isInstanceController },
      ),
    );
    if (events.length === 0) throw new Error('token issue wrote nothing');
    return {
      token,
      tokenType: 'Bearer' as const,
      jti,
      scopes: [...new Set(input.scopes)].sort(),
      agentId: actor.agentId,
      audience: tokens.audience,
      label: input.label,
      expiresAt,
    };
  },
});
