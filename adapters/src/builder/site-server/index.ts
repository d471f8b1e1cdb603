// Serving published sites in front of the application router (docs/builder.md#serving).
export * from './served-site.js';
export * from './site-headers.js';
export * from './site-server.js';
