// OpenAPI paths of the /.well-known documents and /llms.txt (docs/federation.md, docs/agent-access.md,
// docs/oauth.md), beside the routes that serve them.
import { problemResponse as problem, publicDocumentPath as document, publicSecurity } from '../http/index.js';

const answers = (description: string) => ({ '200': { description }, default: problem });

/** The instance's discovery documents: Matrix delegation and the universal manifest. */
export function instanceDiscoveryPaths(): Record<string, unknown> {
  return {
    '/.well-known/matrix/client': {
      get: {
        operationId: 'matrix.client',
        security: publicSecurity,
        summary: 'Matrix client discovery: the homeserver this domain delegates to (404 when none)',
        responses: answers('{ "m.homeserver": { base_url } }'),
      },
    },
    '/.well-known/matrix/server': {
      get: {
        operationId: 'matrix.server',
        security: publicSecurity,
        summary: 'Matrix server-server delegation as host:port (404 when none)',
        responses: answers('{ "m.server": "host:port" }'),
      },
    },
    '/.well-known/universal-manifest.json': {
      get: {
        operationId: 'universal_manifest',
        security: publicSecurity,
        summary: 'The instance as a signed Universal Manifest v0.2 document',
        responses: answers('Universal Manifest v0.2, signed'),
      },
    },
  };
}

/** What an agent reads to connect: /llms.txt, MCP discovery, the OAuth metadata. */
export function agentDiscoveryPaths(): Record<string, unknown> {
  return {
    '/llms.txt': document(
      'llms_txt',
      'The instance described for language models: how to connect, and every tool',
      'Markdown text',
      'text/plain',
    ),
    '/.well-known/mcp': document(
      'mcp.discovery',
      'Where and how to connect over MCP, the authentication methods, scopes and tools',
      '{ name, role, endpoint, transport, protocolVersions, authentication, scopes, tools, documentation }',
    ),
    '/.well-known/oauth-protected-resource': document(
      'oauth.protected_resource',
      'RFC 9728 metadata of the MCP endpoint (its authorization server and scopes)',
      '{ resource, authorization_servers, bearer_methods_supported, scopes_supported, … }',
    ),
    '/.well-known/oauth-protected-resource/api/mcp': document(
      'oauth.protected_resource_mcp',
      'The same RFC 9728 metadata, asked for with the resource path appended (RFC 9728 §3.1)',
      '{ resource, authorization_servers, … }',
    ),
    '/.well-known/oauth-authorization-server': document(
      'oauth.metadata',
      'RFC 8414 authorization server metadata',
      '{ issuer, authorization_endpoint, token_endpoint, registration_endpoint, … }',
    ),
    '/.well-known/openid-configuration': document(
      'oauth.openid_configuration',
      'The same metadata for clients that only know OIDC discovery (no ID tokens are issued)',
      'RFC 8414 metadata plus subject_types_supported, id_token_signing_alg_values_supported',
    ),
  };
}
