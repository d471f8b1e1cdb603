// The spatial area's projections and read models: worlds, tags, the primary world, and presence.
export * from './spatial-projection.js';
export * from './spatial-read-models.js';
export * from './presence-projection.js';
export * from './projections.js';
