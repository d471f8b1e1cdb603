import { AUDIT_RECENT_DEFAULT, AUDIT_RECENT_MAX, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineTokensOperation } from './tokens-operation.js';

export const auditRecent = defineTokensOperation({
  name: 'svc.audit.recent',
  title: 'Recent tool calls',
  description: `Your most recent tool calls from the provenance log, newest first (default ${AUDIT_RECENT_DEFAULT}, at most ${AUDIT_RECENT_MAX}).`,
  kind: 'query',
  scopes: ['svc.audit.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    limit: z.number().int().min(1).max(AUDIT_RECENT_MAX).default(AUDIT_RECENT_DEFAULT),
    before: uuidSchema.optional().describe('an entryId: only entries older than it (for paging)'),
  }),
  async run(ctx, input) {
    const { principal, services } = ctx;
    // "The caller": the person behind a session or token; a token bound to a persona sees only that
    // persona's calls; the static token sees the calls made with the static token.
    const selector =
      principal.kind === 'token' && principal.boundAgentId
        ? { actorId: principal.boundAgentId }
        : principal.kind === 'session' || principal.kind === 'token'
          ? { controllerAccountId: principal.accountId }
          : { authMode: principal.kind };
    const entries = await services.tokens.read.provenance({
      ...selector,
      limit: input.limit,
      before: input.before,
    });
    return { entries };
  },
});
