// The assistant's chat: the language model (the OpenAI-compatible API when LLM_BASE_URL is set, else
// the built-in planner) and the limits of one turn (docs/assistant.md#limits).
import type { OutboundHttp } from '@tributary/adapters';
import type { AssistantChatPorts } from '@tributary/services';
import { languageModelFromConfig } from '../assistant/language-model-from-config.js';
import type { Config } from '../config/config.js';

export function composeAssistantChat(o: { config: Config; outbound: OutboundHttp }): AssistantChatPorts {
  const c = o.config;
  return {
    model: languageModelFromConfig(c, o.outbound),
    historyMessages: c.ASSISTANT_HISTORY_MESSAGES,
    historyChars: c.ASSISTANT_HISTORY_CHARS,
    toolIterations: c.ASSISTANT_TOOL_ITERATIONS,
  };
}
