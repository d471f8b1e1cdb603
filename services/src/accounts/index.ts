// The accounts area: sign-up, sign-in, sign-out, sessions and the account's data export.
export * from './end-credentials.js';
export * from './export-data.js';
export * from './operations.js';
export * from './password.js';
export * from './session-token.js';
export * from './set-discoverable.js';
export * from './set-time-zone.js';
export * from './sign-in.js';
export * from './sign-out.js';
export * from './sign-up.js';
export * from './ports.js';
export * from './accounts-operation.js';
