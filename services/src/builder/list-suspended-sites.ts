import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';

/** Suspended-sites paging: a page holds at most this many. */
export const SUSPENDED_DEFAULT_LIMIT = 50;
export const SUSPENDED_MAX_LIMIT = 200;

export const listSuspendedSites = defineBuilderOperation({
  name: 'svc.builder.list_suspended_sites',
  title: 'List suspended sites (operators)',
  description:
    'The sites of this instance that are suspended, each with its owner, the reason and when it was suspended, ordered by site id. At most `limit` (default 50, at most 200) a page; pass the `nextAfter` of a page as `after` for the next one (null: no more). Only an operator can.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(SUSPENDED_MAX_LIMIT)
      .optional()
      .describe(`page size (default ${SUSPENDED_DEFAULT_LIMIT}, at most ${SUSPENDED_MAX_LIMIT})`),
    after: z.string().max(200).optional().describe('the nextAfter of the previous page'),
  }),
  output: z.object({
    sites: z.array(
      z.object({
        siteId: z.string(),
        ownerAgentId: z.string(),
        title: z.string(),
        reason: z.string(),
        suspendedAt: z.string(),
      }),
    ),
    nextAfter: z.string().nullable(),
  }),
  async run(ctx, input) {
    const limit = input.limit ?? SUSPENDED_DEFAULT_LIMIT;
    const sites = await ctx.services.builder.read.suspendedSites({ limit: limit + 1, after: input.after });
    const page = sites.slice(0, limit);
    return { sites: page, nextAfter: sites.length > limit ? page[page.length - 1]!.siteId : null };
  },
});
