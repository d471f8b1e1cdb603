// The manifests area: universal manifests of the entities this instance is home to.
export * from './events.js';
export * from './publication.js';
export * from './aggregates.js';
export * from './error-codes.js';
