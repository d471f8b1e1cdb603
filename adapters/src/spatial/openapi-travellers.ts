// OpenAPI paths of travellers and presence (docs/spatial.md#travellers).
import {
  admissionOutput,
  presenceOutput,
  travellerDestination,
  travellerDestinationUrl,
} from '@tributary/services';
import { TRAVELLER_SHARE_FIELDS } from '@tributary/domain';
import { z } from 'zod';
import { openApiJson as json, problemResponse as problem, publicSecurity } from '../http/index.js';

export function travellerPaths(): Record<string, unknown> {
  return {
    '/api/spatial-web/traveller': {
      post: {
        operationId: 'spatial_web_traveller',
        summary: 'A signed, short-lived, audience-bound presentation of the signed-in person (session)',
        security: [{ session: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: json(
                z.strictObject({
                  targetAgentId: z.string().optional(),
                  destination: z.union([travellerDestination, travellerDestinationUrl]),
                  share: z.array(z.enum(TRAVELLER_SHARE_FIELDS)).optional(),
                }),
              ),
            },
          },
        },
        responses: {
          '200': { description: '{ result: { presentation, door, expiresAt } }' },
          default: problem,
        },
      },
    },
    '/wow/user': {
      post: {
        operationId: 'svc.spatial.admit_traveller',
        security: publicSecurity,
        summary: 'The door: present a traveller presentation, get a presence receipt (public, CORS)',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', description: 'the presentation' } } },
        },
        responses: {
          '201': {
            description: "The presence receipt: upstream's User, our members under tributary",
            content: { 'application/json': { schema: json(admissionOutput) } },
          },
          default: problem,
        },
      },
    },
    '/wow/user/{userId}': {
      get: {
        operationId: 'svc.spatial.read_presence',
        security: publicSecurity,
        summary: 'Who is present, by receipt id or subject (public, CORS); 404 once expired',
        parameters: [{ name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: "The presence: upstream's User, our members under tributary",
            content: { 'application/json': { schema: json(presenceOutput) } },
          },
          default: problem,
        },
      },
    },
  };
}
