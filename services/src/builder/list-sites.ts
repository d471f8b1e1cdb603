import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { defaultSite } from './resolve-site.js';
import { siteOutput } from './schemas.js';

export const listSites = defineOperation({
  name: 'svc.builder.list_sites',
  title: 'List sites',
  description:
    "The owner's sites, the default site first. The default site is created on demand, so there is always one.",
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ sites: z.array(siteOutput) }),
  async run(ctx) {
    await defaultSite(ctx);
    return { sites: await ctx.services.read.builder.sitesOf(ctx.actor.agentId) };
  },
});
