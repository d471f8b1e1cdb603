// The mail area: requests from peers and from this instance, the sending consumer, account tokens.
export * from './account-mail.js';
export * from './delegated-send.js';
export * from './list-outbox.js';
export * from './operations.js';
export * from './request-mail.js';
export * from './send-mail.js';
export * from './submission-notices.js';
export * from './ports.js';
export * from './mail-operation.js';
