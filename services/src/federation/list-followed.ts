// The agents the acting person or persona follows, with what is known of them here.
import { z } from 'zod';
import { defineFederationOperation } from './federation-operation.js';
import { targetAgentId } from '../shared/schemas.js';

export const listFollowed = defineFederationOperation({
  name: 'svc.agent.list_followed',
  title: 'List the agents followed',
  description:
    'The agents the acting person or persona follows, by their id here, with their origin and since when, in pages of at most 200 (after: the last agent id of the page before).',
  kind: 'query',
  scopes: ['svc.agent.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    limit: z.number().int().min(1).max(200).default(50),
    after: z.string().max(64).optional(),
  }),
  output: z.object({
    following: z.array(
      z.object({
        agentId: z.string(),
        origin: z.string(),
        followedAt: z.string(),
        name: z.string().nullable(),
        handle: z.string().nullable(),
      }),
    ),
  }),
  async run(ctx, input) {
    const follows = await ctx.services.federation.read.followedBy(ctx.actor.agentId, {
      limit: input.limit,
      after: input.after,
    });
    // Names as the registry shows them (an agent deleted since has none).
    const known = new Map(
      (await ctx.services.federation.read.registryAgentsByIds(follows.map((f) => f.agentId))).map((a) => [
        a.agentId,
        a,
      ]),
    );
    return {
      following: follows.map((f) => ({
        ...f,
        name: known.get(f.agentId)?.name ?? null,
        handle: known.get(f.agentId)?.handle ?? null,
      })),
    };
  },
});
