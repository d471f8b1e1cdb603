// OpenAPI paths of the global instance's peer-signed site address registry
// (docs/federation.md#site-address-registry), beside site-address-registry-routes.ts.
import { recordAddressInstance } from '@tributary/services';
import { siteAddressRequest } from './site-address-registry-routes.js';
import { openApiJson as json, problemResponse as problem } from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];

export function siteAddressRegistryPaths(): Record<string, unknown> {
  return {
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
