import { notFound } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { confirmAndRun, ownerOf } from './run-plan.js';
import { doneReply } from './done-reply.js';
import { liveSitesOf } from './live-sites.js';
import { stepsSchema } from './schemas.js';

export const confirmPlan = defineAssistantOperation({
  name: 'svc.assistant.confirm_plan',
  title: 'Confirm an assistant plan',
  description:
    'Confirms the plan with this hash (all its pending steps, or those named) and runs every confirmed ' +
    'step now, in order, each through the same checks as a tool call of yours, stopping at the first ' +
    'failure (the rest are skipped). Answers what became of every step. Confirming again after an ' +
    'interruption runs only the steps not yet run; nothing runs twice. Your credential must cover every ' +
    'step (assistant.scope_not_covered).',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    planHash: z.string().regex(/^[0-9a-f]{64}$/, 'the plan hash is 64 lowercase hex digits'),
    steps: stepsSchema.optional(),
  }),
  async run(ctx, input) {
    const view = await ctx.services.assistant.read.threads.planByHash(input.planHash);
    if (!view || view.ownerAgentId !== ownerOf(ctx.principal))
      throw notFound('assistant.plan_not_found', 'no such plan');
    const report = await confirmAndRun(ctx, view.planId, { hash: input.planHash, steps: input.steps });
    return { ...report, reply: doneReply(report.steps, await liveSitesOf(ctx, report.steps)) };
  },
});
