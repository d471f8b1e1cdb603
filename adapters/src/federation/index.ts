// The federation surface: signed requests (RFC 9421) both ways, the peer clients, the feed, import and
// export, the registry, status and the rest of the public federation routes.
export * from './federation-routes.js';
export * from './federation-status-routes.js';
export * from './federation-surface-routes.js';
export * from './feed-routes.js';
export * from './http-signature.js';
export * from './peer-client.js';
export * from './peer-surface-client.js';
export * from './site-address-registry-routes.js';
export * from './url-guard.js';
export { peerAuthentication } from './peer-authentication.js';
export * from './mail-routes.js';
export * from './user-search-routes.js';
export { federationSyncPaths } from './openapi-federation-sync.js';
export { registryPaths, federationSurfacePaths } from './openapi-federation-surface.js';
export { siteAddressRegistryPaths } from './openapi-site-addresses.js';
export { federationMailPaths } from './openapi-federation-mail.js';
