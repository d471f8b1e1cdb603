import { invalid, notFound } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { ownerOf, planReport } from './run-plan.js';

export const readPlan = defineAssistantOperation({
  name: 'svc.assistant.read_plan',
  title: 'Read an assistant plan',
  description:
    'A plan of yours, by its id or its hash, as the log holds it: every step with its tool and arguments ' +
    'exactly as they run, and what became of it (pending, confirmed, cancelled, ran, failed, skipped).',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    planId: z.string().min(1).max(100).optional(),
    planHash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
  }),
  async run(ctx, input) {
    if (!input.planId === !input.planHash)
      throw invalid('input.invalid', 'name the plan by planId or planHash');
    const view = input.planId
      ? await ctx.services.assistant.read.threads.plan(input.planId)
      : await ctx.services.assistant.read.threads.planByHash(input.planHash!);
    if (!view || view.ownerAgentId !== ownerOf(ctx.principal))
      throw notFound('assistant.plan_not_found', 'no such plan');
    return planReport(ctx, view.planId);
  },
});
