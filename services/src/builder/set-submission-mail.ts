import { decideSetSubmissionMail, invalid, submissionMailStream, uuidSchema } from '@tributary/domain';
import type { SubmissionMailSettingState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { ownedForm } from './form-views.js';
import { resolveSite } from './resolve-site.js';
import { submissionMailOutput, submissionMailView } from './submission-mail-views.js';

export const setSubmissionMail = defineBuilderOperation({
  name: 'svc.builder.set_submission_mail',
  title: 'Turn mail about new form submissions on or off',
  description:
    'For one of your sites (siteId) or one of your forms (formId): whether a new submission through it is ' +
    'mailed to you. On by default; a submission is mailed only while both its site and its form are on. The ' +
    'same value again writes nothing. Someone else’s site or form is not found.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z
    .strictObject({
      targetAgentId,
      siteId: uuidSchema.optional().describe('a site of yours'),
      formId: uuidSchema.optional().describe('a form of yours'),
      enabled: z.boolean(),
    })
    .refine((v) => (v.siteId === undefined) !== (v.formId === undefined), {
      message: 'give one of siteId, formId',
    }),
  output: submissionMailOutput,
  async run(ctx, input) {
    const target = input.formId !== undefined ? ('form' as const) : ('site' as const);
    const targetId =
      target === 'form'
        ? (await ownedForm(ctx, input.formId!)).formId
        : (await resolveSite(ctx, input.siteId)).siteId;
    if (!targetId) throw invalid('input.invalid', 'give one of siteId, formId');
    const stream = submissionMailStream(target, targetId);
    await ctx.commit([stream], (states) =>
      decideSetSubmissionMail(
        { target, targetId, ownerAgentId: ctx.actor.agentId, enabled: input.enabled },
        states.get(stream) as SubmissionMailSettingState,
      ),
    );
    return submissionMailView(ctx);
  },
});
