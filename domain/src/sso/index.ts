// The single-sign-on area: assertions, their verification rules, authority revocation, delegated accounts.
export * from './assertion.js';
export * from './events.js';
export * from './streams.js';
export * from './aggregates.js';
export * from './error-codes.js';
