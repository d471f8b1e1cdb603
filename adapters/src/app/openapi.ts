// The OpenAPI document, composed: each surface describes its fixed routes beside them (`<surface>Paths()`
// from its index.ts), and every catalogue operation gets POST /api/ops/<name> from its zod schemas here.
import { allOperations } from '@tributary/services';
import {
  assistantAccountPaths,
  assistantAttachmentPaths,
  assistantPaths,
  assistantPlanPaths,
  assistantSettingsPaths,
} from '../assistant/index.js';
import { addressPaths, builderPaths } from '../builder/index.js';
import {
  feedPaths,
  federationSurfacePaths,
  federationSyncPaths,
  federationMailPaths,
  registryPaths,
  siteAddressRegistryPaths,
} from '../federation/index.js';
import { mcpPaths, mcpSchemas } from '../mcp/index.js';
import { oauthPaths, oauthSchemas } from '../oauth/index.js';
import { paymentPaths } from '../payments/index.js';
import { landingPaths, studioPaths, webPaths } from '../web/index.js';
import { agentDiscoveryPaths, instanceDiscoveryPaths } from '../well-known/index.js';
import { manifestPaths } from '../manifests/index.js';
import { spatialPaths, travellerPaths } from '../spatial/index.js';
import { ssoPaths } from '../sso/index.js';
import { hoistDefinitions } from './openapi-definitions.js';
import {
  accountMailPaths,
  authPaths,
  healthPaths,
  idempotencyKeyParameter,
  openApiJson as json,
  problemResponse as problem,
  publicDocumentPath,
} from '../http/index.js';

export function openApiDocument(baseUrl: string) {
  const paths: Record<string, unknown> = {};
  Object.assign(
    paths,
    authPaths(),
    feedPaths(),
    healthPaths(),
    federationSurfacePaths(),
    instanceDiscoveryPaths(),
    federationSyncPaths(),
    landingPaths(),
    // This route is the app's own (http-app.ts).
    { '/api/openapi.json': publicDocumentPath('openapi', 'This document', 'OpenAPI 3.1') },
    agentDiscoveryPaths(),
    mcpPaths(),
    oauthPaths(),
    registryPaths(),
    builderPaths(),
    addressPaths(),
    siteAddressRegistryPaths(),
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
    accountMailPaths(),
    federationMailPaths(),
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
    ...oauthSchemas,
    ...mcpSchemas,
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
