import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { siteOutput } from './schemas.js';

export const listSites = defineOperation({
  name: 'svc.builder.list_sites',
  title: 'List sites',
  description:
    "The owner's sites, the default site first. The default site is always listed: until the first write creates it, as it will be created.",
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({ sites: z.array(siteOutput) }),
  async run(ctx) {
    const { site, created } = await siteForRead(ctx);
    const sites = await ctx.services.builder.read.sitesOf(ctx.actor.agentId);
    return { sites: created ? sites : [site, ...sites] };
  },
});
