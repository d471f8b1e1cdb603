import { draftDocumentSchema, lastChangedBlocks, notFound, type DraftDocument } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { draftEventOrNone, draftStepsAt } from './draft-steps.js';
import { draftHistory } from './draft-lineage.js';
import type { BuilderOperationContext } from './builder-operation.js';
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
    // A default site not created yet has no saves to look back on.
    const withLastChanged = async (revision: number, document: DraftDocument) =>
      !input.lastChanged
        ? {}
        : { lastChanged: found.draft ? {} : await lastChangedAt(ctx, draft.siteId, revision, document) };
    if (input.revision === undefined || input.revision === draft.revision)
      return {
        ...draft,
        ...(await draftStepsAt(ctx, draft.siteId, draft.revision)),
        ...(await withLastChanged(draft.revision, draft.document)),
      };
    // A default site shown as it will be created has its revision 1 only, and nothing is stored yet.
    const saved =
      input.revision < draft.revision && !found.draft
        ? await draftEventOrNone(ctx, draft.siteId, input.revision)
        : undefined;
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
      ...(await draftStepsAt(ctx, draft.siteId, input.revision)),
      ...(await withLastChanged(input.revision, document)),
    };
  },
});

/** lastChanged at `revision` (whose document is `document`): the saves before it, read from the log at once. */
async function lastChangedAt(
  ctx: BuilderOperationContext,
  siteId: string,
  revision: number,
  document: DraftDocument,
): Promise<Record<string, number>> {
  const history = draftHistory(ctx, siteId);
  const oldest = Math.max(1, revision - LAST_CHANGED_LOOKBACK);
  // Reading the oldest first reads every later one in the same go.
  await history.at(oldest);
  const documents: DraftDocument[] = [document];
  for (let r = revision - 1; r >= oldest; r--) {
    const parsed = draftDocumentSchema.safeParse((await history.at(r))?.data.document);
    if (!parsed.success) break;
    documents.push(parsed.data);
  }
  return lastChangedBlocks(documents);
}
