// OpenAPI paths of the MCP endpoint and the session's token routes (docs/agent-access.md), beside
// mcp-routes.ts and token-routes.ts; request schemas are the zod schemas the routes use.
import { issueToken } from '@tributary/services';
import {
  openApiJson as json,
  okResponse as ok,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

export function mcpPaths(): Record<string, unknown> {
  return {
    '/api/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'The MCP endpoint (Streamable HTTP, one JSON-RPC message per request, JSON responses)',
        description:
          'Authenticate with `Authorization: Bearer <token>` (scoped, OAuth or static) or a session cookie from an allowed origin. Other methods answer 405 as JSON-RPC errors. See docs/agent-access.md.',
        tags: ['mcp'],
        security: [{ bearer: [] }, { session: [] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcRequest' } } },
        },
        responses: {
          '200': ok('The JSON-RPC response'),
          '202': { description: 'A notification or response was accepted' },
          '401': {
            description: 'No valid credential; `WWW-Authenticate` names the resource metadata',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } },
          },
          default: {
            description: 'A JSON-RPC error with `data.code`',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcError' } } },
          },
        },
      },
    },
    '/api/mcp/token': {
      post: {
        operationId: 'mcp.token.issue',
        summary: 'Issue a scoped MCP token (a signed-in session only); the token is shown once',
        tags: ['tokens'],
        security: session,
        requestBody: { required: true, content: { 'application/json': { schema: json(issueToken.input) } } },
        responses: {
          '201': ok('{ token, jti, scopes, agentId, expiresAt, audience, expiresIn }'),
          default: problem,
        },
      },
      get: {
        operationId: 'mcp.token.list',
        summary: "The session's account's tokens and their status",
        tags: ['tokens'],
        security: session,
        responses: { '200': ok('{ tokens: [...] }'), default: problem },
      },
    },
  };
}

/** Schemas the MCP paths refer to. */
export const mcpSchemas = {
  JsonRpcRequest: {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'] },
      method: { type: 'string' },
      params: { type: 'object' },
    },
  },
  JsonRpcError: {
    type: 'object',
    required: ['jsonrpc', 'error'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'integer' },
          message: { type: 'string' },
          data: { type: 'object', properties: { code: { type: 'string' } } },
        },
      },
    },
  },
};
