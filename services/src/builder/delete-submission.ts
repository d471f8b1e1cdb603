import {
  decideDeleteSubmission,
  formStream,
  notFound,
  submissionStream,
  uuidSchema,
  type FormState,
  type SubmissionState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formIdSchema } from './form-views.js';

export const deleteSubmission = defineBuilderOperation({
  name: 'svc.builder.delete_submission',
  title: 'Delete a form submission',
  description:
    'Delete one submission of a form of the acting agent: it leaves every list and export. (The log is append-only: the private event that carried it stays in it, never federated.)',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    submissionId: uuidSchema,
    formId: formIdSchema.optional().describe('the form it belongs to; when given it must match'),
  }),
  output: z.object({ submissionId: z.string(), formId: z.string(), deleted: z.literal(true) }),
  async run(ctx, input) {
    const found = await ctx.services.builder.read.submission(input.submissionId);
    if (!found || (input.formId !== undefined && found.formId !== input.formId))
      throw notFound('builder.submission_not_found', 'no such submission');
    const form = formStream(found.formId);
    const submission = submissionStream(input.submissionId);
    // Only the submission's stream is written; the form's is read to check who owns it.
    await ctx.commit([form, submission], (states) =>
      decideDeleteSubmission(
        { ownerAgentId: ctx.actor.agentId, submissionId: input.submissionId },
        states.get(form) as FormState,
        states.get(submission) as SubmissionState,
      ),
    );
    return { submissionId: input.submissionId, formId: found.formId, deleted: true as const };
  },
});
