// The manifests area's read models: which agents publish their universal manifest.
export * from './manifest-publications-projection.js';
export * from './projections.js';
