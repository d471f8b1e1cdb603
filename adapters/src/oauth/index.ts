// The OAuth endpoints: registration, consent, tokens, the device flow, revocation and the connected-apps
// page, with the client directory they share.
export * from './client-directory.js';
export * from './connected-apps-routes.js';
export * from './consent-routes.js';
export * from './device-routes.js';
export * from './oauth-errors.js';
export * from './register-routes.js';
export * from './token-routes.js';
export { oauthPaths, oauthSchemas } from './openapi-oauth.js';
