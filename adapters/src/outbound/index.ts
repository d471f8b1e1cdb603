// The one way out over HTTP: the outbound client and its address policy.
export * from './address-policy.js';
export * from './outbound-http.js';
export * from './guarded-fetch.js';
