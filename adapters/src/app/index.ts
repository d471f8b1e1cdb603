// The composition of the surfaces: the Express app, the agent-access routes mounted on it, and the
// OpenAPI document describing all of them.
export * from './agent-access.js';
export * from './http-app.js';
export * from './openapi.js';
