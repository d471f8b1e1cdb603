// The agent-access area's read models: MCP tokens and the provenance log.
export * from './projections.js';
export * from './tokens-projection.js';
export * from './tokens-read-models.js';
