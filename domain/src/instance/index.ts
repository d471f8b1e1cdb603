// The instance area: its creation, keys and operators.
export * from './aggregates.js';
export * from './events.js';
export * from './instance.js';
export * from './error-codes.js';
export * from './settings.js';
