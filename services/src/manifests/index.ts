// The manifests area: signed universal manifests of the entities this instance is home to.
export * from './entity-manifest.js';
export * from './set-publication.js';
export * from './operations.js';
export * from './ports.js';
export * from './manifests-operation.js';
