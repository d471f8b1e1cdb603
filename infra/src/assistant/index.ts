// The assistant's infrastructure: its language model.
export * from './openai-language-model.js';
export * from './language-model-from-config.js';
