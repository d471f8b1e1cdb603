// The accounts area's read models: accounts and sessions.
export * from './accounts-projection.js';
export * from './projections.js';
export * from './account-read-models.js';
