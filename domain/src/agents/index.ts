// The agents area: persons, personas and the instance's own agent, and their handles.
export * from './agent.js';
export * from './aggregates.js';
export * from './events.js';
export * from './error-codes.js';
