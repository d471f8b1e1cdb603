import { invalid } from '@tributary/domain';
import { z } from 'zod';
import { defineAgentsOperation } from './agents-operation.js';
import { FEED_MAX_LIMIT } from '../shared/log-page.js';

/**
 * The signed events written on behalf of you and your personas, private ones included: what a person
 * checks to see their own history in the log.
 */
export const readMyEvents = defineAgentsOperation({
  name: 'svc.log.read_mine',
  title: 'Read my events',
  description:
    'Signed events written on behalf of you and your personas (private ones included), in sequence order: ' +
    'oldest first after `since` (page on with the last `sequence`), or with `order: "newest"` newest first ' +
    'before `before` (page on with the last `sequence` as the next `before`).',
  kind: 'query',
  scopes: ['svc.log.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    since: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(FEED_MAX_LIMIT).default(100),
    order: z
      .enum(['oldest', 'newest'])
      .default('oldest')
      .describe('oldest first after `since` (the default), or newest first before `before`'),
    before: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('with order "newest": only events before this sequence (the last one of the previous page)'),
  }),
  async run(ctx, input) {
    if (input.order === 'oldest' && input.before !== undefined)
      throw invalid('input.invalid', '`before` goes with order "newest"; oldest first pages with `since`', {
        issues: [{ path: 'before', message: 'only with order "newest"' }],
      });
    if (input.order === 'newest' && input.since !== 0)
      throw invalid('input.invalid', '`since` goes with order "oldest"; newest first pages with `before`', {
        issues: [{ path: 'since', message: 'only with order "oldest"' }],
      });
    if (!('agentId' in ctx.principal)) return { events: [], hasMore: false };
    const self = ctx.principal.agentId;
    const personas = await ctx.services.agents.read.personasOf(self, { includeDeleted: true });
    const actorIds = [self, ...personas.map((p) => p.agentId)];
    const events =
      input.order === 'newest'
        ? await ctx.services.store.readLatestByActors({
            actorIds,
            before: input.before,
            limit: input.limit + 1,
          })
        : await ctx.services.store.readByActors({ actorIds, since: input.since, limit: input.limit + 1 });
    return {
      events: events.slice(0, input.limit).map((e) => ({ sequence: e.sequence, event: redact(e.envelope) })),
      hasMore: events.length > input.limit,
    };
  },
});

/** The log keeps the password hash in the account's own event; it is never shown, even to its owner. */
function redact<E extends { type: string; data: Record<string, unknown> }>(envelope: E): E {
  if (envelope.type !== 'account.registered') return envelope;
  return { ...envelope, data: { ...envelope.data, passwordHash: '[redacted]' } };
}
