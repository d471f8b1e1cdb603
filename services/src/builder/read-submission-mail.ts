import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { submissionMailOutput, submissionMailView } from './submission-mail-views.js';

export const readSubmissionMail = defineBuilderOperation({
  name: 'svc.builder.read_submission_mail',
  title: 'Read the mail settings for new form submissions',
  description:
    'Whether new submissions to your forms are mailed to you (and if not, why: no mail server here, no address, ' +
    'or not verified), the quiet time that batches them, and the setting of each of your sites and forms ' +
    '(on unless turned off; a submission is mailed only while both its site and its form are on).',
  kind: 'query',
  scopes: ['svc.builder.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: submissionMailOutput,
  async run(ctx) {
    return submissionMailView(ctx);
  },
});
