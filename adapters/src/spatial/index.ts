// The spatial surface: the public Web of Worlds routes, spatial-fabric discovery and tag resolution.
export * from './wow-routes.js';
export * from './openapi-spatial.js';
export * from './spatial-body-cache.js';
