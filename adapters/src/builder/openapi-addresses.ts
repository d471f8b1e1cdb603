// OpenAPI paths of a site's address: the session routes /api/builder/address (docs/builder.md#addresses),
// beside address-routes.ts.
import { claimAddress, releaseAddress, siteAddressOutput } from '@tributary/services';
import type { z } from 'zod';
import {
  openApiJson as json,
  problemResponse as problem,
  sessionSecurity as session,
} from '../http/index.js';

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
  };
}
