// The agent-access area: scoped MCP tokens and the audit trail of their calls.
export * from './audit-recent.js';
export * from './issue-token.js';
export * from './list-tokens.js';
export * from './operations.js';
export * from './revoke-token.js';
export * from './ports/index.js';
export * from './tokens-operation.js';
