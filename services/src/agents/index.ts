// The agents area: personas, profiles and an agent's own events.
export * from './create-persona.js';
export * from './delete-persona.js';
export * from './list-personas.js';
export * from './operations.js';
export * from './read-my-events.js';
export * from './read-profile.js';
export * from './update-profile.js';
export * from './ports.js';
export * from './agents-operation.js';
