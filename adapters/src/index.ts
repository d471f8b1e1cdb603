// The adapters package: each surface through its own index.
export * from './app/index.js';
export * from './assistant/index.js';
export * from './builder/index.js';
export * from './federation/index.js';
export * from './http/index.js';
export * from './manifests/index.js';
export * from './spatial/index.js';
export * from './sso/index.js';
export * from './mcp/index.js';
export * from './oauth/index.js';
export * from './outbound/index.js';
export * from './payments/index.js';
export * from './spatial/index.js';
export * from './web/index.js';
export * from './well-known/index.js';
export * from './builder/index.js';
