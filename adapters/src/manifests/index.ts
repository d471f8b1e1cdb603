// The per-entity universal manifests surface.
export * from './manifest-routes.js';
export * from './openapi-manifests.js';
