// The OpenAI-compatible LanguageModel (docs/assistant.md#the-model): chat completions with tools on the
// official `openai` client, its every call made through the guarded outbound client (a `fetch` over
// adapters/src/outbound), so the address policy and size limit hold for the model as for any call out.
//
// - One attempt, no retries: a turn waits for the model, and retries would multiply that wait. The
//   whole answer, streamed or not, must arrive within LLM_TIMEOUT_MS.
// - Tool names: the wire protocol allows `[a-zA-Z0-9_-]{1,64}`, catalogue names have dots; they are
//   renamed on the way out (`svc.agent.list_personas` → `svc__agent__list_personas`) and back on the
//   way in. A name the request did not offer comes back as the model wrote it (the turn loop declines it).
// - Tool-call arguments are handed on as the model's raw text: judging them (JSON, schema) is the turn
//   loop's, which declines a malformed call with `assistant.malformed_tool_call`.
// - Failures: `assistant.model_unavailable` (timeout, refused address, connection, any non-2xx answer,
//   a cancelled call) and `assistant.model_malformed` (an answer that is not a chat completion).
//   Messages never quote the model's answer.
import { guardedFetch, type OutboundHttp } from '@tributary/adapters';
import { domainError, isDomainError, type DomainError } from '@tributary/domain';
import type {
  LanguageModel,
  ModelMessage,
  ModelToolCall,
  ModelToolSpec,
  ModelTurn,
  ModelTurnRequest,
} from '@tributary/services';
import OpenAI from 'openai';

export interface OpenAiLanguageModelOptions {
  /** The API's base URL, `…/v1` (LLM_BASE_URL). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (LLM_API_KEY); some local servers need none. */
  apiKey?: string | undefined;
  /** LLM_MODEL: used when a request names none. */
  model: string;
  /** LLM_TIMEOUT_MS: the whole answer, streamed or not. */
  timeoutMs: number;
  /** LLM_ACCEPTS_IMAGES: pictures are sent as image input (data URLs); otherwise left out, and said so. */
  acceptsImages: boolean;
  outbound: OutboundHttp;
}

/** A probe (GET /models) waits at most this long, or LLM_TIMEOUT_MS when that is shorter. */
const PROBE_TIMEOUT_MS = 5_000;
const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const unavailable = (message: string, details?: Record<string, unknown>): DomainError =>
  domainError('assistant.model_unavailable', 'unavailable', message, details);
const malformed = (message: string, details?: Record<string, unknown>): DomainError =>
  domainError('assistant.model_malformed', 'unavailable', message, details);

/** The wire name of a catalogue tool name. */
export const wireToolName = (name: string): string =>
  WIRE_NAME.test(name)
    ? name
    : name
        .replaceAll('.', '__')
        .replace(/[^a-zA-Z0-9_-]/g, '_')
        .slice(0, 64);

const BACKSTOP_MS = 1_000;

export function createOpenAiLanguageModel(o: OpenAiLanguageModelOptions): LanguageModel {
  const client = new OpenAI({
    baseURL: o.baseUrl,
    // The client refuses to start without a key; a server that wants none ignores this one.
    apiKey: o.apiKey || 'none',
    maxRetries: 0,
    // The call's own timer (in complete) decides a timeout and names it; these two are backstops a little
    // later, so under load they never win the race and turn a timeout into a connection failure.
    timeout: o.timeoutMs + BACKSTOP_MS,
    // The body is bounded by the outbound client's total time limit too (headers and streamed body).
    fetch: guardedFetch(o.outbound, { timeoutMs: o.timeoutMs + BACKSTOP_MS }),
    // The library would print unparsable answers (model output) to the console.
    logLevel: 'off',
  });

  async function complete(request: ModelTurnRequest): Promise<ModelTurn> {
    const model = request.model ?? o.model;
    const fromWire = new Map<string, string>();
    for (const t of request.tools) fromWire.set(wireToolName(t.name), t.name);
    const toName = (wire: string) => fromWire.get(wire) ?? wire;

    const timer = new AbortController();
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      timer.abort();
    }, o.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    const body = {
      model,
      messages: request.messages.map((m) => toWireMessage(m, o.acceptsImages)),
      ...(request.tools.length > 0 && { tools: request.tools.map(toWireTool) }),
    };
    try {
      if (!request.onTextDelta) {
        const completion = await client.chat.completions.create(
          { ...body, stream: false },
          { signal, maxRetries: 0 },
        );
        return fromCompletion(completion, model, toName);
      }
      const stream = await client.chat.completions.create(
        { ...body, stream: true },
        { signal, maxRetries: 0 },
      );
      const turn = await fromStream(stream, model, toName, request.onTextDelta);
      // The library ends an aborted stream quietly, as if the answer were whole: it is not.
      if (signal.aborted) throw new Error('aborted mid-stream');
      return turn;
    } catch (e) {
      throw failure(e, {
        timedOut,
        cancelled: request.signal?.aborted ?? false,
        timeoutMs: o.timeoutMs,
      });
    } finally {
      clearTimeout(timeout);
    }
  }

  async function probe(): Promise<{ reachable: boolean; detail?: string }> {
    try {
      const page = await client.models.list({
        timeout: Math.min(PROBE_TIMEOUT_MS, o.timeoutMs),
        maxRetries: 0,
      });
      const ids = (Array.isArray(page.data) ? page.data : [])
        .map((m) => (m as { id?: unknown }).id)
        .filter((id): id is string => typeof id === 'string');
      return {
        reachable: true,
        detail: ids.includes(o.model)
          ? `${o.model} is listed`
          : `answers; ${o.model} is not among the ${ids.length} models it lists`,
      };
    } catch (e) {
      if (e instanceof OpenAI.APIError && e.status !== undefined && e.status < 500 && e.status !== 401)
        // It answers, it just has no models list (or not at this path): the model may still work.
        return { reachable: true, detail: `answers GET /models with ${e.status}` };
      const f = failure(e, { timedOut: false, cancelled: false, timeoutMs: PROBE_TIMEOUT_MS });
      return { reachable: false, detail: f.message };
    }
  }

  return {
    kind: 'openai-compatible',
    defaultModel: o.model,
    acceptsImages: o.acceptsImages,
    complete,
    probe,
  };
}

function toWireTool(t: ModelToolSpec): OpenAI.Chat.ChatCompletionTool {
  return {
    type: 'function',
    function: { name: wireToolName(t.name), description: t.description, parameters: t.parameters },
  };
}

function toWireMessage(m: ModelMessage, acceptsImages: boolean): OpenAI.Chat.ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length && {
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: wireToolName(c.name), arguments: c.arguments },
          })),
        }),
      };
    case 'user': {
      const images = m.images ?? [];
      if (images.length === 0) return { role: 'user', content: m.content };
      if (!acceptsImages)
        // The model is told, so it does not answer as if it had seen them.
        return {
          role: 'user',
          content: `${m.content}\n\n[${images.length} picture(s) attached but not shown: this model does not take images]`,
        };
      return {
        role: 'user',
        content: [
          { type: 'text', text: m.content },
          ...images.map((i) => ({
            type: 'image_url' as const,
            image_url: { url: `data:${i.mediaType};base64,${Buffer.from(i.data).toString('base64')}` },
          })),
        ],
      };
    }
  }
}

const FINISH: Record<string, ModelTurn['finishReason']> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
};
const finishOf = (reason: unknown): ModelTurn['finishReason'] =>
  (typeof reason === 'string' && FINISH[reason]) || 'other';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A non-streamed answer, checked: the library hands on whatever JSON (or text) came back. */
function fromCompletion(completion: unknown, model: string, toName: (w: string) => string): ModelTurn {
  const choice =
    isObject(completion) && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const message = isObject(choice) ? choice.message : undefined;
  if (!isObject(message)) throw malformed('the model answered something that is not a chat completion');
  const content = message.content ?? (typeof message.refusal === 'string' ? message.refusal : '');
  if (typeof content !== 'string') throw malformed("the model's message content is not text");
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) throw malformed("the model's tool calls are not a list");
  const toolCalls = rawCalls.map((c, i): ModelToolCall => {
    const fn = isObject(c) ? c.function : undefined;
    if (!isObject(fn) || typeof fn.name !== 'string' || fn.name === '')
      throw malformed(`the model's tool call ${i + 1} has no function name`);
    if (fn.arguments !== undefined && typeof fn.arguments !== 'string')
      throw malformed(`the model's tool call ${i + 1} has arguments that are not text`);
    return {
      id: isObject(c) && typeof c.id === 'string' && c.id ? c.id : `call_${i + 1}`,
      name: toName(fn.name),
      arguments: (fn.arguments as string | undefined) ?? '',
    };
  });
  return {
    text: content,
    toolCalls,
    finishReason: finishOf((choice as Record<string, unknown>).finish_reason),
    model: isObject(completion) && typeof completion.model === 'string' ? completion.model : model,
  };
}

/** A streamed answer: text deltas handed on as they come, tool calls assembled from their deltas. */
async function fromStream(
  stream: AsyncIterable<unknown>,
  model: string,
  toName: (w: string) => string,
  onTextDelta: (delta: string) => void,
): Promise<ModelTurn> {
  let text = '';
  let finishReason: unknown;
  let answeredModel: string | undefined;
  let chunks = 0;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of stream) {
    chunks++;
    if (!isObject(chunk) || !Array.isArray(chunk.choices))
      throw malformed('the model streamed something that is not a chat completion chunk');
    if (typeof chunk.model === 'string' && chunk.model) answeredModel ??= chunk.model;
    const choice = chunk.choices[0];
    if (choice === undefined) continue; // a usage-only chunk
    if (!isObject(choice)) throw malformed('the model streamed a choice that is not an object');
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (delta === undefined || delta === null) continue;
    if (!isObject(delta)) throw malformed('the model streamed a delta that is not an object');
    if (typeof delta.content === 'string' && delta.content) {
      text += delta.content;
      onTextDelta(delta.content);
    } else if (delta.content !== undefined && delta.content !== null && typeof delta.content !== 'string')
      throw malformed('the model streamed content that is not text');
    if (delta.tool_calls === undefined || delta.tool_calls === null) continue;
    if (!Array.isArray(delta.tool_calls)) throw malformed("the model's streamed tool calls are not a list");
    for (const d of delta.tool_calls) {
      if (!isObject(d)) throw malformed('the model streamed a tool call that is not an object');
      const index = typeof d.index === 'number' ? d.index : calls.size;
      const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
      calls.set(index, call);
      if (typeof d.id === 'string' && d.id) call.id = d.id;
      const fn = d.function;
      if (fn === undefined || fn === null) continue;
      if (!isObject(fn)) throw malformed('the model streamed a tool call without a function');
      if (typeof fn.name === 'string') call.name += fn.name;
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    }
  }
  if (chunks === 0) throw malformed('the model streamed no answer');
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, c], i): ModelToolCall => {
      if (!c.name) throw malformed(`the model's tool call ${i + 1} has no function name`);
      return { id: c.id || `call_${i + 1}`, name: toName(c.name), arguments: c.arguments };
    });
  return { text, toolCalls, finishReason: finishOf(finishReason), model: answeredModel ?? model };
}

/** Any failure of a call, as one of the two assistant codes (never quoting what the model said). */
function failure(e: unknown, how: { timedOut: boolean; cancelled: boolean; timeoutMs: number }): DomainError {
  if (how.timedOut)
    return unavailable(`the model did not answer within ${how.timeoutMs} ms`, { reason: 'timeout' });
  if (how.cancelled) return unavailable('the model call was cancelled', { reason: 'cancelled' });
  // After the clock and the caller: a stream cut short by either looks like a short answer.
  if (
    isDomainError(e) &&
    (e.code === 'assistant.model_malformed' || e.code === 'assistant.model_unavailable')
  )
    return e;
  if (e instanceof OpenAI.APIConnectionTimeoutError)
    return unavailable(`the model did not answer within ${how.timeoutMs} ms`, { reason: 'timeout' });
  // The guarded fetch's refusals and limits (outbound.*), directly or as the library's connection error.
  const outbound = isDomainError(e) ? e : isObject(e) && isDomainError(e.cause) ? e.cause : undefined;
  if (outbound)
    return unavailable(
      outbound.code === 'outbound.unsafe_url'
        ? 'the model address (LLM_BASE_URL) is not a public address, nor one OUTBOUND_ALLOWED_ADDRESSES allows'
        : `the model could not be reached: ${outbound.message}`,
      { reason: outbound.code },
    );
  if (e instanceof OpenAI.APIError && e.status !== undefined)
    return unavailable(`the model answered ${e.status}`, { reason: 'status', remoteStatus: e.status });
  if (e instanceof OpenAI.APIConnectionError)
    return unavailable('the model could not be reached', { reason: 'connection' });
  // An error event inside a stream (no status), or an SSE/JSON body that does not parse.
  if (e instanceof OpenAI.APIError || e instanceof SyntaxError)
    return malformed('the model answered something that is not a valid reply');
  return unavailable('the model call failed', { reason: e instanceof Error ? e.name : 'unknown' });
}
