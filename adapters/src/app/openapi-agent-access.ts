// OpenAPI paths of agent access (docs/agent-access.md, docs/oauth.md): the MCP endpoint, the token
// routes, OAuth (RFC 8414 metadata, RFC 7591 registration, authorization code with PKCE, RFC 8628 device
// flow, RFC 7009 revocation), the pages people use, the discovery documents, the public registry and
// the landing page. Request schemas come from the same zod schemas the routes use.
import { issueToken, registerOAuthClient, revokeToken } from '@tributary/services';
import type { z } from 'zod';
import { registryLookup, registryQuery } from '../federation/index.js';
import {
  openApiJson as json,
  optionalSessionSecurity,
  problemResponse as problem,
  publicSecurity,
  sessionSecurity as session,
} from '../http/index.js';

const oauthError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
});
const rateLimited = {
  description: 'Too many requests from this address; `Retry-After` says when to retry',
  headers: { 'Retry-After': { schema: { type: 'integer' } } },
};
const ok = (description: string, type = 'application/json') => ({
  description,
  content: { [type]: { schema: type === 'application/json' ? { type: 'object' } : { type: 'string' } } },
});
const html = (description: string) => ok(description, 'text/html');
const form = (properties: Record<string, string>, required: string[]) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required,
        properties: Object.fromEntries(
          Object.entries(properties).map(([k, description]) => [k, { type: 'string', description }]),
        ),
      },
    },
  },
});
const queryParams = (schema: z.ZodType) =>
  Object.entries((json(schema) as { properties: Record<string, unknown> }).properties).map(([name, s]) => ({
    name,
    in: 'query',
    schema: s,
  }));

/** A public discovery document: GET, CORS-readable, rate-limited per address. */
const document = (operationId: string, summary: string, description: string, type = 'application/json') => ({
  get: {
    operationId,
    summary,
    tags: ['discovery'],
    security: publicSecurity,
    responses: { '200': ok(description, type), '429': rateLimited },
  },
});

export function agentAccessPaths(): Record<string, unknown> {
  return {
    '/': {
      get: {
        operationId: 'landing',
        summary: 'A page naming this instance (name, role, id, signing key id) with links to start from',
        tags: ['discovery'],
        security: publicSecurity,
        responses: { '200': html('The landing page'), '429': rateLimited },
      },
    },
    '/api/openapi.json': document('openapi', 'This document', 'OpenAPI 3.1'),
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
    '/api/mcp/token/revoke': {
      post: {
        operationId: 'mcp.token.revoke',
        summary:
          'Revoke a token: JSON `{ jti }` with a session, or RFC 7009 form `token=&client_id=` from the client (its own tokens only)',
        tags: ['tokens', 'oauth'],
        security: optionalSessionSecurity,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: json(revokeToken.input) },
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['token', 'client_id'],
                properties: { token: { type: 'string' }, client_id: { type: 'string' } },
              },
            },
          },
        },
        responses: {
          '200': ok('JSON: the revoked token; form (RFC 7009 §2.2): empty, whether or not it was valid'),
          '400': oauthError(
            'RFC 7009 form: invalid_request (no `token` or `client_id`), invalid_grant (a live token issued to another client; not revoked)',
          ),
          '401': oauthError('invalid_client: unknown client, or a secret (every client is public)'),
          default: problem,
        },
      },
    },

    '/api/mcp/oauth/register': {
      post: {
        operationId: 'oauth.register',
        summary: 'RFC 7591 dynamic client registration of a public client (PKCE); rate-limited per address',
        tags: ['oauth'],
        security: publicSecurity,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(registerOAuthClient.input) } },
        },
        responses: {
          '201': ok('{ client_id, client_name, redirect_uris, grant_types, token_endpoint_auth_method, … }'),
          '400': oauthError('invalid_client_metadata or invalid_redirect_uri'),
          '429': { ...oauthError('temporarily_unavailable: too many registrations'), ...rateLimited },
        },
      },
    },
    '/mcp/oauth/authorize': {
      get: {
        operationId: 'oauth.authorize',
        summary: 'The authorization endpoint: the consent page (or the sign-in form without a session)',
        tags: ['oauth', 'pages'],
        security: optionalSessionSecurity,
        parameters: [
          'response_type',
          'client_id',
          'redirect_uri',
          'scope',
          'state',
          'code_challenge',
          'code_challenge_method',
          'resource',
        ].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        responses: {
          '200': html('The consent page or the sign-in form'),
          '303': {
            description: 'Back to the client with an error (only once client and redirect check out)',
          },
          '400': html('An unknown client or unregistered redirect URI, shown on the page'),
        },
      },
    },
    '/api/mcp/oauth/authorize': {
      post: {
        operationId: 'oauth.consent',
        summary: "The consent page's form: allow or deny (same origin, CSRF token)",
        tags: ['oauth', 'pages'],
        security: session,
        requestBody: form(
          {
            csrf: 'from the page',
            client_id: '',
            redirect_uri: '',
            state: '',
            code_challenge: 'S256 PKCE challenge',
            code_challenge_method: 'S256',
            scope: 'space separated',
            resource: 'RFC 8707',
            decision: 'approve or deny',
            persona: 'the agent to act as',
          },
          ['csrf', 'client_id', 'redirect_uri', 'decision'],
        ),
        responses: {
          '303': { description: 'Back to the client with `code`, `state` and `iss`, or `error`' },
          '403': html('The form expired or did not come from this site'),
        },
      },
    },
    '/mcp/oauth/signin': {
      post: {
        operationId: 'oauth.page_sign_in',
        summary: "The pages' sign-in form (same origin, login CSRF cookie)",
        tags: ['pages'],
        security: publicSecurity,
        requestBody: form(
          { csrf: '', return_to: 'a /mcp/ page', identifier: 'email or handle', password: '' },
          ['csrf', 'identifier', 'password'],
        ),
        responses: {
          '303': { description: 'Signed in; back to `return_to`' },
          '401': html('The form again, with the error'),
          '429': { ...html('Too many failed sign-ins'), ...rateLimited },
        },
      },
    },
    '/mcp/oauth/signout': {
      post: {
        operationId: 'oauth.page_sign_out',
        summary: "The pages' sign-out form",
        tags: ['pages'],
        security: optionalSessionSecurity,
        requestBody: form({ csrf: '' }, ['csrf']),
        responses: { '303': { description: 'Signed out; to /mcp/authorize' } },
      },
    },
    '/api/mcp/oauth/token': {
      post: {
        operationId: 'oauth.token',
        summary: 'The token endpoint: authorization_code (PKCE), refresh_token, device_code grants',
        tags: ['oauth'],
        security: publicSecurity,
        requestBody: form(
          {
            grant_type: 'authorization_code, refresh_token or urn:ietf:params:oauth:grant-type:device_code',
            client_id: '',
            code: 'authorization_code',
            redirect_uri: 'authorization_code',
            code_verifier: 'authorization_code',
            refresh_token: 'refresh_token',
            device_code: 'device_code',
            scope: 'refresh_token: a narrower set',
            resource: 'RFC 8707',
          },
          ['grant_type', 'client_id'],
        ),
        responses: {
          '200': ok('{ access_token, token_type, expires_in, refresh_token, scope }'),
          '400': oauthError('RFC 6749 / RFC 8628 error (invalid_grant, slow_down, …)'),
          '401': oauthError('invalid_client'),
        },
      },
    },
    '/api/mcp/device/token': {
      post: {
        operationId: 'oauth.device_token',
        summary: 'The token endpoint under the device flow’s own path (same grants and answers)',
        tags: ['oauth'],
        security: publicSecurity,
        requestBody: form(
          { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: '', device_code: '' },
          ['grant_type', 'client_id', 'device_code'],
        ),
        responses: {
          '200': ok('{ access_token, token_type, expires_in, refresh_token, scope }'),
          '400': oauthError('authorization_pending, slow_down, access_denied, expired_token, …'),
        },
      },
    },
    '/api/mcp/device/code': {
      post: {
        operationId: 'oauth.device_code',
        summary: 'RFC 8628 device authorization: a device code and a user code to enter',
        tags: ['oauth'],
        security: publicSecurity,
        requestBody: form({ client_id: '', scope: 'space separated', resource: 'RFC 8707' }, ['client_id']),
        responses: {
          '200': ok(
            '{ device_code, user_code, verification_uri, verification_uri_complete, expires_in, interval }',
          ),
          '400': oauthError('invalid_client, invalid_scope, …'),
        },
      },
    },
    '/mcp/authorize': {
      get: {
        operationId: 'oauth.device_page',
        summary: 'The device page: enter or confirm a user code, see the client and scopes',
        tags: ['oauth', 'pages'],
        security: optionalSessionSecurity,
        parameters: [{ name: 'user_code', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': html('The code form, the approval form, or the sign-in form'),
          '404': html('The code is not valid or has expired'),
          '429': { ...html('Too many wrong codes'), ...rateLimited },
        },
      },
    },
    '/api/mcp/device/approve': {
      post: {
        operationId: 'oauth.device_approve',
        summary: "The device page's form: approve or deny a user code (same origin, CSRF token)",
        tags: ['oauth', 'pages'],
        security: session,
        requestBody: form(
          { csrf: '', user_code: '', decision: 'approve or deny', persona: 'the agent to act as' },
          ['csrf', 'user_code', 'decision'],
        ),
        responses: {
          '200': html('Connected, or denied'),
          '404': html('The code is not valid or has expired'),
          '429': { ...html('Too many wrong codes'), ...rateLimited },
        },
      },
    },
    '/mcp/apps': {
      get: {
        operationId: 'oauth.connected_apps',
        summary:
          "Connected apps: the account's OAuth grants and scoped tokens (sign-in form without a session)",
        tags: ['pages'],
        security: optionalSessionSecurity,
        responses: { '200': html('The list, or the sign-in form') },
      },
    },
    '/mcp/apps/revoke': {
      post: {
        operationId: 'oauth.connected_apps_revoke',
        summary: 'Revoke one grant or token from the connected-apps page (same origin, CSRF token)',
        tags: ['pages'],
        security: session,
        requestBody: form(
          { csrf: '', family: 'an OAuth grant (token family) id', jti: 'a scoped token id' },
          ['csrf'],
        ),
        responses: {
          '303': { description: 'Back to /mcp/apps' },
          '404': html('No such grant or token of yours'),
        },
      },
    },

    '/api/federation/registry': {
      get: {
        operationId: 'svc.federation.registry',
        summary: 'The public registry of agents known here (local and from peers), public fields only',
        tags: ['federation'],
        security: publicSecurity,
        parameters: queryParams(registryQuery),
        responses: { '200': ok('{ agents, next }'), '429': rateLimited, default: problem },
      },
      post: {
        operationId: 'svc.federation.registry_lookup',
        summary: 'Registry entries of the given agent ids',
        tags: ['federation'],
        security: publicSecurity,
        requestBody: { required: true, content: { 'application/json': { schema: json(registryLookup) } } },
        responses: { '200': ok('{ agents }'), '429': rateLimited, default: problem },
      },
    },
    '/api/federation/registry/{agentId}': {
      get: {
        operationId: 'svc.federation.registry_agent',
        summary: "One agent's registry entry",
        tags: ['federation'],
        security: publicSecurity,
        parameters: [
          { name: 'agentId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        responses: { '200': ok('{ agent }'), '429': rateLimited, default: problem },
      },
    },
  };
}

/** Schemas the agent-access paths refer to. */
export const agentAccessSchemas = {
  OAuthError: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  },
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
