// The assistant's REST routes under /api/autobot (docs/assistant.md) with their OpenAPI paths.
export * from './chat-routes.js';
export * from './openapi-assistant.js';
export * from './assistant-routes.js';
export * from './openapi-assistant-plans.js';
export * from './settings-routes.js';
export * from './openapi-assistant-settings.js';
