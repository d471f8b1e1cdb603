// The mail area: templates, mail requests and what the sending consumer did, single-use account tokens.
export * from './aggregates.js';
export * from './error-codes.js';
export * from './events.js';
export * from './mail.js';
export * from './templates.js';
export * from './submission-notices.js';
