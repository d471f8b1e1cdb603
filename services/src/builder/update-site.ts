import {
  decideUpdateSiteSettings,
  siteDescriptionSchema,
  siteLanguageSchema,
  siteStream,
  siteThemeSchema,
  siteTitleSchema,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput, siteOutput } from './schemas.js';

export const updateSite = defineOperation({
  name: 'svc.builder.update_site',
  title: 'Update site settings',
  description:
    "Change a site's title, theme, description or language; what is left out stays. They show on the next publish.",
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    title: siteTitleSchema.optional(),
    theme: siteThemeSchema.optional(),
    description: siteDescriptionSchema.optional(),
    language: siteLanguageSchema.optional(),
  }),
  output: siteOutput,
  async run(ctx, input) {
    const { siteId } = await resolveSite(ctx, input.siteId);
    const stream = siteStream(siteId);
    await ctx.commit([stream], (states) =>
      decideUpdateSiteSettings(
        {
          ownerAgentId: ctx.actor.agentId,
          title: input.title,
          theme: input.theme,
          description: input.description,
          language: input.language,
        },
        states.get(stream) as SiteState,
      ),
    );
    const site = await ctx.services.builder.read.site(siteId);
    if (!site) throw new Error('site missing from its inline projection after commit');
    return site;
  },
});
