// The federation area: peers, imported events, sync policy, following agents and the rest of the
// federation surface.
export * from './aggregates.js';
export * from './events.js';
export * from './federation-surface.js';
export * from './follows.js';
export * from './import-rules.js';
export * from './peer.js';
export * from './relay.js';
export * from './roles.js';
export * from './sync-policy.js';
export * from './error-codes.js';
