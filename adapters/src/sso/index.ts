// The single-sign-on surface: its routes, its OpenAPI paths and the client of the global instance.
export * from './openapi-sso.js';
export * from './sso-global-client.js';
export * from './sso-routes.js';
