// The instance area's read models: the instance itself and the event counts.
export * from './event-counts-projection.js';
export * from './instance-projection.js';
