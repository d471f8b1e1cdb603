import { siteTitleSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { createSiteStreams, defaultSiteId } from './resolve-site.js';
import { siteOutput } from './schemas.js';

export const createSite = defineOperation({
  name: 'svc.builder.create_site',
  title: 'Create a site',
  description:
    "Create a site for the owner, with a one-page starter draft. An owner's first site becomes their default site.",
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId, title: siteTitleSchema }),
  output: siteOutput,
  async run(ctx, input) {
    const read = ctx.services.read.builder;
    // The first site is the default one, under the id derived from its owner; if a concurrent first
    // call took that id, this one is an ordinary site.
    const defaultId = defaultSiteId(ctx.services.ids, ctx.actor.agentId);
    const first =
      !(await read.site(defaultId)) &&
      (await createSiteStreams(ctx, { siteId: defaultId, title: input.title, isDefault: true }, 'operation'));
    const siteId = first ? defaultId : ctx.services.ids.entityId();
    if (
      !first &&
      !(await createSiteStreams(ctx, { siteId, title: input.title, isDefault: false }, 'operation'))
    )
      throw new Error('a fresh random site id was already taken');
    const site = await read.site(siteId);
    if (!site) throw new Error('site missing from its inline projection after commit');
    return site;
  },
});
