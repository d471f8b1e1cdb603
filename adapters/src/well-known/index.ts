// Every /.well-known document: instance discovery, MCP discovery, OAuth metadata.
export * from './discovery-document-routes.js';
export * from './mcp-discovery-routes.js';
export * from './oauth-metadata-routes.js';
export { agentDiscoveryPaths, instanceDiscoveryPaths } from './openapi-well-known.js';
