// One turn of the assistant (docs/assistant.md#the-turn-loop): the model is called with the thread's
// history and the person's message, and may answer with tool calls; the loop judges each call and
// calls the model again with what it learned, at most `toolIterations` times. The model only proposes:
// - a call of a tool not offered (unknown, not enabled, scopes missing), or with arguments that are not
//   JSON or do not match the tool's input, is declined with its code;
// - a read the person's settings let run unconfirmed (by default every read of their own data) runs now,
//   as the person, on the `assistant` surface (so with its provenance entry), and its result goes back
//   to the model as data, never instructions — the model then answers from it;
// - a write the model proposes after outside content entered the turn is declined
//   (`assistant.untrusted_instruction`): outside content may never start a write;
// - every other call becomes a plan step with its arguments exactly as they will run: `targetAgentId`
//   is the server's acting agent, whatever the model said, and arguments that repeat outside content
//   are marked with their source.
// Nothing here writes: the caller records the messages and the plan in one commit.
import {
  ASSISTANT_LIMITS,
  isDomainError,
  type DeclinedCall,
  type PlanStep,
  type StepOutcome,
  type UntrustedSource,
} from '@tributary/domain';
import { execute } from '../pipeline/execute.js';
import type { Operation } from '../pipeline/operation.js';
import type { Principal } from '../pipeline/principal.js';
import { spendsMoney } from '../pipeline/tool-access.js';
import type { AssistantOperationServices } from './assistant-operation.js';
import type { LanguageModel, ModelMessage, ModelToolCall } from './ports/language-model.js';
import type { ToolOffer } from './offered-tools.js';
import {
  holdsNoWords,
  markUntrusted,
  sourceOfTool,
  stringsOf,
  wrapUntrusted,
  type UntrustedText,
} from './untrusted.js';

export interface TurnInput {
  services: AssistantOperationServices;
  principal: Principal;
  model: LanguageModel;
  /** The settings' model id; the implementation's default when absent. */
  modelName?: string | undefined;
  offer: ToolOffer;
  /** The system prompt, the history and the person's message. */
  messages: ModelMessage[];
  /** The person's message: a value they wrote themselves is not marked untrusted. */
  personText: string;
  /** Whether the person's settings let this read run now, without asking. */
  readsWithoutAsking: (op: Operation<unknown, unknown>) => boolean;
  actingAgentId: string;
  /** Outside content seen earlier in the thread (for marking arguments). */
  seen: UntrustedText[];
  /** Outside content in the context from the start of the turn (the message's pictures). */
  untrustedAtStart: readonly UntrustedSource[];
  toolIterations: number;
  requestId?: string | undefined;
  signal?: AbortSignal | undefined;
  onTextDelta?: ((delta: string) => void) | undefined;
  /** The person's time zone (chat's `timeZone`), handed to the model port. */
  timeZone?: string | undefined;
}

export interface TurnResult {
  text: string;
  steps: PlanStep[];
  declined: DeclinedCall[];
  autoRan: { tool: string; outcome: StepOutcome }[];
  /** Kinds of outside content this turn's reply was made with. */
  untrustedSources: UntrustedSource[];
  model: string;
  /** The loop reached its iteration limit while the model was still calling tools. */
  stoppedAtLimit: boolean;
  /** The outside content this turn read, as the model was shown it (kept for the thread's later turns). */
  outside: UntrustedText[];
}

/** A tool result longer than this reaches the model cut short (and says so). */
const TOOL_RESULT_MAX_CHARS = 16_000;
/** Reads run unconfirmed in one turn, at most (the event's own bound). */
const AUTO_RUN_MAX = 50;

type Args = Record<string, unknown>;
const isArgs = (v: unknown): v is Args => v !== null && typeof v === 'object' && !Array.isArray(v);

export async function runTurn(t: TurnInput): Promise<TurnResult> {
  const messages = [...t.messages];
  const seen = [...t.seen];
  const outside: UntrustedText[] = [];
  const sources = new Set<UntrustedSource>(t.untrustedAtStart);
  const steps: PlanStep[] = [];
  const declined: DeclinedCall[] = [];
  const autoRan: TurnResult['autoRan'] = [];
  const texts: string[] = [];
  let model = t.modelName ?? t.model.defaultModel;
  // The built-in planner is code that reads only the fields it asked for: outside content cannot
  // instruct it. Any other model is assumed to obey what it reads.
  const obeysWhatItReads = t.model.kind !== 'builtin';

  const decline = (call: ModelToolCall, code: string, reason: string): string => {
    if (declined.length < ASSISTANT_LIMITS.declinedMax)
      declined.push({ tool: call.name.slice(0, 100), code, reason: reason.slice(0, 500) });
    return `Not done (${code}): ${reason}`;
  };

  async function judge(call: ModelToolCall, taintedBefore: boolean): Promise<string> {
    const tool = t.offer.offered.get(call.name);
    if (!tool) {
      const r = t.offer.refusal(call.name);
      return decline(call, r.code, r.reason);
    }
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return decline(call, 'assistant.malformed_tool_call', 'the arguments are not JSON');
    }
    if (!isArgs(args))
      return decline(call, 'assistant.malformed_tool_call', 'the arguments are not a JSON object');
    // Whom a step acts for is the server's to say, never the model's.
    delete args.targetAgentId;
    if (tool.takesTarget) args.targetAgentId = t.actingAgentId;
    const parsed = tool.op.input.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`)
        .join('; ');
      return decline(call, 'assistant.malformed_tool_call', `the arguments do not match the tool: ${issues}`);
    }
    const writes = tool.op.kind === 'command';

    // Settings never let a step that moves money run unconfirmed, even were it a read.
    if (!writes && !spendsMoney(tool.op) && t.readsWithoutAsking(tool.op) && autoRan.length < AUTO_RUN_MAX) {
      const source = sourceOfTool(tool.op.name);
      try {
        const { result } = await execute(t.services, tool.op, args, t.principal, 'assistant', {
          provenance: { requestId: t.requestId },
        });
        autoRan.push({ tool: tool.op.name, outcome: 'ran' });
        const wrapped = wrapUntrusted(tool.op.name, source, result);
        // What the model was shown is what it may remember: that is what later turns mark values from.
        const shown =
          wrapped.length <= TOOL_RESULT_MAX_CHARS
            ? { text: stringsOf(result).join('\n'), source }
            : { text: (JSON.stringify(result) ?? '').slice(0, TOOL_RESULT_MAX_CHARS - 1_000), source };
        // Only ids, times and numbers (a site's versions): nobody's words, so not outside content.
        if (!holdsNoWords(result)) {
          sources.add(source);
          seen.push(shown);
          outside.push(shown);
        }
        if (wrapped.length <= TOOL_RESULT_MAX_CHARS) return wrapped;
        // Too long: its start, as text, still inside the fence.
        return wrapUntrusted(tool.op.name, source, { cutShort: true, start: shown.text });
      } catch (e) {
        autoRan.push({ tool: tool.op.name, outcome: 'failed' });
        return `The tool failed: ${isDomainError(e) ? e.code : 'server.internal'}.`;
      }
    }

    if (writes && taintedBefore && obeysWhatItReads)
      return decline(
        call,
        'assistant.untrusted_instruction',
        'proposed after content from outside entered the conversation; ask for it in a message of your own',
      );

    const same = steps.find((s) => s.tool === tool.op.name && sameJson(s.args, args));
    if (same) return `Already step ${same.step} of the plan.`;
    if (steps.length >= ASSISTANT_LIMITS.planMaxSteps)
      return decline(
        call,
        'assistant.plan_too_large',
        `a plan holds at most ${ASSISTANT_LIMITS.planMaxSteps} steps`,
      );
    const step: PlanStep = {
      step: steps.length + 1,
      tool: tool.op.name,
      title: tool.op.title.slice(0, 300),
      args,
      writes,
      // The server chose targetAgentId; only what the model filled in can have come from outside.
      untrusted: markUntrusted({ ...args, targetAgentId: undefined }, seen, t.personText),
    };
    steps.push(step);
    return writes
      ? `Proposed as step ${step.step} of the plan. It has NOT run: it runs only if the person confirms it.`
      : `Proposed as step ${step.step} of the plan (a read the person confirms first); its result is not available now.`;
  }

  // Streamed text matches the reply: the answers of successive model calls are joined by a blank line.
  let streamedBefore = false;
  const onTextDelta = t.onTextDelta;
  const deltaOfCall = () => {
    let first = true;
    return (delta: string) => {
      if (!onTextDelta || delta === '') return;
      if (first && streamedBefore) onTextDelta('\n\n');
      first = false;
      streamedBefore = true;
      onTextDelta(delta);
    };
  };

  let stoppedAtLimit = false;
  for (let i = 0; i < t.toolIterations; i++) {
    const turn = await t.model.complete({
      messages,
      tools: t.offer.specs,
      ...(t.modelName && { model: t.modelName }),
      ...(t.signal && { signal: t.signal }),
      ...(onTextDelta && { onTextDelta: deltaOfCall() }),
      ...(t.timeZone && { timeZone: t.timeZone }),
    });
    model = turn.model || model;
    if (turn.text !== '') texts.push(turn.text);
    if (turn.toolCalls.length === 0) break;
    messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
    // Calls of one answer were all proposed before any of their results was read.
    const taintedBefore = sources.size > 0;
    for (const call of turn.toolCalls)
      messages.push({ role: 'tool', toolCallId: call.id, content: await judge(call, taintedBefore) });
    if (i === t.toolIterations - 1) stoppedAtLimit = true;
  }
  return {
    text: texts.join('\n\n'),
    steps,
    declined,
    autoRan,
    untrustedSources: [...sources],
    model,
    stoppedAtLimit,
    outside,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
