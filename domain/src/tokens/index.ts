// The agent-access area: scoped MCP tokens and the provenance log.
export * from './aggregates.js';
export * from './events.js';
export * from './mcp-token.js';
export * from './idempotency.js';
export * from './provenance.js';
export * from './error-codes.js';
