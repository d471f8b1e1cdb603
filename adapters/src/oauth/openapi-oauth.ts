// OpenAPI paths of OAuth (docs/oauth.md): RFC 7591 registration, the authorization code flow with PKCE,
// the RFC 8628 device flow, RFC 7009 revocation and the pages people use, beside the routes in this
// folder; request schemas are the zod schemas the routes use.
import { registerOAuthClient, revokeToken } from '@tributary/services';
import {
  openApiJson as json,
  okResponse as ok,
  optionalSessionSecurity,
  problemResponse as problem,
  publicSecurity,
  rateLimitedResponse as rateLimited,
  sessionSecurity as session,
} from '../http/index.js';

const oauthError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
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

export function oauthPaths(): Record<string, unknown> {
  return {
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
          '400': oauthError(
            'authorization_pending, slow_down (with the current `interval`), access_denied, expired_token, …',
          ),
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
  };
}

/** Schemas the OAuth paths refer to. */
export const oauthSchemas = {
  OAuthError: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string' },
      error_description: { type: 'string' },
      interval: {
        type: 'integer',
        description: 'slow_down only: the seconds to wait between polls from now on (RFC 8628 §3.5)',
      },
    },
  },
};
