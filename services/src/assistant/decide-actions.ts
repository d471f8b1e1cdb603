import { fold, liveThreadOf, notFound, threadStream, type ThreadState } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { cancelPlan, confirmAndRun, ownerOf } from './run-plan.js';
import { doneReply } from './done-reply.js';
import { liveSitesOf } from './live-sites.js';
import { stepsSchema } from './schemas.js';

export const decideActions = defineAssistantOperation({
  name: 'svc.assistant.decide_actions',
  title: 'Confirm or cancel a message’s actions',
  description:
    'Confirms or cancels the actions an assistant message proposes: all its pending steps, or those ' +
    'named. A confirmation runs the confirmed steps now, as svc.assistant.confirm_plan does, and answers ' +
    'what became of every step; the pending steps not named are cancelled. Give `planHash` to be sure the ' +
    'plan is still the one you were shown.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    threadId: z.string().min(1).max(100),
    messageId: z.string().min(1).max(100),
    decision: z.enum(['confirm', 'cancel']),
    steps: stepsSchema.optional(),
    planHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  }),
  async run(ctx, input) {
    const owner = ownerOf(ctx.principal);
    const tStream = threadStream(input.threadId);
    const thread = liveThreadOf(
      fold<ThreadState>(tStream, await ctx.services.store.readStream(tStream)),
      owner,
    );
    const planId = thread.messages.get(input.messageId);
    if (!planId)
      throw notFound('assistant.message_not_found', 'the thread has no such message, or it proposes no plan');
    const report =
      input.decision === 'confirm'
        ? await confirmAndRun(ctx, planId, { hash: input.planHash, steps: input.steps })
        : await cancelPlan(ctx, planId, { hash: input.planHash, steps: input.steps });
    return { ...report, reply: doneReply(report.steps, await liveSitesOf(ctx, report.steps)) };
  },
});
