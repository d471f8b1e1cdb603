import { draftDocumentSchema, notFound } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { siteForRead } from './resolve-site.js';
import { draftEventOrNone, draftStepsAt } from './draft-steps.js';
import { draftOutput, siteIdInput } from './schemas.js';

export const readDraft = defineBuilderOperation({
  name: 'svc.builder.read_draft',
  title: 'Read the draft',
  description:
    "A site's draft: the structured document (pages of typed blocks, navigation, footer) and its revision, which save_draft must be given back; canUndo and canRedo say whether undo_draft and redo_draft have a step to take. " +
    'With `revision`, the draft as it was at that earlier revision (every save, undo and redo is kept; `updatedAt` is when it was saved): what an editor reads to say what an undo or a redo changed.',
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
  }),
  output: draftOutput,
  async run(ctx, input) {
    const found = await siteForRead(ctx, input.siteId);
    const draft = found.draft ?? (await ctx.services.builder.read.draft(found.site.siteId));
    if (!draft) throw new Error('a site without its draft in the read model');
    if (input.revision === undefined || input.revision === draft.revision)
      return { ...draft, ...(await draftStepsAt(ctx, draft.siteId, draft.revision)) };
    // A default site shown as it will be created has its revision 1 only, and nothing is stored yet.
    const saved =
      input.revision < draft.revision && !found.draft
        ? await draftEventOrNone(ctx, draft.siteId, input.revision)
        : undefined;
    if (!saved)
      throw notFound('builder.revision_not_found', `the draft has no revision ${input.revision}`, {
        currentRevision: draft.revision,
      });
    return {
      siteId: draft.siteId,
      revision: input.revision,
      document: draftDocumentSchema.parse(saved.data.document),
      updatedAt: saved.occurredAt,
      ...(await draftStepsAt(ctx, draft.siteId, input.revision)),
    };
  },
});
