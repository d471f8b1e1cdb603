// The OAuth area: clients, codes, refresh-token families and the device flow.
export * from './aggregates.js';
export * from './events.js';
export * from './oauth.js';
export * from './error-codes.js';
