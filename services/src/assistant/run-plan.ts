// Confirming a plan and running its steps, exactly once (docs/assistant.md#exactly-once).
//
// The confirmation is one event on the plan stream (`assistant.plan_confirmed`). Each chosen step then
// runs through the same pipeline as an MCP call (`execute`, surface `assistant`), as the person who
// confirmed, with its provenance entry naming the plan and the step, and with the plan's record of it
// (`assistant.plan_step_finished`) decided ALONGSIDE the step's own events: the step's events, its
// provenance entry and the plan's record are one append, checked at the plan stream's version. A second
// runner of the same step (a retried confirm, a confirm racing this one, a restart after a crash) finds
// the step finished — or loses the race on the plan stream — and the step's events are never written
// twice. A step that fails writes nothing of its own; its `failed` record and the rest's `skipped` follow
// on appends of their own.
import {
  conflict,
  decideCancelPlan,
  decideConfirmPlan,
  decideFinishStep,
  confirmedStep,
  DomainError,
  fold,
  forbidden,
  isDomainError,
  planOf,
  planStatus,
  planStream,
  type AssistantEventData,
  type NewEvent,
  type PlanState,
  type StepOutcome,
  type StepStatus,
  unauthenticated,
} from '@tributary/domain';
import { commitEvents, execute } from '../pipeline/execute.js';
import type { AssistantOperationContext } from './assistant-operation.js';
import { operationNamed } from '../pipeline/operation-lookup.js';
import type { Principal } from '../pipeline/principal.js';
import type { AssistantOperationServices } from './assistant-operation.js';
import { accessDenial, spendsMoney } from '../pipeline/tool-access.js';
import { doneWords } from '../shared/step-words.js';
import { planHash } from './plan-hash.js';

/** How long a confirm may run its steps, unless configured (ASSISTANT_CONFIRM_TIMEOUT_MS). */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 120_000;

type Finished = AssistantEventData<'assistant.plan_step_finished'>;

export interface StepReport {
  step: number;
  tool: string;
  title: string;
  writes: boolean;
  status: StepStatus;
  errorCode: string | null;
  summary: string | null;
  /**
   * What a read step answered, for a read run by this request: the person confirmed the read to see it.
   * Not kept on the log (the vault and provenance keep that it ran, not what it showed).
   */
  result?: unknown;
  /** The step's own events (positions are given for steps run by this request). */
  events: { id: string; type: string; stream: string; streamVersion: number; position?: number }[];
}

export interface PlanReport {
  planId: string;
  threadId: string;
  messageId: string;
  hash: string;
  actingAgentId: string;
  expiresAt: string;
  status: ReturnType<typeof planStatus>;
  steps: StepReport[];
}

export interface ConfirmReport extends PlanReport {
  /** This request continued a confirmation made earlier (a retry, or after a crash). */
  resumed: boolean;
  /** Steps this request ran (or recorded as failed or skipped), in order. */
  ranNow: number[];
  /** The time allowance ran out with confirmed steps not yet run; confirming again runs them. */
  incomplete: boolean;
}

/**
 * Whose threads and plans a principal holds: the person's own agent, or — for a token bound to a persona —
 * that persona. A bound token acts only as its persona, so the person's own threads and plans (which may
 * act for any of their agents) are not its to list, read, delete or confirm (docs/assistant.md#threads).
 */
export function ownerOf(principal: Principal): string {
  if (!('agentId' in principal)) throw unauthenticated('auth.required', 'sign in first');
  if (principal.kind === 'token' && principal.boundAgentId) return principal.boundAgentId;
  return principal.agentId;
}

interface LoadedPlan {
  state: PlanState;
  finished: Map<number, Finished>;
}

async function loadPlan(services: AssistantOperationServices, planId: string): Promise<LoadedPlan> {
  const stream = planStream(planId);
  const events = await services.store.readStream(stream);
  const finished = new Map<number, Finished>();
  for (const e of events)
    if (e.type === 'assistant.plan_step_finished') {
      const d = e.data as Finished;
      finished.set(d.step, d);
    }
  return { state: fold<PlanState>(stream, events), finished };
}

/** The plan as the log holds it hashes to the hash it was proposed (and confirmed) with. */
function checkIntact(state: PlanState): void {
  const recomputed = planHash({
    planId: state.planId!,
    threadId: state.threadId!,
    messageId: state.messageId!,
    actingAgentId: state.actingAgentId!,
    expiresAt: state.expiresAt!,
    steps: state.steps,
  });
  if (recomputed !== state.hash || (state.confirmedHash !== undefined && state.confirmedHash !== recomputed))
    throw conflict('assistant.plan_altered', 'the plan on the log does not match its hash: nothing runs');
}

export function reportOf(loaded: LoadedPlan, now: Date, positions?: Map<string, number>): PlanReport {
  const { state, finished } = loaded;
  return {
    planId: state.planId!,
    threadId: state.threadId!,
    messageId: state.messageId!,
    hash: state.hash!,
    actingAgentId: state.actingAgentId!,
    expiresAt: state.expiresAt!,
    status: planStatus(state, now),
    steps: state.steps.map((s) => {
      const f = finished.get(s.step);
      return {
        step: s.step,
        tool: s.tool,
        title: s.title,
        writes: s.writes,
        status: state.status.get(s.step) ?? 'pending',
        errorCode: f?.errorCode ?? null,
        summary: f?.summary ?? null,
        events: (f?.events ?? []).map((e) => {
          const position = positions?.get(e.id);
          return position === undefined ? e : { ...e, position };
        }),
      };
    }),
  };
}

/** The plan's report for its owner (read from the log, so it is the plan's true state). */
export async function planReport(ctx: AssistantOperationContext, planId: string): Promise<PlanReport> {
  const loaded = await loadPlan(ctx.services, planId);
  planOf(loaded.state, ownerOf(ctx.principal));
  return reportOf(loaded, ctx.services.clock.now());
}

/** Steps `principal` may not run as plan steps, with why: confirming needs every step covered. */
function uncovered(ctx: AssistantOperationContext, state: PlanState, steps: readonly number[]) {
  const missing: { step: number; tool: string; code: string; missing?: unknown }[] = [];
  for (const n of steps) {
    const step = state.steps.find((s) => s.step === n);
    if (!step) continue;
    const op = operationNamed(step.tool);
    if (!op) {
      missing.push({ step: n, tool: step.tool, code: 'assistant.unknown_tool' });
      continue;
    }
    const denial = accessDenial(op, ctx.principal, 'assistant', {
      instance: ctx.instance,
      now: ctx.now,
      legacyUnscopedSunset: ctx.services.config.legacyUnscopedSunset,
    });
    if (denial)
      missing.push({ step: n, tool: step.tool, code: denial.code, missing: denial.details?.missing });
  }
  return missing;
}

/** The chosen steps whose tool moves money. */
function spendingSteps(state: PlanState, steps: readonly number[]) {
  return state.steps
    .filter((s) => steps.includes(s.step))
    .filter((s) => {
      const op = operationNamed(s.tool);
      return op !== undefined && spendsMoney(op);
    })
    .map((s) => ({ step: s.step, tool: s.tool }));
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length &&
  [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

/**
 * Confirms a plan of the person's (or resumes a confirmation already on the log) and runs every
 * confirmed step not yet finished, in order, stopping at the first failure. Uses the operation's one
 * commit for the confirmation.
 */
export async function confirmAndRun(
  ctx: AssistantOperationContext,
  planId: string,
  o: { hash?: string | undefined; steps?: readonly number[] | undefined },
): Promise<ConfirmReport> {
  const { services } = ctx;
  const started = Date.now();
  const allowance = services.assistantPlans?.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
  const owner = ownerOf(ctx.principal);
  const stream = planStream(planId);
  let loaded = await loadPlan(services, planId);
  const plan = planOf(loaded.state, owner);
  if (o.hash !== undefined && o.hash !== plan.hash)
    throw conflict('assistant.plan_altered', 'the plan hash does not match the plan as proposed');
  checkIntact(plan);

  // Already confirmed: a retry of that confirmation (or a confirm that lost the race to it) resumes it;
  // anything else is a second confirmation.
  const resumeOrRefuse = (state: PlanState): true => {
    const chosen = [...state.status].filter(([, s]) => s !== 'pending' && s !== 'cancelled').map(([n]) => n);
    const unfinished = [...state.status].filter(([, s]) => s === 'confirmed').map(([n]) => n);
    if (unfinished.length === 0 || (o.steps && !sameSet(o.steps, chosen)))
      throw conflict('assistant.plan_already_confirmed', 'the plan was already confirmed', {
        plan: reportOf(loaded, ctx.now),
      });
    return true;
  };
  let resumed = plan.confirmedHash ? resumeOrRefuse(plan) : false;
  const toRun = resumed
    ? [...plan.status].filter(([, s]) => s === 'confirmed').map(([n]) => n)
    : (o.steps ?? [...plan.status].filter(([, s]) => s === 'pending').map(([n]) => n));
  // A step that moves money runs only on the person's own confirmation, whatever a token may do.
  const spending = spendingSteps(plan, toRun);
  if (spending.length > 0 && ctx.principal.kind !== 'session')
    throw forbidden(
      'assistant.spend_needs_person',
      'only you, signed in, can confirm a step that moves money',
      {
        steps: spending,
      },
    );
  // Nothing is confirmed unless the confirming credential may run every chosen step.
  const missing = uncovered(ctx, plan, toRun);
  if (missing.length > 0)
    throw forbidden(
      'assistant.scope_not_covered',
      "this credential's scopes do not cover every step of the plan",
      { missing },
    );
  if (!resumed) {
    try {
      await decideOnPlanStream(ctx, stream, (states) =>
        decideConfirmPlan(states.get(stream) as PlanState, {
          ownerAgentId: owner,
          hash: o.hash,
          steps: o.steps,
          now: ctx.now,
          confirmedByAgentId: owner,
          via: ctx.surface === 'mcp' ? 'mcp' : ctx.surface === 'assistant' ? 'assistant' : 'http',
        }),
      );
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // Lost to another request: decided again on the plan as it is now, so the answer is its true state.
      loaded = await loadPlan(services, planId);
      if (e.code === 'assistant.plan_already_confirmed' && loaded.state.confirmedHash)
        resumed = resumeOrRefuse(loaded.state);
      else throw withPlanState(e, loaded, ctx.now);
    }
    loaded = await loadPlan(services, planId);
  }
  const positions = new Map<string, number>();
  const readResults = new Map<number, unknown>();
  const ranNow: number[] = [];
  let incomplete = false;
  // The plan as confirmed, read back from the log and re-hashed: its steps never change once logged (a
  // plan stream holds one proposal), so each step runs exactly these arguments. Whether a step is still
  // unfinished is decided again at its own append (decideFinishStep on the plan stream as it is then).
  const confirmed = loaded.state;
  checkIntact(confirmed);
  const order = [...confirmed.status]
    .filter(([, s]) => s === 'confirmed')
    .map(([n]) => n)
    .sort((a, b) => a - b);
  let failedAt: number | null = null;
  for (const n of order) {
    if (failedAt !== null) break;
    if (Date.now() - started > allowance) {
      incomplete = true;
      break;
    }
    const step = confirmedStep(confirmed, owner, n);
    const op = operationNamed(step.tool);
    try {
      if (!op)
        throw new DomainError('assistant.unknown_tool', 'invalid', `${step.tool} is not a tool any more`);
      const { commit, result } = await runStep(
        () =>
          execute(services, op, step.args, ctx.principal, 'assistant', {
            provenance: {
              plan: { planId, hash: plan.hash, step: n },
              // Another runner finished this step first: this attempt wrote nothing, so it is no call.
              didNotHappen: async () => (await finishedElsewhere(services, planId, n)) !== null,
            },
            alongside: {
              streams: [stream],
              decide: (states, own) =>
                decideFinishStep(states.get(stream) as PlanState, {
                  ownerAgentId: owner,
                  step: n,
                  status: 'ran',
                  summary: summaryOf(step.title, op.kind, own),
                  events: [...own],
                }),
            },
          }),
        async () => (await finishedElsewhere(services, planId, n)) === null,
      );
      for (const e of commit?.events ?? []) positions.set(e.id, e.position);
      if (op.kind === 'query') readResults.set(n, result);
      ranNow.push(n);
    } catch (e) {
      // Another runner finished the step first: its outcome stands, a failure included (then nothing
      // later runs, here either).
      const elsewhere = await finishedElsewhere(services, planId, n);
      if (elsewhere !== null) {
        if (elsewhere === 'failed') failedAt = n;
        continue;
      }
      const code = isDomainError(e) ? e.code : 'server.internal';
      if (await recordOutcome(services, planId, owner, n, 'failed', code, e)) ranNow.push(n);
      // Unless it turns out to have run after all (its events were committed before the failure), the
      // plan stops here.
      const after = (await loadPlan(services, planId)).state.status.get(n);
      if (after !== 'ran') failedAt = n;
    }
    services.assistantPlans?.afterStepFinished?.(planId, n);
  }
  if (failedAt !== null) {
    loaded = await loadPlan(services, planId);
    for (const [n, s] of [...loaded.state.status].sort(([a], [b]) => a - b))
      if (s === 'confirmed' && (await recordOutcome(services, planId, owner, n, 'skipped', null, null)))
        ranNow.push(n);
  }
  loaded = await loadPlan(services, planId);
  const report = reportOf(loaded, services.clock.now(), positions);
  return {
    ...report,
    steps: report.steps.map((s) => (readResults.has(s.step) ? { ...s, result: readResults.get(s.step) } : s)),
    resumed,
    ranNow,
    incomplete,
  };
}

/** The step's outcome when it has finished (by this request or another), else null. */
async function finishedElsewhere(
  services: AssistantOperationServices,
  planId: string,
  step: number,
): Promise<StepOutcome | null> {
  const { state } = await loadPlan(services, planId);
  const s = state.status.get(step);
  return s === 'ran' || s === 'failed' || s === 'skipped' ? s : null;
}

/**
 * Runs one step's attempt again when its append lost only to another write on the plan stream (another
 * runner finishing a different step) and the step itself is still unfinished.
 */
async function runStep<T>(attempt: () => Promise<T>, stillUnfinished: () => Promise<boolean>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      if (!isDomainError(e) || e.code !== 'log.stream_conflict' || tries >= 3 || !(await stillUnfinished()))
        throw e;
    }
  }
}

/**
 * A decision on the plan stream (confirm, cancel). The operation's own commit first (over MCP the call's
 * provenance entry rides in it); when another request wrote to the plan meanwhile, the decision is made
 * again on the plan as it is now — so a request that lost the race is answered by the plan's state
 * (`assistant.plan_cancelled`, `assistant.plan_already_confirmed`, …), never a bare `log.stream_conflict`.
 */
export async function decideOnPlanStream(
  ctx: AssistantOperationContext,
  stream: string,
  decide: (states: Map<string, unknown>) => NewEvent[],
): Promise<void> {
  await ctx.commit([stream], decide, { retries: 6 });
}

/** A refusal about the plan's state carries that state, read from the log (what is done, what is not). */
export function withPlanState(e: DomainError, loaded: LoadedPlan, now: Date): DomainError {
  if (!PLAN_STATE_CODES.has(e.code)) return e;
  return new DomainError(e.code, e.kind, e.message, { ...e.details, plan: reportOf(loaded, now) });
}
const PLAN_STATE_CODES: ReadonlySet<string> = new Set([
  'assistant.plan_already_confirmed',
  'assistant.plan_cancelled',
  'assistant.plan_expired',
]);

/** Cancels the chosen (or all) pending steps; a cancel that lost the race is answered by the plan's state. */
export async function cancelPlan(
  ctx: AssistantOperationContext,
  planId: string,
  o: { hash?: string | undefined; steps?: readonly number[] | undefined },
): Promise<ConfirmReport> {
  const owner = ownerOf(ctx.principal);
  const stream = planStream(planId);
  try {
    await decideOnPlanStream(ctx, stream, (states) =>
      decideCancelPlan(states.get(stream) as PlanState, {
        ownerAgentId: owner,
        hash: o.hash,
        steps: o.steps,
        now: ctx.now,
      }),
    );
  } catch (e) {
    if (!isDomainError(e)) throw e;
    let loaded = await loadPlan(ctx.services, planId);
    // Lost to a confirmation whose steps are still running: answer with what that run ends with (what is
    // now done), not a snapshot of it half-way; bounded by the confirmation's own time allowance.
    const allowance = ctx.services.assistantPlans?.confirmTimeoutMs ?? DEFAULT_CONFIRM_TIMEOUT_MS;
    for (
      const waitingSince = Date.now();
      e.code === 'assistant.plan_already_confirmed' &&
      [...loaded.state.status.values()].some((s) => s === 'confirmed') &&
      Date.now() - waitingSince < allowance;
      loaded = await loadPlan(ctx.services, planId)
    )
      await new Promise((resolve) => setTimeout(resolve, 25));
    throw withPlanState(e, loaded, ctx.services.clock.now());
  }
  return { ...(await planReport(ctx, planId)), resumed: false, ranNow: [], incomplete: false };
}

/** Records a failed or skipped step on its own append; false when it had finished meanwhile. */
async function recordOutcome(
  services: AssistantOperationServices,
  planId: string,
  owner: string,
  step: number,
  status: 'failed' | 'skipped',
  errorCode: string | null,
  error: unknown,
): Promise<boolean> {
  const stream = planStream(planId);
  const summary =
    status === 'skipped'
      ? 'Not run, because an earlier step did not work.'
      : `Did not work${isDomainError(error) ? `: ${error.message.slice(0, 300)}` : ''} (${errorCode}). Nothing of it was written.`;
  for (let attempt = 0; ; attempt++) {
    try {
      await commitEvents(
        services,
        [stream],
        (states) =>
          decideFinishStep(states.get(stream) as PlanState, {
            ownerAgentId: owner,
            step,
            status,
            errorCode: errorCode ?? undefined,
            summary,
            events: [],
          }),
        owner,
      );
      return true;
    } catch (e) {
      if (isDomainError(e) && e.code === 'assistant.step_already_finished') return false;
      // Another runner wrote to the plan stream meanwhile: decide again on what it holds now.
      if (isDomainError(e) && e.code === 'log.stream_conflict' && attempt < 3) continue;
      throw e;
    }
  }
}

/**
 * What the vault document says of a step that ran, in words: its sentence as what was done, and how much
 * it changed (the events themselves are listed beside it, by type).
 */
function summaryOf(title: string, kind: 'command' | 'query', own: readonly unknown[]): string {
  const done = doneWords(title);
  if (kind === 'query') return `${done}; nothing was changed.`;
  if (own.length === 0) return `${done}; nothing needed changing.`;
  return `${done}; ${own.length === 1 ? 'one change was' : `${own.length} changes were`} recorded.`;
}
