export * from './event-store.js';
export * from './signer.js';
export * from './runtime.js';
export * from './read-models.js';
export * from './access-tokens.js';
export * from './agent-access-read-models.js';
export * from './oauth-read-models.js';
export * from './federation.js';
