// The spatial area: hosted worlds (Web of Worlds 0.0.1), their graphs, views, portals, node states and
// tags, and the travellers who come through their doors.
export * from './operations.js';
// Each operation by name too, so the catalogue test sees every operation the area defines.
export { addPortal } from './add-portal.js';
export { addView } from './add-view.js';
export { createWorld } from './create-world.js';
export { listWorlds } from './list-worlds.js';
export { readGraph } from './read-graph.js';
export { readWorld } from './read-world.js';
export { registerTag } from './register-tag.js';
export { removePortal } from './remove-portal.js';
export { removeTag } from './remove-tag.js';
export { removeView } from './remove-view.js';
export { saveGraph } from './save-graph.js';
export { setNodeState } from './set-node-state.js';
export { setPrimaryWorld } from './set-primary-world.js';
export { updateWorld } from './update-world.js';
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
export * from './ports.js';
export * from './spatial-operation.js';
