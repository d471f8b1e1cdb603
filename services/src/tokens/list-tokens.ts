import { z } from 'zod';
import { defineTokensOperation } from './tokens-operation.js';
import type { McpTokenView } from './ports/agent-access-read-models.js';

const TOKEN_STATUSES = ['active', 'expired', 'revoked', 'persona_deleted'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

/**
 * What a token can do now: revoked (by someone, which says the most), its persona deleted (it acts for no
 * one), expired, or active.
 */
export function tokenStatus(
  t: Pick<McpTokenView, 'revokedAt' | 'personaDeletedAt' | 'expiresAt'>,
  now: Date,
): TokenStatus {
  if (t.revokedAt) return 'revoked';
  if (t.personaDeletedAt) return 'persona_deleted';
  return new Date(t.expiresAt).getTime() <= now.getTime() ? 'expired' : 'active';
}

/** A token as its owner sees it: everything but the token itself, which is never stored. */
const tokenOutput = z.object({
  jti: z.string(),
  label: z.string(),
  client: z.string().nullable(),
  scopes: z.array(z.string()),
  agentId: z.string().describe('the persona it acts for, or your own agent'),
  audience: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedClient: z
    .string()
    .nullable()
    .describe('the client of the last use, as it named itself (User-Agent)'),
  status: z
    .enum(TOKEN_STATUSES)
    .describe('persona_deleted: the persona it acts for was deleted, so it can no longer be used'),
});

export const listTokens = defineTokensOperation({
  name: 'svc.tokens.list',
  title: 'List your MCP tokens',
  description:
    'Your scoped MCP tokens, newest first, with when each was last used. Never the tokens themselves.',
  kind: 'query',
  scopes: ['svc.tokens.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({}),
  async run(ctx) {
    const { principal } = ctx;
    // The static token belongs to no account, so it holds no scoped tokens.
    if (principal.kind !== 'session' && principal.kind !== 'token') return { tokens: [] };
    // A token bound to a persona sees only the tokens of that persona.
    const bound = principal.kind === 'token' ? principal.boundAgentId : undefined;
    const tokens = (await ctx.services.tokens.read.tokensOf(principal.accountId)).filter(
      (t) => !bound || t.personaId === bound,
    );
    return {
      tokens: tokens.map((t) =>
        tokenOutput.parse({
          ...t,
          agentId: t.personaId ?? t.agentId,
          status: tokenStatus(t, ctx.now),
        }),
      ),
    };
  },
});
