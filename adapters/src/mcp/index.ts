// The MCP surface: the endpoint and its server, the principals it resolves, the access tokens it
// verifies, and the token routes.
export * from './jwt-access-tokens.js';
export * from './json-rpc-error.js';
export * from './mcp-principal.js';
export * from './mcp-routes.js';
export * from './mcp-server.js';
export * from './token-routes.js';
export { mcpPaths, mcpSchemas } from './openapi-mcp.js';
