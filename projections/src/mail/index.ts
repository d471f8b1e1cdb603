// The mail area's read models: each mail request's status.
export * from './mail-requests-projection.js';
export * from './projections.js';
export * from './submission-notices-projection.js';
