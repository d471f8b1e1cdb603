// The spatial surface: the public Web of Worlds routes, spatial-fabric discovery and tag resolution, and
// the travellers' routes (the presentation, the door, who is present).
export * from './wow-routes.js';
export * from './openapi-spatial.js';
export * from './spatial-body-cache.js';
export * from './traveller-routes.js';
export * from './presence-routes.js';
export * from './openapi-travellers.js';
export * from './spatial-fast-path.js';
export * from './wow-headers.js';
