import { draftDocumentSchema, lastChangedBlocks, notFound, type DraftDocument } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { draftHistory, type DraftHistory } from './draft-lineage.js';
import { draftOutput, siteIdInput } from './schemas.js';

/** How many saves back `lastChanged` looks for a page's newest change. */
const LAST_CHANGED_LOOKBACK = 8;

export const readDraft = defineBuilderOperation({
  name: 'svc.builder.read_draft',
  title: 'Read the draft',
  description:
    "A site's draft: the structured document (pages of typed blocks, navigation, footer) and its revision, which save_draft must be given back; canUndo and canRedo say whether undo_draft and redo_draft have a step to take. " +
    'With `revision`, the draft as it was at that earlier revision (every save, undo and redo is kept; `updatedAt` is when it was saved): what an editor reads to say what an undo or a redo changed. ' +
    'With `lastChanged`, also which block of each page its newest change worked on, looking back ' +
    `${LAST_CHANGED_LOOKBACK} saves: where an editor puts what is added next.`,
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    siteId: siteIdInput,
    revision: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'an earlier revision: the draft as it was then; one the draft has not reached is builder.revision_not_found',
      ),
    lastChanged: z
      .boolean()
      .optional()
      .describe(
        'also answer lastChanged: for each page path, the index of the block its newest change worked on',
      ),
  }),
  output: draftOutput.extend({
    lastChanged: z
      .record(z.string(), z.number().int().min(0))
      .optional()
      .describe(
        `with the input lastChanged: page path → the block its newest change (in the last ${LAST_CHANGED_LOOKBACK} saves) worked on; a page none of them changed is absent`,
      ),
  }),
  async run(ctx, input) {
    const found = await siteForRead(ctx, input.siteId);
    const draft = found.draft ?? (await ctx.services.builder.read.draft(found.site.siteId));
    if (!draft) throw new Error('a site without its draft in the read model');
    // One read of the draft's stream answers it all: from the oldest save lastChanged looks back on (or
    // the revision asked for) to the head, which holds that revision's own save and its undo and redo
    // links. A default site not created yet has nothing stored: no saves to look back on.
    const history = draftHistory(ctx, draft.siteId);
    const lookBack = (revision: number) =>
      input.lastChanged && !found.draft
        ? history.at(Math.max(1, revision - LAST_CHANGED_LOOKBACK))
        : undefined;
    const answer = async (
      revision: number,
      document: DraftDocument,
    ): Promise<{ canUndo: boolean; canRedo: boolean; lastChanged?: Record<string, number> }> => {
      await lookBack(revision);
      const { undoTo, redoTo } = await history.links(revision);
      const steps = { canUndo: undoTo !== null, canRedo: redoTo !== null };
      if (!input.lastChanged) return steps;
      return {
        ...steps,
        lastChanged: found.draft ? {} : await lastChangedAt(history, revision, document),
      };
    };
    if (input.revision === undefined || input.revision === draft.revision)
      return { ...draft, ...(await answer(draft.revision, draft.document)) };
    // A default site shown as it will be created has its revision 1 only, and nothing is stored yet.
    const reached = input.revision < draft.revision && !found.draft;
    if (reached) await lookBack(input.revision);
    const saved = reached ? await history.at(input.revision) : undefined;
    if (!saved)
      throw notFound('builder.revision_not_found', `the draft has no revision ${input.revision}`, {
        currentRevision: draft.revision,
      });
    const document = draftDocumentSchema.parse(saved.data.document);
    return {
      siteId: draft.siteId,
      revision: input.revision,
      document,
      updatedAt: saved.occurredAt,
      ...(await answer(input.revision, document)),
    };
  },
});

/**
 * lastChanged at `revision` (whose document is `document`): the saves before it, from the draft's history
 * as already read (read_draft reads them in the same go as the revision itself).
 */
async function lastChangedAt(
  history: DraftHistory,
  revision: number,
  document: DraftDocument,
): Promise<Record<string, number>> {
  const oldest = Math.max(1, revision - LAST_CHANGED_LOOKBACK);
  const documents: DraftDocument[] = [document];
  for (let r = revision - 1; r >= oldest; r--) {
    const parsed = draftDocumentSchema.safeParse((await history.at(r))?.data.document);
    if (!parsed.success) break;
    documents.push(parsed.data);
  }
  return lastChangedBlocks(documents);
}
