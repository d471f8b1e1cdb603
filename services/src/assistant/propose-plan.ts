// A plan, proposed: the one service function that turns tool calls into a plan the person can confirm
// (docs/assistant.md#plans). The chat turn loop calls it and commits the plan in the same commit as the
// thread's events; so do the tests that need a plan without a model. It decides nothing about who may run
// what (the turn loop declines calls first); it fixes what will run, exactly, and hashes it.
import {
  ASSISTANT_LIMITS,
  decideProposePlan,
  DomainError,
  initialPlanState,
  invalid,
  planStream,
  type NewEvent,
  type PlanState,
  type PlanStep,
  type UntrustedMark,
} from '@tributary/domain';
import type { AssistantOperationContext } from './assistant-operation.js';
import { operationNamed } from '../pipeline/operation-lookup.js';
import { planHash } from './plan-hash.js';

/** How long a proposed plan may wait for its confirmation, unless the caller says otherwise. */
export const DEFAULT_PLAN_TTL_SECONDS = 900;

export interface ProposedStep {
  /** A catalogue operation's name (its MCP tool name). */
  tool: string;
  /** The arguments as the model gave them; `targetAgentId` is set here, never taken from the model. */
  args: Record<string, unknown>;
  /** Where values in `args` came from outside content (JSON pointers into `args`). */
  untrusted?: readonly UntrustedMark[] | undefined;
  /** The step in plain words; the tool's title when absent. */
  title?: string | undefined;
}

export interface ProposePlanInput {
  threadId: string;
  /** The assistant message that proposes the plan. */
  messageId: string;
  /** The person whose plan it is: only they may confirm or cancel it. */
  ownerAgentId: string;
  /** The agent every step acts as (the person's own, or a persona they control), set by the server. */
  actingAgentId: string;
  steps: readonly ProposedStep[];
  ttlSeconds?: number | undefined;
}

export interface PlanProposal {
  planId: string;
  hash: string;
  expiresAt: string;
  steps: PlanStep[];
  /** The plan's stream: name it among the commit's streams. */
  stream: string;
  /** Decides `assistant.plan_proposed` from the commit's states (the plan stream must be new). */
  decide(states: Map<string, unknown>): NewEvent[];
}

/** Tools that decide plans: a plan never confirms or cancels a plan (only the person does). */
export const NOT_PLANNABLE: ReadonlySet<string> = new Set([
  'svc.assistant.confirm_plan',
  'svc.assistant.decide_actions',
]);

/**
 * One tool call as a plan step, or why it cannot be one (`assistant.unknown_tool`,
 * `assistant.malformed_tool_call`). The arguments are checked against the tool's input schema exactly
 * as they will run.
 */
export function resolvePlanStep(
  call: ProposedStep,
  step: number,
  actingAgentId: string,
): { ok: true; step: PlanStep } | { ok: false; error: DomainError } {
  const op = operationNamed(call.tool);
  if (!op || op.enabledFor.length === 0 || NOT_PLANNABLE.has(op.name))
    return {
      ok: false,
      error: invalid('assistant.unknown_tool', `${call.tool} is not a tool of this instance`, {
        tool: call.tool,
      }),
    };
  if (!call.args || typeof call.args !== 'object' || Array.isArray(call.args))
    return {
      ok: false,
      error: invalid('assistant.malformed_tool_call', `the arguments of ${call.tool} are not an object`),
    };
  const args: Record<string, unknown> =
    op.actsForAgent === false ? { ...call.args } : { ...call.args, targetAgentId: actingAgentId };
  const parsed = op.input.safeParse(args);
  if (!parsed.success)
    return {
      ok: false,
      error: invalid('assistant.malformed_tool_call', `the arguments do not match ${call.tool}'s input`, {
        tool: call.tool,
        issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
      }),
    };
  return {
    ok: true,
    step: {
      step,
      tool: op.name,
      title: (call.title ?? op.title).slice(0, 300),
      args,
      writes: op.kind === 'command',
      untrusted: [...(call.untrusted ?? [])],
    },
  };
}

/**
 * Fixes a plan: its id, its steps as they will run, when it expires and its hash. Nothing is written
 * here; commit `stream` with `decide` (alone, or beside the thread's events in one commit).
 */
export function proposePlan(
  ctx: Pick<AssistantOperationContext, 'services' | 'now'>,
  input: ProposePlanInput,
): PlanProposal {
  if (input.steps.length === 0) throw invalid('input.invalid', 'a plan has at least one step');
  if (input.steps.length > ASSISTANT_LIMITS.planMaxSteps)
    throw new DomainError('assistant.plan_too_large', 'too_large', 'the plan has too many steps', {
      limit: ASSISTANT_LIMITS.planMaxSteps,
    });
  const steps = input.steps.map((call, i) => {
    const r = resolvePlanStep(call, i + 1, input.actingAgentId);
    if (!r.ok) throw r.error;
    return r.step;
  });
  const planId = ctx.services.ids.entityId();
  const ttl = input.ttlSeconds ?? ctx.services.assistantPlans?.planTtlSeconds ?? DEFAULT_PLAN_TTL_SECONDS;
  const expiresAt = new Date(ctx.now.getTime() + ttl * 1000).toISOString();
  const plan = {
    planId,
    threadId: input.threadId,
    messageId: input.messageId,
    ownerAgentId: input.ownerAgentId,
    actingAgentId: input.actingAgentId,
    steps,
    expiresAt,
  };
  const hash = planHash(plan);
  const stream = planStream(planId);
  const proposal: PlanProposal = {
    planId,
    hash,
    expiresAt,
    steps,
    stream,
    decide: (states) =>
      decideProposePlan((states.get(stream) as PlanState | undefined) ?? initialPlanState(), {
        ...plan,
        hash,
      }),
  };
  return proposal;
}
