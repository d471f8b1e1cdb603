// The federation area's read models: peers, their keys, applied mutations and the registry queries.
export * from './federation-read-models.js';
export * from './federation-surface-read-models.js';
export * from './peer-mutations-projection.js';
export * from './peers-projection.js';
export * from './projections.js';
