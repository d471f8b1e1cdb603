// OpenAPI paths of the custom-domain routes (docs/builder.md#domains), from the operations' own
// zod schemas.
import { bindDomain, checkDomain, listDomains, unbindDomain } from '@tributary/services';
import type { z } from 'zod';
import {
  aliasOperationId,
  openApiJson as json,
  problemResponse as problem,
  publicSecurity,
  sessionSecurity as session,
} from '../http/index.js';

const result = (schema: z.ZodType | undefined, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { result: schema ? json(schema, 'output') : {} } },
    },
  },
});
const queryParams = (schema: z.ZodObject) =>
  Object.entries(schema.shape).map(([name, s]) => ({
    name,
    in: 'query',
    required: !(s as z.ZodType).safeParse(undefined).success,
    schema: json(s as z.ZodType),
  }));

export function domainPaths(): Record<string, unknown> {
  return {
    '/api/builder/domain': {
      get: {
        operationId: aliasOperationId(listDomains.name),
        tags: ['builder'],
        summary: 'Your custom domains with their state, why each is stuck, and the DNS records each needs',
        security: session,
        parameters: queryParams(listDomains.input as unknown as z.ZodObject),
        responses: { '200': result(listDomains.output, '{ result: { domains } }'), default: problem },
      },
      post: {
        operationId: aliasOperationId(bindDomain.name),
        tags: ['builder'],
        summary:
          'Connect a custom domain to a site (bind it); answers the DNS records to create (201 when bound now, 200 when it already was)',
        security: session,
        requestBody: { required: true, content: { 'application/json': { schema: json(bindDomain.input) } } },
        responses: {
          '201': result(bindDomain.output, '{ result: binding }'),
          '200': result(bindDomain.output, '{ result: binding } (already bound to this site)'),
          default: problem,
        },
      },
      delete: {
        operationId: aliasOperationId(unbindDomain.name),
        tags: ['builder'],
        summary: 'Disconnect (unbind) a custom domain (a JSON body, or the same fields as query parameters)',
        security: session,
        parameters: queryParams(unbindDomain.input as unknown as z.ZodObject),
        requestBody: { content: { 'application/json': { schema: json(unbindDomain.input) } } },
        responses: { '200': result(unbindDomain.output, '{ result }'), default: problem },
      },
    },
    '/api/builder/domain/check': {
      post: {
        operationId: aliasOperationId(checkDomain.name),
        tags: ['builder'],
        summary: "Check a custom domain's DNS records now",
        security: session,
        requestBody: { required: true, content: { 'application/json': { schema: json(checkDomain.input) } } },
        responses: { '200': result(checkDomain.output, '{ result: binding }'), default: problem },
      },
    },
    '/api/builder/tls-ask': {
      get: {
        operationId: 'builder.tls_ask',
        security: publicSecurity,
        tags: ['builder'],
        summary:
          "Caddy's on-demand TLS `ask`: 200 for a verified custom domain or a claimed address, else 404 (public, rate-limited)",
        parameters: [
          { name: 'domain', in: 'query', required: true, schema: { type: 'string', maxLength: 300 } },
        ],
        responses: {
          '200': { description: 'the instance serves this name: a certificate may be obtained' },
          '404': { description: 'not served here' },
          '429': problem,
        },
      },
    },
  };
}
