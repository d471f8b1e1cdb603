// The OpenAPI document, derived from the zod schemas of the catalogue and of the fixed routes.
import { allOperations, feedQuery, signIn, signUp, signUpAnswer } from '@tributary/services';
import {
  assistantAccountPaths,
  assistantAttachmentPaths,
  assistantPaths,
  assistantPlanPaths,
  assistantSettingsPaths,
} from '../assistant/index.js';
import { builderPaths } from '../builder/index.js';
import { agentAccessPaths, agentAccessSchemas } from './openapi-agent-access.js';
import { studioPaths } from './openapi-studio.js';
import { webPaths } from './openapi-web.js';
import { federationSurfacePaths } from './openapi-federation-surface.js';
import { manifestPaths } from '../manifests/index.js';
import { spatialPaths, travellerPaths } from '../spatial/index.js';
import { ssoPaths } from '../sso/index.js';
import { federationSyncPaths } from './openapi-federation-sync.js';
import { addressPaths } from './openapi-addresses.js';
import { paymentPaths } from './openapi-payments.js';
import { mailPaths } from './openapi-mail.js';
import { hoistDefinitions } from './openapi-definitions.js';
import {
  aliasOperationId,
  idempotencyKeyParameter,
  openApiJson as json,
  optionalSessionSecurity,
  problemResponse as problem,
  publicSecurity,
  sessionSecurity as session,
} from '../http/index.js';

export function openApiDocument(baseUrl: string) {
  const paths: Record<string, unknown> = {
    '/api/auth/signup': {
      post: {
        operationId: signUp.name,
        security: publicSecurity,
        summary: signUp.description,
        requestBody: { required: true, content: { 'application/json': { schema: json(signUp.input) } } },
        responses: {
          '201': {
            description: 'Signed up and signed in; sets the session cookie',
            content: { 'application/json': { schema: json(signUpAnswer) } },
          },
          default: problem,
        },
      },
    },
    '/api/auth/signin': {
      post: {
        operationId: signIn.name,
        security: publicSecurity,
        summary: signIn.description,
        requestBody: { required: true, content: { 'application/json': { schema: json(signIn.input) } } },
        responses: { '200': { description: 'Signed in; sets the session cookie' }, default: problem },
      },
    },
    '/api/auth/signout': {
      post: {
        operationId: aliasOperationId('svc.auth.sign_out'),
        security: optionalSessionSecurity,
        summary: 'End the session and clear its cookie',
        responses: { '204': { description: 'Signed out' } },
      },
    },
    '/api/auth/me': {
      get: {
        operationId: 'svc.auth.me',
        security: session,
        summary: 'The signed-in account and its agent',
        responses: { '200': { description: 'The signed-in account' }, default: problem },
      },
    },
    '/api/federation/events': {
      get: {
        operationId: 'svc.federation.feed',
        security: publicSecurity,
        summary: 'Signed public events after `since`, in sequence order (public)',
        parameters: Object.entries(
          (json(feedQuery) as { properties: Record<string, unknown> }).properties,
        ).map(([name, schema]) => ({
          name,
          in: 'query',
          schema,
        })),
        responses: {
          '200': {
            description:
              '{ events: [{ sequence, event }], head, hasMore }; Cache-Control public, max-age=300 when known full, else no-cache',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '429': {
            description: 'Too many requests from this address; `Retry-After` says when to retry',
            headers: { 'Retry-After': { schema: { type: 'integer' } } },
          },
          default: problem,
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'health',
        security: publicSecurity,
        summary: 'Liveness: the process is up and its embedded database running',
        responses: {
          '200': { description: 'The process is up' },
          '503': { ...problem, description: 'The embedded PostgreSQL is not running (being restarted)' },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'ready',
        security: publicSecurity,
        summary: 'Readiness: the database is reachable and migrations are applied',
        responses: { '200': { description: 'Database reachable, migrations applied' }, '503': problem },
      },
    },
  };
  Object.assign(
    paths,
    federationSurfacePaths(),
    federationSyncPaths(),
    agentAccessPaths(),
    builderPaths(),
    addressPaths(),
    paymentPaths(),
    spatialPaths(),
    assistantPaths(),
    assistantPlanPaths(),
    assistantSettingsPaths(),
    assistantAccountPaths(),
    manifestPaths(),
    travellerPaths(),
    assistantAttachmentPaths(),
    webPaths(),
    mailPaths(),
    studioPaths(),
    ssoPaths(),
  );
  for (const op of allOperations()) {
    if (op.public) continue;
    paths[`/api/ops/${op.name}`] = {
      post: {
        operationId: op.name,
        summary: op.title,
        description: `${op.description}\n\nToken scopes: ${op.scopes.join(', ') || 'none'}; MCP: ${op.enabledFor.join(', ') || 'not a tool'}.`,
        tags: [op.name.split('.')[1]],
        ...(op.kind === 'command' && { parameters: [idempotencyKeyParameter] }),
        requestBody: { required: true, content: { 'application/json': { schema: json(op.input) } } },
        responses: {
          '200': {
            description: 'The result',
            ...(op.output && { content: { 'application/json': { schema: json(op.output) } } }),
          },
          '201': { description: 'Committed: the result and the events written' },
          default: problem,
        },
        security: [{ session: [] }],
      },
    };
  }
  const schemas: Record<string, unknown> = {
    ...agentAccessSchemas,
    Problem: {
      type: 'object',
      required: ['type', 'title', 'status', 'code'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        code: { type: 'string' },
        detail: { type: 'string' },
        instance: { type: 'string' },
        requestId: { type: 'string' },
      },
    },
  };
  hoistDefinitions(paths, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tributary instance API',
      version: '0.1.0',
      // The licence package.json declares, as an SPDX identifier.
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
      description: [
        'Every HTTP route of an instance. REST errors are RFC 9457 problem+json with a stable `code`; OAuth',
        'endpoints answer OAuth error bodies; the MCP endpoint answers JSON-RPC errors.',
        'A known path asked with a method it does not answer is 405 `route.method_not_allowed` with `Allow`;',
        'OPTIONS answers `Allow` (and, on public documents, CORS preflights with `Access-Control-Allow-Origin: *`).',
        'Public documents, the feed and client registration are rate-limited per client address: 429 with',
        '`Retry-After` (docs/operations.md).',
        'Every write (`/api/ops`, the fixed write routes, MCP tool calls) takes an `Idempotency-Key` header: a',
        'retry with it answers the first outcome and writes nothing. 503 `service.unavailable` means nothing',
        'was written; 503 `log.outcome_unknown` (with `commandId`) means the database went away while the',
        'write was committing: retry with the same key to learn the outcome (docs/api.md#idempotency).',
      ].join(' '),
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'tributary_session' },
        bearer: { type: 'http', scheme: 'bearer', description: 'An MCP token (scoped, OAuth or static)' },
        // RFC 9421 HTTP Message Signatures by a registered peer (docs/federation.md).
        peerSignature: { type: 'apiKey', in: 'header', name: 'Signature' },
        // A visitor from another instance, read-only, where a route says so (docs/assistant.md).
        remoteViewer: { type: 'apiKey', in: 'cookie', name: 'svc_remote_viewer' },
      },
      schemas,
    },
  };
}
