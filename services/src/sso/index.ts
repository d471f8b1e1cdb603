// The single-sign-on area (docs/sso.md): assertions issued and accepted, remote sessions, password
// checks and accounts delegated between a sovereign instance and the global one.
export * from './accept-assertion.js';
export * from './delegated-accounts.js';
export * from './delegation.js';
export * from './issue-assertion.js';
export * from './operations.js';
export * from './remote-sessions.js';
export * from './session-handoff.js';
export * from './support.js';
export * from './verify-password.js';
export * from './ports.js';
export * from './sso-operation.js';
