// The OAuth area's read models: clients, codes, families and device requests.
export * from './oauth-projection.js';
export * from './oauth-read-models.js';
export * from './projections.js';
