import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import {
  cursorOf,
  cursorSchema,
  formIdSchema,
  ownedForm,
  submissionOutput,
  SUBMISSIONS_PAGE,
} from './form-views.js';

export const listSubmissions = defineBuilderOperation({
  name: 'svc.builder.list_submissions',
  title: 'List form submissions',
  description: `The submissions of a form of the acting agent, newest first, ${SUBMISSIONS_PAGE.default} a page by default (at most ${SUBMISSIONS_PAGE.max}); pass nextCursor back as cursor for the next page (null when there is none).`,
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    formId: formIdSchema,
    limit: z.coerce.number().int().min(1).max(SUBMISSIONS_PAGE.max).default(SUBMISSIONS_PAGE.default),
    cursor: cursorSchema.optional(),
  }),
  output: z.object({
    formId: z.string(),
    submissions: z.array(submissionOutput),
    nextCursor: z.string().nullable(),
  }),
  async run(ctx, input) {
    await ownedForm(ctx, input.formId);
    // One more than asked says whether another page follows.
    const rows = await ctx.services.builder.read.submissionsOf(input.formId, {
      limit: input.limit + 1,
      ...(input.cursor && { after: input.cursor }),
    });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      formId: input.formId,
      submissions: page,
      nextCursor: rows.length > input.limit && last ? cursorOf(last) : null,
    };
  },
});
