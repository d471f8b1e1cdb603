import { decideVersion, notFound, pagePathSchema, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { previewUrl } from './preview-access.js';
import { pageFilePath } from './render/html.js';
import { commitOnSite, renderDraft, storeFiles } from './render-version.js';
import { resolveSite } from './resolve-site.js';

export const previewSite = defineBuilderOperation({
  name: 'svc.builder.preview',
  title: 'Preview a site',
  description:
    'Render the site’s current draft into a candidate version (the same content reuses the version it ' +
    'already has) and answer a short-lived preview URL serving exactly its stored bytes, with the HTML ' +
    'of the page asked for. Publishing this draft later serves the same bytes.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('one of your sites; defaults to your default site'),
    path: pagePathSchema.default('/').describe('the page whose HTML to answer (default /)'),
  }),
  output: z.object({
    siteId: z.string(),
    versionId: z.string(),
    manifestHash: z.string(),
    draftRevision: z.number(),
    /** Whether the site had a version of this content already. */
    reused: z.boolean(),
    previewUrl: z.string(),
    expiresAt: z.string(),
    path: z.string(),
    html: z.string(),
  }),
  async run(ctx, input) {
    const site = await resolveSite(ctx, input.siteId);
    const rendered = await renderDraft(ctx, site);
    const page = rendered.files.find((f) => f.path === pageFilePath(input.path));
    if (!page?.bytes) throw notFound('builder.page_not_found', 'the draft has no page at this path');
    await storeFiles(ctx.services.builder.blobs, rendered.files);
    const { decision } = await commitOnSite(ctx, site.siteId, (state) =>
      decideVersion({ ownerAgentId: ctx.actor.agentId, rendered }, state),
    );
    const url = previewUrl(ctx, { siteId: site.siteId, versionId: decision.versionId }, input.path);
    return {
      siteId: site.siteId,
      versionId: decision.versionId,
      manifestHash: rendered.manifestHash,
      draftRevision: rendered.draftRevision,
      reused: decision.reused,
      previewUrl: url.href,
      expiresAt: url.expiresAt,
      path: input.path,
      html: page.bytes.toString('utf8'),
    };
  },
});
