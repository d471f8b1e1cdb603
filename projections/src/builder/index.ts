// The builder area's read models: sites, drafts and versions.
export * from './builder-projection.js';
export * from './builder-read-models.js';
export * from './history-projection.js';
export * from './forms-projection.js';
export * from './forms-read-models.js';
export * from './projections.js';
export * from './site-serving-projection.js';
export * from './site-serving-read-models.js';
export * from './builder-domains-projection.js';
export * from './builder-domains-read-models.js';
export * from './media-projection.js';
export * from './media-read-models.js';
export * from './addresses-projection.js';
export * from './address-read-models.js';
