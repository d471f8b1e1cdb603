// A plan as its read model holds it, shaped for the person: its status, its steps and their outcomes.
import { planStatus, type PlanState } from '@tributary/domain';
import type { PlanView } from './ports/assistant-read-models.js';

export function planStatusOf(plan: PlanView, now: Date) {
  const state: PlanState = {
    exists: true,
    planId: plan.planId,
    steps: plan.steps,
    expiresAt: plan.expiresAt,
    ...(plan.confirmedHash && { confirmedHash: plan.confirmedHash }),
    status: new Map(plan.steps.map((s) => [s.step, s.status])),
  };
  return {
    planId: plan.planId,
    hash: plan.hash,
    actingAgentId: plan.actingAgentId,
    expiresAt: plan.expiresAt,
    proposedAt: plan.proposedAt,
    confirmedAt: plan.confirmedAt,
    status: planStatus(state, now),
    steps: plan.steps.map((s) => ({
      step: s.step,
      tool: s.tool,
      title: s.title,
      args: s.args,
      writes: s.writes,
      untrusted: s.untrusted,
      status: s.status,
      errorCode: s.errorCode,
      summary: s.summary,
      events: s.events,
    })),
  };
}
