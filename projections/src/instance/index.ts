// The instance area's read models: the instance itself.
export * from './instance-projection.js';
export * from './projections.js';
export * from './instance-read-models.js';
