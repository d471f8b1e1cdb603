// The site builder's surfaces: its REST routes under /api/builder with their OpenAPI paths, the
// server of published sites, and the client of the global address registry.
export * from './builder-routes.js';
export * from './openapi-builder.js';
export { tlsAskRoutes, type TlsAskOptions } from './domain-routes.js';
export * from './site-server/index.js';
export * from './address-routes.js';
export * from './site-address-registry-client.js';
export { createFormSubmissionHook } from './form-submission.js';
export { addressPaths } from './openapi-addresses.js';
