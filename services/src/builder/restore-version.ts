import {
  decideRestoreVersion,
  draftDocumentSchema,
  draftStale,
  isDomainError,
  siteDraftStream,
  siteStream,
  uuidSchema,
  type DraftState,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation, type BuilderOperationContext } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { requireDraftSize, requireKnownReferences, requireSafeContent } from './check-draft.js';
import { findVersion } from './find-version.js';
import { publicationStateOf, publicationStateOutput } from './publication-state.js';

/** The draft document a version was rendered from: the draft stream's event at that revision. */
export async function documentAt(ctx: BuilderOperationContext, siteId: string, revision: number) {
  const stream = siteDraftStream(siteId);
  const events = (await ctx.services.store.readStreams([stream], new Map([[stream, revision - 1]]))).get(
    stream,
  );
  const saved = events?.find((e) => e.streamVersion === revision && e.type === 'site.draft_saved');
  if (!saved) throw new Error(`site ${siteId}: no draft revision ${revision} in its draft stream`);
  return draftDocumentSchema.parse(saved.data.document);
}

export const restoreVersion = defineBuilderOperation({
  name: 'svc.builder.restore_version',
  title: 'Restore a version into the draft',
  description:
    'Put the content of a published version back into the site’s draft, as a new draft revision (the ' +
    'newer draft stays in the draft’s history). Use it after a rollback, so the next publish does not ' +
    'bring the newer draft back online. The site’s settings (title, theme) are not part of the draft ' +
    'and stay as they are. A version that was only a preview is refused (builder.version_not_published); ' +
    'with `revision`, a draft that moved on since is builder.draft_stale; a draft that already holds ' +
    'this content is left as it is.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: uuidSchema.optional().describe('the site; by default the one of yours that has this version'),
    versionId: uuidSchema.describe('the published version whose content to restore'),
    revision: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('the draft revision you are replacing (default: the current one)'),
  }),
  output: z.object({
    siteId: z.string(),
    versionId: z.string(),
    /** The draft's revision after the restore. */
    revision: z.number().int(),
    /** False when the draft already held this content (nothing was saved). */
    restored: z.boolean(),
    state: publicationStateOutput,
  }),
  async run(ctx, input) {
    const version = await findVersion(ctx, input.versionId, input.siteId);
    const { siteId } = version;
    const read = ctx.services.builder.read;
    const current = await read.draft(siteId);
    const revision = input.revision ?? current?.revision ?? 0;
    const document = await documentAt(ctx, siteId, version.draftRevision);
    // What it names is checked again: a picture or form deleted since cannot come back into the draft.
    requireDraftSize(document);
    requireSafeContent(document);
    await requireKnownReferences(ctx, document);
    const site = siteStream(siteId);
    const draft = siteDraftStream(siteId);
    let restored = false;
    try {
      // The restore is kept on the site's stream too (its history): a preview or publish appended there
      // meanwhile is no reason to refuse, so it decides again; a draft that moved is draft_stale then.
      await ctx.commit(
        [site, draft],
        (states) => {
          const events = decideRestoreVersion(
            { ownerAgentId: ctx.actor.agentId, versionId: version.versionId, revision, document },
            { site: states.get(site) as SiteState, draft: states.get(draft) as DraftState },
          );
          restored = events.length > 0;
          return events;
        },
        { retries: 2 },
      );
    } catch (e) {
      if (isDomainError(e) && e.code === 'log.stream_conflict') {
        const now = await read.draft(siteId);
        throw draftStale(now?.revision ?? revision + 1);
      }
      throw e;
    }
    const [saved, view] = await Promise.all([read.draft(siteId), read.site(siteId)]);
    if (!saved || !view) throw new Error('site or draft missing from its inline projection after commit');
    return {
      siteId,
      versionId: version.versionId,
      revision: saved.revision,
      restored,
      state: await publicationStateOf(ctx, view),
    };
  },
});
