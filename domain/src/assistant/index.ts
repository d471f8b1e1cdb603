// The assistant area: threads, plans a person confirms, settings, attachments, the connected account.
export * from './aggregates.js';
export * from './attachment-events.js';
export * from './attachment.js';
export * from './error-codes.js';
export * from './events.js';
export * from './limits.js';
export * from './plan.js';
export * from './settings.js';
export * from './streams.js';
export * from './thread.js';
export * from './account-events.js';
export * from './account.js';
