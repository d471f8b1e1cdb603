import { decidePublish, siteSuspendedError, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineOperation } from '../pipeline/operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { commitOnSite, renderDraft, storeFiles } from './render-version.js';
import { resolveSite } from './resolve-site.js';

export const publishSite = defineOperation({
  name: 'svc.builder.publish',
  title: 'Publish a site',
  description:
    'Publish the site’s current draft: its version (rendered and stored first if the site has none with ' +
    'this content) becomes the one the site serves. Publishing what is already published changes ' +
    'nothing. A suspended site cannot publish.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('one of your sites; defaults to your default site'),
  }),
  output: z.object({
    siteId: z.string(),
    versionId: z.string(),
    manifestHash: z.string(),
    draftRevision: z.number(),
    /** Whether the site had a version of this content already (then nothing was rendered anew). */
    reused: z.boolean(),
    /** False when this version was already the published one (nothing changed). */
    published: z.boolean(),
  }),
  async run(ctx, input) {
    const site = await resolveSite(ctx, input.siteId);
    // Refused before any rendering; the decider refuses again against the stream itself.
    if (site.suspendedReason !== null) throw siteSuspendedError(site.suspendedReason);
    const rendered = await renderDraft(ctx, site);
    await storeFiles(ctx.services.builder.blobs, rendered.files);
    const { decision } = await commitOnSite(ctx, site.siteId, (state) =>
      decidePublish({ ownerAgentId: ctx.actor.agentId, rendered }, state),
    );
    return {
      siteId: site.siteId,
      versionId: decision.versionId,
      manifestHash: rendered.manifestHash,
      draftRevision: rendered.draftRevision,
      reused: decision.reused,
      published: decision.events.some((e) => e.type === 'site.published'),
    };
  },
});
