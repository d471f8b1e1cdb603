// The plan aggregate (stream `aplan-<planId>`): the steps an assistant message proposes, the person's
// decision on them, and what became of each step. The rules that make a plan safe live here:
// a step runs only once it is confirmed, exactly as confirmed, and at most once
// (docs/assistant.md#plans).
import type { NewEvent } from '../shared/envelope.js';
import { conflict, DomainError, invalid, notFound } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AssistantEventData as EventData, PlanStep, StepOutcome } from './events.js';
import { ASSISTANT_LIMITS } from './limits.js';
import { planStream } from './streams.js';

export type StepStatus = 'pending' | 'confirmed' | 'cancelled' | StepOutcome;

export interface PlanState {
  exists: boolean;
  planId?: string;
  threadId?: string;
  messageId?: string;
  ownerAgentId?: string;
  actingAgentId?: string;
  steps: readonly PlanStep[];
  hash?: string;
  expiresAt?: string;
  /** Set once the plan is confirmed: its hash as confirmed. */
  confirmedHash?: string;
  status: ReadonlyMap<number, StepStatus>;
}
export const initialPlanState = (): PlanState => ({ exists: false, steps: [], status: new Map() });

export function evolvePlan(state: PlanState, event: StoredEventLike): PlanState {
  switch (event.type) {
    case 'assistant.plan_proposed': {
      const d = event.data as EventData<'assistant.plan_proposed'>;
      return {
        exists: true,
        planId: d.planId,
        threadId: d.threadId,
        messageId: d.messageId,
        ownerAgentId: d.ownerAgentId,
        actingAgentId: d.actingAgentId,
        steps: d.steps,
        hash: d.hash,
        expiresAt: d.expiresAt,
        status: new Map(d.steps.map((s) => [s.step, 'pending' as StepStatus])),
      };
    }
    case 'assistant.plan_confirmed': {
      const d = event.data as EventData<'assistant.plan_confirmed'>;
      const chosen = new Set(d.steps);
      const status = new Map(state.status);
      for (const [n, s] of status)
        if (s === 'pending') status.set(n, chosen.has(n) ? 'confirmed' : 'cancelled');
      return { ...state, confirmedHash: d.hash, status };
    }
    case 'assistant.plan_cancelled': {
      const d = event.data as EventData<'assistant.plan_cancelled'>;
      const status = new Map(state.status);
      for (const n of d.steps) if (status.get(n) === 'pending') status.set(n, 'cancelled');
      return { ...state, status };
    }
    case 'assistant.plan_step_finished': {
      const d = event.data as EventData<'assistant.plan_step_finished'>;
      const status = new Map(state.status);
      status.set(d.step, d.status);
      return { ...state, status };
    }
    default:
      return state;
  }
}

/** What a plan's hash covers: everything that decides what runs, as whom. */
export function planHashInput(plan: {
  planId: string;
  threadId: string;
  messageId: string;
  actingAgentId: string;
  expiresAt: string;
  steps: readonly Pick<PlanStep, 'step' | 'tool' | 'args'>[];
}) {
  return {
    planId: plan.planId,
    threadId: plan.threadId,
    messageId: plan.messageId,
    actingAgentId: plan.actingAgentId,
    expiresAt: plan.expiresAt,
    steps: plan.steps.map((s) => ({ step: s.step, tool: s.tool, args: s.args })),
  };
}

type LivePlan = PlanState & {
  planId: string;
  ownerAgentId: string;
  actingAgentId: string;
  hash: string;
  expiresAt: string;
};

/** A plan of this owner; an unknown one and someone else's look alike. */
export function planOf(state: PlanState, ownerAgentId: string): LivePlan {
  if (!state.exists || state.ownerAgentId !== ownerAgentId || !state.planId)
    throw notFound('assistant.plan_not_found', 'no such plan');
  return state as LivePlan;
}

/** Where a plan stands, as the person sees it. */
export function planStatus(
  state: PlanState,
  now: Date,
): 'proposed' | 'expired' | 'cancelled' | 'confirmed' | 'completed' | 'failed' {
  const statuses = [...state.status.values()];
  if (statuses.includes('failed')) return 'failed';
  if (state.confirmedHash) {
    return statuses.some((s) => s === 'confirmed') ? 'confirmed' : 'completed';
  }
  if (statuses.every((s) => s === 'cancelled')) return 'cancelled';
  if (state.expiresAt && now >= new Date(state.expiresAt)) return 'expired';
  return 'proposed';
}

interface ProposePlan {
  planId: string;
  threadId: string;
  messageId: string;
  ownerAgentId: string;
  actingAgentId: string;
  steps: PlanStep[];
  hash: string;
  expiresAt: string;
}

export function decideProposePlan(state: PlanState, cmd: ProposePlan): NewEvent[] {
  if (state.exists) throw new DomainError('log.stream_conflict', 'conflict', 'the plan already exists');
  if (cmd.steps.length > ASSISTANT_LIMITS.planMaxSteps)
    throw new DomainError('assistant.plan_too_large', 'too_large', 'the plan has too many steps', {
      limit: ASSISTANT_LIMITS.planMaxSteps,
    });
  cmd.steps.forEach((s, i) => {
    if (s.step !== i + 1) throw invalid('input.invalid', 'plan steps are numbered 1, 2, 3, … in order');
  });
  return [{ stream: planStream(cmd.planId), type: 'assistant.plan_proposed', data: { ...cmd } }];
}

interface DecidePlan {
  ownerAgentId: string;
  /** The hash the person confirmed; when given it must be the plan's. */
  hash?: string | undefined;
  /** The steps chosen; all pending steps when absent. */
  steps?: readonly number[] | undefined;
  now: Date;
}

function chosenSteps(plan: LivePlan, steps: readonly number[] | undefined): number[] {
  const pending = [...plan.status].filter(([, s]) => s === 'pending').map(([n]) => n);
  if (!steps) {
    if (pending.length === 0)
      throw conflict('assistant.plan_cancelled', 'every step of the plan was cancelled');
    return pending;
  }
  const unique = [...new Set(steps)].sort((a, b) => a - b);
  if (unique.length === 0) throw invalid('assistant.step_unknown', 'name at least one step');
  for (const n of unique) {
    const s = plan.status.get(n);
    if (s === undefined) throw invalid('assistant.step_unknown', `the plan has no step ${n}`, { step: n });
    if (s === 'cancelled') throw conflict('assistant.plan_cancelled', `step ${n} was cancelled`, { step: n });
    if (s !== 'pending')
      throw conflict('assistant.plan_already_confirmed', `step ${n} was already confirmed`, { step: n });
  }
  return unique;
}

function checkOpen(plan: LivePlan, cmd: DecidePlan): void {
  if (cmd.hash !== undefined && cmd.hash !== plan.hash)
    throw conflict('assistant.plan_altered', 'the plan hash does not match the plan as proposed');
  if (plan.confirmedHash)
    throw conflict('assistant.plan_already_confirmed', 'the plan was already confirmed');
  const statuses = [...plan.status.values()];
  if (statuses.every((s) => s === 'cancelled'))
    throw conflict('assistant.plan_cancelled', 'the plan was cancelled');
  if (cmd.now >= new Date(plan.expiresAt))
    throw conflict('assistant.plan_expired', 'the plan expired', { expiresAt: plan.expiresAt });
}

/** Confirms the chosen steps (all pending ones by default); the other pending steps are cancelled. */
export function decideConfirmPlan(
  state: PlanState,
  cmd: DecidePlan & { confirmedByAgentId: string; via: 'http' | 'mcp' | 'assistant' },
): NewEvent[] {
  const plan = planOf(state, cmd.ownerAgentId);
  checkOpen(plan, cmd);
  const steps = chosenSteps(plan, cmd.steps);
  return [
    {
      stream: planStream(plan.planId),
      type: 'assistant.plan_confirmed',
      data: { hash: plan.hash, steps, confirmedByAgentId: cmd.confirmedByAgentId, via: cmd.via },
    },
  ];
}

/** Cancels the chosen steps (all pending ones by default) of a plan not yet confirmed. */
export function decideCancelPlan(state: PlanState, cmd: DecidePlan): NewEvent[] {
  const plan = planOf(state, cmd.ownerAgentId);
  if (cmd.hash !== undefined && cmd.hash !== plan.hash)
    throw conflict('assistant.plan_altered', 'the plan hash does not match the plan as proposed');
  if (plan.confirmedHash)
    throw conflict('assistant.plan_already_confirmed', 'the plan was already confirmed');
  const steps = chosenSteps(plan, cmd.steps);
  return [{ stream: planStream(plan.planId), type: 'assistant.plan_cancelled', data: { steps } }];
}

/**
 * The step to run next, checked: the plan is confirmed, with the hash it was proposed with, and this step
 * is confirmed and not yet finished. The step is returned exactly as the log holds it.
 */
export function confirmedStep(state: PlanState, ownerAgentId: string, step: number): PlanStep {
  const plan = planOf(state, ownerAgentId);
  if (!plan.confirmedHash)
    throw conflict('assistant.step_not_confirmed', 'the plan was not confirmed', { step });
  if (plan.confirmedHash !== plan.hash)
    throw conflict('assistant.plan_altered', 'the plan was not confirmed as proposed');
  const s = plan.status.get(step);
  if (s === undefined) throw invalid('assistant.step_unknown', `the plan has no step ${step}`, { step });
  if (s === 'ran' || s === 'failed' || s === 'skipped')
    throw conflict('assistant.step_already_finished', `step ${step} has already finished`, {
      step,
      status: s,
    });
  if (s !== 'confirmed')
    throw conflict('assistant.step_not_confirmed', `step ${step} was not confirmed`, { step });
  const found = plan.steps.find((x) => x.step === step);
  if (!found) throw invalid('assistant.step_unknown', `the plan has no step ${step}`, { step });
  return found;
}

interface FinishStep {
  ownerAgentId: string;
  step: number;
  status: StepOutcome;
  errorCode?: string | undefined;
  summary: string;
  events: EventData<'assistant.plan_step_finished'>['events'];
}

/** Records what became of a confirmed step; refused when it already finished (so it runs at most once). */
export function decideFinishStep(state: PlanState, cmd: FinishStep): NewEvent[] {
  const step = confirmedStep(state, cmd.ownerAgentId, cmd.step);
  return [
    {
      stream: planStream(state.planId!),
      type: 'assistant.plan_step_finished',
      data: {
        step: cmd.step,
        tool: step.tool,
        status: cmd.status,
        ...(cmd.errorCode && { errorCode: cmd.errorCode }),
        summary: cmd.summary.slice(0, 2_000),
        events: cmd.events,
      },
    },
  ];
}
