// The assistant area (docs/assistant.md).
export * from './plan-hash.js';
export * from './propose-plan.js';
export * from './read-settings.js';
export * from './builtin-planner.js';
