// The spatial area: hosted worlds (Web of Worlds 0.0.1), their graphs, views, portals, node states and tags.
export * from './streams.js';
export * from './shapes.js';
export * from './events.js';
export * from './error-codes.js';
export * from './graph.js';
export * from './world.js';
export * from './tag.js';
export * from './primary.js';
export * from './aggregates.js';
export * from './traveller-presentation.js';
export * from './presence-events.js';
export * from './presence.js';
