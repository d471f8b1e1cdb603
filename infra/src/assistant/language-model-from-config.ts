// Which LanguageModel the assistant uses (docs/assistant.md#the-model): the OpenAI-compatible API when
// LLM_BASE_URL is set, else the built-in planner. Kept apart from compose-assistant.ts so the choice is
// one function the status route, the compose file and the tests share.
import type { OutboundHttp } from '@tributary/adapters';
import { createBuiltinPlanner, type LanguageModel } from '@tributary/services';
import type { Config } from '../config/config.js';
import { createOpenAiLanguageModel } from './openai-language-model.js';

export type LanguageModelConfig = Pick<
  Config,
  'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL' | 'LLM_TIMEOUT_MS' | 'LLM_ACCEPTS_IMAGES'
>;

export function languageModelFromConfig(config: LanguageModelConfig, outbound: OutboundHttp): LanguageModel {
  if (!config.LLM_BASE_URL) return createBuiltinPlanner();
  return createOpenAiLanguageModel({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    // The config refuses LLM_BASE_URL without LLM_MODEL.
    model: config.LLM_MODEL!,
    timeoutMs: config.LLM_TIMEOUT_MS,
    acceptsImages: config.LLM_ACCEPTS_IMAGES,
    outbound,
  });
}
