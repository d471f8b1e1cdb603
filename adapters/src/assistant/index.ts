// The assistant's REST routes under /api/autobot (docs/assistant.md) with their OpenAPI paths, and the
// connected account's provider client.
export * from './chat-routes.js';
export * from './openapi-assistant.js';
export * from './assistant-routes.js';
export * from './openapi-assistant-plans.js';
export * from './settings-routes.js';
export * from './openapi-assistant-settings.js';
export * from './provider-client.js';
export { assistantAccountRoutes } from './account-routes.js';
export { assistantAccountPaths } from './openapi-account.js';
export * from './attachment-routes.js';
export * from './openapi-attachments.js';
