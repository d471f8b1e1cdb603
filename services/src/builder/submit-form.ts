// A visitor's submission to a form on a published site (docs/builder.md#forms-and-submissions). Reached
// only from the site server's POST /_forms/<formId> on the site's origin, never as a tool or at /api/ops.
// The principal is anonymous and the event is written by the instance (its primary agent), as a sign-up
// is: a submission is data addressed to the form's owner, never authority — it can only add one
// submission to the form it names, and the owner alone reads it.
import {
  decideReceiveSubmission,
  DomainError,
  formStream,
  HONEYPOT_FIELD,
  notFound,
  submissionStream,
  uuidSchema,
  type FormState,
  type SubmissionState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';

export const submitForm = defineBuilderOperation({
  name: 'svc.builder.submit_form',
  title: 'Submit a form on a published site',
  description:
    "A visitor's submission to a form the site's published version holds: rate-limited per client and form, checked against the form's fields, kept as a private event for the form's owner. A filled honeypot is answered as a success and keeps nothing.",
  kind: 'command',
  scopes: [],
  enabledFor: [],
  public: true,
  ownEndpoint: true,
  actsForAgent: false,
  input: z.strictObject({
    siteId: z.string().min(1).max(200),
    formId: uuidSchema,
    values: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    /** The site server's digest of the client's address (never the address itself). */
    clientKey: z.string().min(1).max(200),
  }),
  output: z.object({
    formId: z.string(),
    /** Null when nothing was kept (a honeypot). */
    submissionId: z.string().nullable(),
    successMessage: z.string(),
  }),
  async run(ctx, input) {
    const read = ctx.services.builder.read;
    const status = await read.siteFormStatus(input.siteId, input.formId);
    if (status.state === 'suspended')
      throw new DomainError('builder.site_suspended', 'forbidden', 'the site is suspended', {
        reason: status.reason,
      });
    const form = status.state === 'accepting' ? await read.form(input.formId) : null;
    if (!form) throw notFound('builder.form_not_found', 'no such form on this site');
    const wait = ctx.services.builder.submissionLimiter.take(`${input.formId}:${input.clientKey}`, ctx.now);
    if (wait > 0)
      throw new DomainError('builder.submission_rate_limited', 'rate_limited', 'too many submissions', {
        retryAfter: wait,
      });
    // A bot that fills the field people never see is told it succeeded, and nothing is kept.
    const honeypot = input.values[HONEYPOT_FIELD];
    if (honeypot !== undefined && (typeof honeypot !== 'string' || honeypot.trim() !== ''))
      return { formId: form.formId, submissionId: null, successMessage: form.successMessage };
    const submissionId = ctx.services.ids.eventId();
    const fStream = formStream(form.formId);
    const sStream = submissionStream(submissionId);
    await ctx.commit([fStream, sStream], (states) =>
      decideReceiveSubmission(
        {
          submissionId,
          siteId: input.siteId,
          values: input.values,
          receivedAt: ctx.now.toISOString(),
        },
        states.get(fStream) as FormState,
        states.get(sStream) as SubmissionState,
      ),
    );
    return { formId: form.formId, submissionId, successMessage: form.successMessage };
  },
});
