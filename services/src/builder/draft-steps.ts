// What undo_draft and redo_draft share (docs/builder.md#undo): reading a revision of the draft's history,
// its undo and redo links, and taking one step as a new revision over the one the editor is on.
import {
  conflict,
  decideStepDraft,
  draftDocumentSchema,
  draftLinksOf,
  draftStale,
  isDomainError,
  siteDraftStream,
  siteStream,
  stepTarget,
  uuidSchema,
  type DraftState,
  type DraftStep,
  type SiteState,
} from '@tributary/domain';
import { z } from 'zod';
import type { BuilderOperationContext } from './builder-operation.js';
import { requireDraftSize, requireKnownReferences, requireSafeContent } from './check-draft.js';
import { draftHistory, restoreAt, stateOf } from './draft-lineage.js';
import { resolveSite } from './resolve-site.js';
import { targetAgentId } from '../shared/schemas.js';

/** The `site.draft_saved` at one revision of a site's draft (its stream version), if the draft has it. */
export async function draftEventOrNone(ctx: BuilderOperationContext, siteId: string, revision: number) {
  const stream = siteDraftStream(siteId);
  const events = (await ctx.services.store.readStreams([stream], new Map([[stream, revision - 1]]))).get(
    stream,
  );
  return events?.find((e) => e.streamVersion === revision && e.type === 'site.draft_saved');
}

/**
 * Whether the draft at `revision` has a step back and a step forward. A default site shown before it
 * is created (read_draft creates nothing) has no history yet.
 */
export async function draftStepsAt(ctx: BuilderOperationContext, siteId: string, revision: number) {
  const saved = revision >= 1 ? await draftEventOrNone(ctx, siteId, revision) : undefined;
  if (!saved) return { canUndo: false, canRedo: false };
  const links = draftLinksOf(saved);
  return { canUndo: links.undoTo !== null, canRedo: links.redoTo !== null };
}

export const stepDraftInput = z.strictObject({
  targetAgentId,
  siteId: uuidSchema.optional().describe("the site; defaults to the owner's default site"),
  revision: z
    .number()
    .int()
    .min(1)
    .describe(
      'the draft revision you are on: if the draft moved on since, nothing changes (builder.draft_stale)',
    ),
});

export const undoDraftInput = stepDraftInput.extend({
  undoRestore: z
    .boolean()
    .optional()
    .describe(
      'true to undo even when the step takes back a restore of a published version into the draft ' +
        '(without it, that undo is refused with builder.undo_takes_back_restore and nothing changes)',
    ),
});

export const stepDraftOutput = z.object({
  siteId: z.string(),
  /** The draft's new revision. */
  revision: z.number().int(),
  /** The earlier revision whose document the draft now holds. */
  restoredRevision: z.number().int(),
  canUndo: z.boolean(),
  canRedo: z.boolean(),
  updatedAt: z.string(),
  /**
   * The restore of a published version into the draft that this step took back (an undo) or made again
   * (a redo); null when the step was an ordinary change.
   */
  restore: z
    .object({
      versionId: z.string(),
      /** When that version was first published. */
      versionPublishedAt: z.string(),
      /** When it was restored into the draft. */
      restoredAt: z.string(),
    })
    .nullable(),
  /** Whether the draft's content was, before the step, the content the site serves (settings aside). */
  wasOnline: z.boolean(),
  /** Whether it is after the step: an undo past a publish leaves what is online, and says so. */
  isOnline: z.boolean(),
});

/** One step back or forward, saved as a new revision holding the document of the revision it goes to. */
export async function stepDraft(
  ctx: BuilderOperationContext,
  input: z.infer<typeof undoDraftInput>,
  step: DraftStep,
): Promise<z.infer<typeof stepDraftOutput>> {
  const { siteId } = await resolveSite(ctx, input.siteId);
  const read = ctx.services.builder.read;
  const head = await read.draft(siteId);
  if (!head || head.revision !== input.revision) throw draftStale(head?.revision ?? 0);
  const history = draftHistory(ctx, siteId);
  const target = stepTarget(step, { revision: head.revision, ...(await history.links(head.revision)) });
  const at = await history.at(target);
  if (!at) throw new Error(`site ${siteId}: no draft revision ${target} in its draft stream`);
  const document = draftDocumentSchema.parse(at.data.document);
  // The change an undo takes back is the one that made the state the draft is in; a redo makes again
  // the one that made the state it goes to. A restore among them is said, and an undo of it is asked for.
  const changed = await stateOf(history, step === 'undo' ? head.revision : target);
  const restore = await restoreAt(ctx, siteId, changed);
  if (restore && step === 'undo' && input.undoRestore !== true)
    throw conflict(
      'builder.undo_takes_back_restore',
      'this undo would take back the restore of a published version into the draft, bringing back the ' +
        'draft it replaced; undo with undoRestore: true to do it',
      {
        versionId: restore.versionId,
        versionPublishedAt: restore.versionPublishedAt,
        restoredAt: restore.restoredAt,
      },
    );
  const online = await onlineDocument(ctx, siteId, history);
  const wasOnline = online !== null && online === (await history.documentText(head.revision));
  const isOnline = online !== null && online === JSON.stringify(document);
  // What it names is checked again: a picture or form deleted since cannot come back into the draft.
  requireDraftSize(document);
  requireSafeContent(document);
  await requireKnownReferences(ctx, document);
  const site = siteStream(siteId);
  const draft = siteDraftStream(siteId);
  try {
    await ctx.commit([site, draft], (states) =>
      decideStepDraft(
        {
          ownerAgentId: ctx.actor.agentId,
          step,
          revision: input.revision,
          target,
          targetLinks: draftLinksOf(at),
          document,
        },
        { site: states.get(site) as SiteState, draft: states.get(draft) as DraftState },
      ),
    );
  } catch (e) {
    if (isDomainError(e) && e.code === 'log.stream_conflict') {
      const now = await read.draft(siteId);
      throw draftStale(now?.revision ?? input.revision + 1);
    }
    throw e;
  }
  const saved = await read.draft(siteId);
  if (!saved) throw new Error('draft missing from its inline projection after commit');
  return {
    siteId,
    revision: saved.revision,
    restoredRevision: target,
    ...(await draftStepsAt(ctx, siteId, saved.revision)),
    updatedAt: saved.updatedAt,
    restore: restore && {
      versionId: restore.versionId,
      versionPublishedAt: restore.versionPublishedAt,
      restoredAt: restore.restoredAt,
    },
    wasOnline,
    isOnline,
  };
}

/** The content the site serves, as the draft document it was made from (as text), or null if none. */
async function onlineDocument(
  ctx: BuilderOperationContext,
  siteId: string,
  history: ReturnType<typeof draftHistory>,
): Promise<string | null> {
  const site = await ctx.services.builder.read.site(siteId);
  const served = site?.publishedVersionId
    ? await ctx.services.builder.read.version(siteId, site.publishedVersionId)
    : null;
  return served ? history.documentText(served.draftRevision) : null;
}
