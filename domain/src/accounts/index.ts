// The accounts area: accounts, email claims and sessions.
export * from './account.js';
export * from './aggregates.js';
export * from './events.js';
export * from './error-codes.js';
export * from './reserved-handles.js';
