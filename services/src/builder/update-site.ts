import {
  decideUpdateSiteSettings,
  followRename,
  invalid,
  siteDraftStream,
  uuidSchema,
  siteDescriptionSchema,
  siteLanguageSchema,
  siteStream,
  siteThemeSchema,
  siteTitleSchema,
  type DraftState,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput, siteOutput } from './schemas.js';

export const updateSite = defineBuilderOperation({
  name: 'svc.builder.update_site',
  title: 'Update site settings',
  description:
    "Change a site's title, theme, description, language, social card image or favicon; what is left out stays. " +
    'The images are media items of the owner’s (socialImageId: shown when a page is shared, as og:image; faviconId: ' +
    'the browser tab’s icon), null clears one. They show on the next publish.',
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
    socialImageId: uuidSchema.nullable().optional().describe('a media item of yours; null: none'),
    faviconId: uuidSchema.nullable().optional().describe('a media item of yours; null: none'),
  }),
  output: siteOutput,
  async run(ctx, input) {
    const { siteId, ownerAgentId } = await resolveSite(ctx, input.siteId);
    // Only the owner's own live media items may be a site's pictures.
    const wanted = [input.socialImageId, input.faviconId].filter(
      (id): id is string => typeof id === 'string',
    );
    if (wanted.length > 0) {
      const held = new Set(
        (await ctx.services.builder.read.renderMedia(ownerAgentId, wanted)).map((m) => m.mediaId),
      );
      const missing = wanted.find((id) => !held.has(id));
      if (missing)
        throw invalid('builder.unknown_reference', 'the settings name a media item you do not hold', {
          kind: 'media',
          ids: [missing],
        });
    }
    const stream = siteStream(siteId);
    const draftStream = siteDraftStream(siteId);
    await ctx.commit([stream, draftStream], (states) => {
      const site = states.get(stream) as SiteState;
      const draft = states.get(draftStream) as DraftState;
      const events = decideUpdateSiteSettings(
        {
          ownerAgentId: ctx.actor.agentId,
          title: input.title,
          theme: input.theme,
          description: input.description,
          language: input.language,
          socialImageId: input.socialImageId,
          faviconId: input.faviconId,
        },
        site,
      );
      // The home page still calling the site by its old title (as the starter put it) follows the rename.
      const renamed =
        events.length > 0 && input.title !== undefined && site.title !== undefined && draft.document
          ? followRename(draft.document, site.title, input.title.trim())
          : null;
      return renamed
        ? [...events, { stream: draftStream, type: 'site.draft_saved', data: { siteId, document: renamed } }]
        : events;
    });
    const site = await ctx.services.builder.read.site(siteId);
    if (!site) throw new Error('site missing from its inline projection after commit');
    return site;
  },
});
