// The agents area's read models: local and federated agents.
export * from './agents-projection.js';
export * from './federated-agents.js';
export * from './projections.js';
export * from './agent-read-models.js';
