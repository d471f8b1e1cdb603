import { decideMarkSubmissionsSeen, formStream, type FormState } from '@tributary/domain';
import { z } from 'zod';
import { defineBuilderOperation } from './builder-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { formAfterWrite, formIdSchema, ownedForm } from './form-views.js';

// A write of its own, not a side effect of list_submissions: a read must never write (the assistant runs
// reads unconfirmed), and an agent listing submissions has not shown them to the person. The submissions
// page calls it for what it shows; `through` is the newest submission shown, so one that arrives while
// the page is open stays unread.
export const markSubmissionsSeen = defineBuilderOperation({
  name: 'svc.builder.mark_submissions_seen',
  title: 'Mark form submissions as seen',
  description:
    'Record that the owner has seen a form’s submissions up to `through` (a receivedAt; by default the ' +
    'newest one): they stop counting as unread (unreadCount in list_forms, the home page and the ' +
    'builder). Seeing the same or older submissions again writes nothing.',
  kind: 'command',
  scopes: ['svc.builder.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({
    targetAgentId,
    formId: formIdSchema,
    through: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('the receivedAt of the newest submission seen; by default the newest there is'),
  }),
  output: z.object({
    formId: z.string(),
    seenThrough: z.string().nullable(),
    unreadCount: z.number().int(),
  }),
  async run(ctx, input) {
    const form = await ownedForm(ctx, input.formId);
    const through =
      input.through ??
      (await ctx.services.builder.read.submissionsOf(form.formId, { limit: 1 }))[0]?.receivedAt;
    if (through !== undefined) {
      const stream = formStream(form.formId);
      await ctx.commit([stream], (states) =>
        decideMarkSubmissionsSeen(
          { ownerAgentId: ctx.actor.agentId, through: new Date(through).toISOString() },
          states.get(stream) as FormState,
        ),
      );
    }
    const now = await formAfterWrite(ctx, form.formId);
    return { formId: now.formId, seenThrough: now.seenThrough, unreadCount: now.unreadCount };
  },
});
