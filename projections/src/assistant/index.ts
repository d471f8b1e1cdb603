// The assistant area's read models: threads, messages and plans.
export * from './assistant-projection.js';
export * from './assistant-read-models.js';
export * from './projections.js';
