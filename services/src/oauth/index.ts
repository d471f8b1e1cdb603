// The OAuth area: client registration, the authorization-code and device flows, refresh and revocation.
export * from './authorize.js';
export * from './client-metadata-document.js';
export * from './decide-device-code.js';
export * from './exchange-code.js';
export * from './grant-family.js';
export * from './operations.js';
export * from './pending-device-request.js';
export * from './redeem-device-code.js';
export * from './refresh-token.js';
export * from './register-client.js';
export * from './request-device-code.js';
export * from './revoke-grant.js';
export * from './revoke-token.js';
export * from './scopes.js';
export * from './ports/index.js';
export * from './oauth-operation.js';
