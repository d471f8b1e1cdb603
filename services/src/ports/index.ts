export * from './event-store.js';
export * from './signer.js';
export * from './runtime.js';
export * from './read-models.js';
export * from './metrics.js';
