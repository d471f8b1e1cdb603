// What every surface's OpenAPI paths share: a zod schema as JSON Schema, the problem+json answer and the
// session security requirement (the document itself is composed in adapters/src/app/openapi.ts).
import { jsonSchemaOf } from '@tributary/services';
import type { z } from 'zod';

/** A zod schema as JSON Schema: what a request takes (`input`) or what an answer gives (`output`). */
export const openApiJson = (schema: z.ZodType, io: 'input' | 'output' = 'input') => jsonSchemaOf(schema, io);

/** An error answer: RFC 9457 problem details with a stable `code`. */
export const problemResponse = {
  description: 'RFC 9457 problem details with a stable `code`',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};

/** The security requirement of a route that takes the session cookie. */
export const sessionSecurity: Record<string, never[]>[] = [{ session: [] }];

/** A route anyone may call: no credential (stated, so a reader knows it was not forgotten). */
export const publicSecurity: Record<string, never[]>[] = [];

/** A route that answers with or without a session (a page showing its sign-in form, sign-out). */
export const optionalSessionSecurity: Record<string, never[]>[] = [{ session: [] }, {}];

/**
 * The operation id of a REST alias of a catalogue operation (e.g. `GET /api/builder/sites` runs
 * `svc.builder.list_sites`): the name itself belongs to `POST /api/ops/<name>`, and OpenAPI wants ids unique.
 */
export const aliasOperationId = (name: string) => `${name}.alias`;

/** The `Idempotency-Key` a write takes (docs/api.md#idempotency). */
export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Up to 255 printable ASCII characters, chosen by the client per write. A retry with the same key and ' +
    'input answers the first outcome (with `Idempotent-Replayed: true`) and writes nothing; another ' +
    'input under the same key is 422 `request.idempotency_key_reused`. Keys are per principal and operation.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} as const;

/** 429: too many requests from this client address. */
export const rateLimitedResponse = {
  description: 'Too many requests from this address; `Retry-After` says when to retry',
  headers: { 'Retry-After': { schema: { type: 'integer' } } },
};

/** A successful answer: a JSON object, or text of another media type. */
export const okResponse = (description: string, type = 'application/json') => ({
  description,
  content: { [type]: { schema: type === 'application/json' ? { type: 'object' } : { type: 'string' } } },
});

/** A public discovery document: GET, CORS-readable, rate-limited per address. */
export const publicDocumentPath = (
  operationId: string,
  summary: string,
  description: string,
  type = 'application/json',
) => ({
  get: {
    operationId,
    summary,
    tags: ['discovery'],
    security: publicSecurity,
    responses: { '200': okResponse(description, type), '429': rateLimitedResponse },
  },
});
