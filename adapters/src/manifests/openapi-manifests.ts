// OpenAPI paths of the per-entity universal manifests (docs/manifests.md).
import { MANIFEST_KINDS } from '@tributary/domain';
import { problemResponse as problem, publicSecurity } from '../http/index.js';

export function manifestPaths(): Record<string, unknown> {
  return {
    '/api/universal-manifest/{kind}/{id}': {
      get: {
        operationId: 'svc.manifest.read',
        security: publicSecurity,
        summary:
          'The signed Universal Manifest v0.2 of a public entity (public; 404 manifest.not_found when unknown or unpublished)',
        parameters: [
          { name: 'kind', in: 'path', required: true, schema: { enum: [...MANIFEST_KINDS] } },
          { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
        ],
        responses: {
          '200': { description: 'Universal Manifest v0.2, signed (Ed25519, JCS-RFC8785), valid 30 days' },
          default: problem,
        },
      },
    },
  };
}
