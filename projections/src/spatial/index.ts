// The spatial area's projection and read models.
export * from './spatial-projection.js';
export * from './spatial-read-models.js';
export * from './projections.js';
