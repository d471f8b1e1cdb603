// The spatial area: hosted worlds (Web of Worlds 0.0.1), their graphs, views, portals, node states and
// tags, and the travellers who come through their doors.
export * from './operations.js';
export * from './support.js';
export * from './wow-documents.js';
export * from './spatial-fabric.js';
export * from './resolve-tag.js';
export { tagKey, parsedTag } from './tag-support.js';
export * from './traveller-present.js';
export * from './presence-admit.js';
export * from './presence-read.js';
export * from './presence-support.js';
export * from './traveller-operations.js';
