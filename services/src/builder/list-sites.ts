import { uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { siteOutput } from './schemas.js';
import { addressUrls } from './site-address-support.js';

export const listSites = defineBuilderOperation({
  name: 'svc.builder.list_sites',
  title: 'List sites',
  description:
    "The owner's sites, the default site first, each with `liveUrl` (where it is online, null until published). The default site is always listed: until the first write creates it, as it will be created, with `created: false` (every other listed site has `created: true`). With `holdingForm`, only the sites whose draft holds that form.",
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    holdingForm: uuidSchema
      .optional()
      .describe('only the sites whose draft holds this form (a form block, in columns too)'),
  }),
  output: z.object({
    sites: z.array(
      siteOutput.extend({
        liveUrl: z.string().nullable(),
        /**
         * False for the default site listed before any write created it (shown as it will be created):
         * the owner has made nothing yet. True for every site that exists.
         */
        created: z.boolean(),
      }),
    ),
  }),
  async run(ctx, input) {
    const { site, created } = await siteForRead(ctx);
    const read = ctx.services.builder.read;
    const owned = await read.sitesOf(ctx.actor.agentId);
    // A form's sites: one read of the drafts' references, not of every draft.
    const holding =
      input.holdingForm === undefined
        ? null
        : new Set(await read.sitesDraftingForm(ctx.actor.agentId, input.holdingForm));
    const sites = holding ? owned.filter((s) => holding.has(s.siteId)) : owned;
    const withUrls = await Promise.all(
      sites.map(async (s) => {
        const address = s.publishedVersionId ? await read.addressOfSite(s.siteId) : null;
        return { ...s, liveUrl: address ? addressUrls(ctx, address.label).url : null, created: true };
      }),
    );
    // The default site not yet created has an empty draft: it holds no form.
    if (created || holding) return { sites: withUrls };
    return { sites: [{ ...site, liveUrl: null, created: false }, ...withUrls] };
  },
});
