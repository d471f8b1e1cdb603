// OpenAPI paths of site addresses: the session routes /api/builder/address and the global instance's
// peer-signed registry (docs/builder.md#addresses, docs/federation.md#site-address-registry).
import { claimAddress, recordAddressInstance, releaseAddress, siteAddressOutput } from '@tributary/services';
import type { z } from 'zod';
import { siteAddressRequest } from '../federation/index.js';
import {
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];
const result = (schema: z.ZodType) => ({
  content: { 'application/json': { schema: { type: 'object', properties: { result: json(schema) } } } },
});

export function addressPaths(): Record<string, unknown> {
  return {
    '/api/builder/address': {
      post: {
        operationId: 'builder.address.claim',
        summary: `${claimAddress.title} (${claimAddress.name})`,
        description: claimAddress.description,
        tags: ['builder'],
        security: session,
        requestBody: { content: { 'application/json': { schema: json(claimAddress.input) } } },
        responses: {
          '200': { description: 'The address the site already holds', ...result(siteAddressOutput) },
          '201': { description: 'Claimed', ...result(siteAddressOutput) },
          default: problem,
        },
      },
      delete: {
        operationId: 'builder.address.release',
        summary: `${releaseAddress.title} (${releaseAddress.name})`,
        description: `${releaseAddress.description} The input is a JSON body or the query parameters.`,
        tags: ['builder'],
        security: session,
        parameters: [
          { name: 'targetAgentId', in: 'query', schema: { type: 'string' } },
          { name: 'siteId', in: 'query', schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/json': { schema: json(releaseAddress.input) } } },
        responses: {
          '200': {
            description: 'Released: { label, siteId, releasedAt, holdUntil }',
            ...(releaseAddress.output && result(releaseAddress.output)),
          },
          default: problem,
        },
      },
    },
    '/api/federation/site-addresses': {
      post: {
        operationId: 'svc.builder.register_address',
        summary:
          'On the global instance: claim (first come by signed request) or release a label for the signing instance',
        tags: ['builder'],
        security: peerSigned,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(siteAddressRequest) } },
        },
        responses: {
          '200': { description: '{ result: { label, instanceId, siteId | releasedAt, holdUntil } }' },
          default: problem,
        },
      },
    },
    '/api/federation/site-addresses/instances': {
      post: {
        operationId: recordAddressInstance.name,
        summary: `On the global instance: ${recordAddressInstance.title.toLowerCase()}`,
        description: recordAddressInstance.description,
        tags: ['builder'],
        security: peerSigned,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(recordAddressInstance.input) } },
        },
        responses: { '200': { description: '{ result: { instanceId, hostname } }' }, default: problem },
      },
    },
  };
}
