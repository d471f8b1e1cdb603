// The assistant's REST routes under /api/autobot (docs/assistant.md).
export * from './chat-routes.js';
export * from './openapi-assistant.js';
export * from './assistant-routes.js';
export * from './openapi-assistant-plans.js';
