import {
  decideSaveDraft,
  draftDocumentSchema,
  draftStale,
  isDomainError,
  siteDraftStream,
  siteStream,
  type DraftState,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { linkRefusal, requireDraftSize, requireKnownReferences, requireSafeContent } from './check-draft.js';
import { resolveSite } from './resolve-site.js';
import { siteIdInput } from './schemas.js';

export const saveDraft = defineBuilderOperation({
  name: 'svc.builder.save_draft',
  title: 'Save the draft',
  description:
    "Replace a site's draft with a new document, over the revision it was edited from: if the draft has moved on since, nothing is saved and the answer is builder.draft_stale with the current revision. Links are http(s), mailto: or a /path of the site (a bare email address is saved as a mailto: link, a bare www. address as an https:// one; any other link is builder.link_invalid naming it); text blocks and the footer hold a Markdown subset without raw HTML.",
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    revision: z.number().int().min(0).describe('the draft revision this document was edited from'),
    document: draftDocumentSchema,
  }),
  output: z.object({ siteId: z.string(), revision: z.number().int(), updatedAt: z.string() }),
  inputRefusal: linkRefusal,
  async run(ctx, input) {
    // What the document holds is checked before anything is read or written.
    requireDraftSize(input.document);
    requireSafeContent(input.document);
    await requireKnownReferences(ctx, input.document);
    const { siteId } = await resolveSite(ctx, input.siteId);
    const site = siteStream(siteId);
    const draft = siteDraftStream(siteId);
    try {
      await ctx.commit([site, draft], (states) =>
        decideSaveDraft(
          { ownerAgentId: ctx.actor.agentId, revision: input.revision, document: input.document },
          { site: states.get(site) as SiteState, draft: states.get(draft) as DraftState },
        ),
      );
    } catch (e) {
      // Another save won the append between our read and our write: the same answer as a stale read.
      if (isDomainError(e) && e.code === 'log.stream_conflict') {
        const current = await ctx.services.builder.read.draft(siteId);
        throw draftStale(current?.revision ?? input.revision + 1);
      }
      throw e;
    }
    const saved = await ctx.services.builder.read.draft(siteId);
    if (!saved) throw new Error('draft missing from its inline projection after commit');
    return { siteId, revision: saved.revision, updatedAt: saved.updatedAt };
  },
});
