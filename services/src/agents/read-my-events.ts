import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { FEED_MAX_LIMIT } from '../shared/log-page.js';

/**
 * The signed events written on behalf of you and your personas, private ones included: what a person
 * checks to see their own history in the log.
 */
export const readMyEvents = defineOperation({
  name: 'svc.log.read_mine',
  title: 'Read my events',
  description:
    'Signed events written on behalf of you and your personas (private ones included), in sequence order.',
  kind: 'query',
  scopes: ['svc.log.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    since: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(FEED_MAX_LIMIT).default(100),
  }),
  async run(ctx, input) {
    if (!('agentId' in ctx.principal)) return { events: [], hasMore: false };
    const self = ctx.principal.agentId;
    const personas = await ctx.services.read.agents.personasOf(self, { includeDeleted: true });
    const events = await ctx.services.store.readByActors({
      actorIds: [self, ...personas.map((p) => p.agentId)],
      since: input.since,
      limit: input.limit + 1,
    });
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
