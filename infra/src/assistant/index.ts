// The assistant's infrastructure: its language model, and the connected account's secrets.
export * from './attachment-processor.js';
export * from './openai-language-model.js';
export * from './language-model-from-config.js';
export * from './secret-key.js';
export { createPgAccountVault } from './pg-account-vault.js';
