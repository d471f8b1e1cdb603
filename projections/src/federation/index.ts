// The federation area's read models: peers, their keys, applied mutations, the registry queries and
// whom agents here follow.
export * from './federation-read-models.js';
export * from './federation-surface-read-models.js';
export * from './follows-projection.js';
export * from './follows-read-models.js';
export * from './peer-mutations-projection.js';
export * from './peers-projection.js';
export * from './projections.js';
