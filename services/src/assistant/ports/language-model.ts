// The assistant's language model (docs/assistant.md#the-model). Two implementations: an
// OpenAI-compatible client (infra/src/assistant) when LLM_BASE_URL is set, and the built-in planner
// (services/src/assistant/builtin-planner.ts) otherwise. The model only PROPOSES tool calls; the turn
// loop decides what becomes a plan step, and nothing that writes runs until the person confirms it.

/** A tool the model may call: a catalogue operation the person may use. */
export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's arguments. */
  parameters: Record<string, unknown>;
}

/** A tool call the model proposed. `arguments` is the model's raw JSON text, unparsed and untrusted. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: { mediaType: string; data: Uint8Array }[] }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ModelTurnRequest {
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  /** Overrides the implementation's default model (settings' model). */
  model?: string;
  signal?: AbortSignal;
  /** When set, the answer is streamed and each piece of text is handed here as it arrives. */
  onTextDelta?: (delta: string) => void;
  /** The person's IANA time zone, for the times the built-in planner writes (UTC, saying so, when absent). */
  timeZone?: string;
}

export interface ModelTurn {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: 'stop' | 'tool_calls' | 'length' | 'other';
  model: string;
}

/**
 * One model turn: messages and tools in, text and proposed tool calls out. `complete` fails with a
 * DomainError: `assistant.model_unavailable` (kind 'unavailable': timeout, connection refused, 5xx) or
 * `assistant.model_malformed` (an answer that is not a chat completion).
 */
export interface LanguageModel {
  readonly kind: 'builtin' | 'openai-compatible';
  readonly defaultModel: string;
  readonly acceptsImages: boolean;
  complete(request: ModelTurnRequest): Promise<ModelTurn>;
  /** Reachability for /api/autobot/status; never throws. */
  probe(): Promise<{ reachable: boolean; detail?: string }>;
}
