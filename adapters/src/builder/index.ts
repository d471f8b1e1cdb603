// The site builder's surfaces: its REST routes under /api/builder with their OpenAPI paths, and the
// server of published sites.
export * from './builder-routes.js';
export * from './openapi-builder.js';
export * from './site-server/index.js';
