// OpenAPI paths of the rest of the federation surface (docs/federation.md) and of the public registry.
import {
  discoverQuery,
  entityStatusRequest,
  mutationEnvelopeSchema,
  PEER_MUTATION_OPERATIONS,
  QUERY_DEFAULT_LIMIT,
} from '@tributary/services';
import { ENTITY_STATUS_MAX, QUERY_MAX_LIMIT } from '@tributary/domain';
import type { z } from 'zod';
import {
  openApiJson as json,
  okResponse as ok,
  problemResponse as problem,
  publicSecurity,
  rateLimitedResponse as rateLimited,
} from '../http/index.js';
import { registryLookup, registryQuery } from './federation-routes.js';

const peerSigned = [{ peerSignature: [] }];
const document = (description: string) => ({ '200': { description }, default: problem });

export function federationSurfacePaths(): Record<string, unknown> {
  return {
    '/api/federation/mutations': {
      post: {
        operationId: 'svc.federation.mutation',
        summary: `A mutation envelope signed by the sending peer, run as its agent (allowed: ${PEER_MUTATION_OPERATIONS.join(', ')})`,
        security: peerSigned,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(mutationEnvelopeSchema) } },
        },
        responses: document('{ mutationId, operation, result, events }'),
      },
    },
    '/api/federation/query': {
      get: {
        operationId: 'svc.federation.query',
        security: publicSecurity,
        summary: `Public resources (agents, our own public events), at most ${QUERY_MAX_LIMIT} per page`,
        parameters: [
          { name: 'resource', in: 'query', required: true, schema: { enum: ['agents', 'events'] } },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: QUERY_MAX_LIMIT, default: QUERY_DEFAULT_LIMIT },
          },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'origin', in: 'query', description: 'agents only', schema: { type: 'string' } },
          {
            name: 'type',
            in: 'query',
            description: 'events only, comma separated',
            schema: { type: 'string' },
          },
          { name: 'stream', in: 'query', description: 'events only', schema: { type: 'string' } },
        ],
        responses: document('{ resource, items, next }'),
      },
    },
    '/api/federation/entity-status': {
      post: {
        operationId: 'svc.federation.entity_status',
        summary: `Reconciliation probe for up to ${ENTITY_STATUS_MAX} entities: live, deleted, missing or not_authoritative`,
        security: peerSigned,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(entityStatusRequest) } },
        },
        responses: document('{ results: [{ kind, id, status, origin?, originId? }] }'),
      },
    },
    '/api/federation/discover': {
      get: {
        operationId: 'svc.federation.discover',
        security: publicSecurity,
        summary:
          'Where an identity (email, handle, agent or instance id, domain) lives; emails for peers only',
        parameters: Object.entries(
          (json(discoverQuery) as { properties: Record<string, unknown> }).properties,
        ).map(([name, schema]) => ({ name, in: 'query', required: true, schema })),
        responses: document('{ cue, found, where?, instance?, peer?, agent? }'),
      },
    },
    '/api/federation/manifest': {
      get: {
        operationId: 'svc.federation.manifest',
        security: publicSecurity,
        summary: 'The signed instance manifest (JCS + Ed25519), expiring 30 days after issuance',
        responses: document('The manifest with `sig`'),
      },
    },
  };
}

const queryParams = (schema: z.ZodType) =>
  Object.entries((json(schema) as { properties: Record<string, unknown> }).properties).map(([name, s]) => ({
    name,
    in: 'query',
    schema: s,
  }));

/** The public registry of agents known here (federation-routes.ts). */
export function registryPaths(): Record<string, unknown> {
  return {
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
