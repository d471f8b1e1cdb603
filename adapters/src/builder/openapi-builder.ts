// OpenAPI paths of the site builder's REST routes (docs/builder.md), from the same zod schemas the
// catalogue operations use. Every builder route is listed here (the openapi-routes test checks it).
import {
  createSite,
  listSites,
  readDraft,
  readSite,
  saveDraft,
  suspendSite,
  unsuspendSite,
  updateSite,
  type Operation,
} from '@tributary/services';
import { z } from 'zod';
import { DRAFT_BODY_MAX_BYTES } from './route-options.js';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'input') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });
const problem = {
  description: 'RFC 9457 problem details with a stable `code`',
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const session = [{ session: [] }];

/** `{ result }` with the operation's output. */
const answer = (op: Operation<unknown, unknown>, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['result'],
        properties: { result: op.output ? json(op.output, 'output') : { type: 'object' } },
      },
    },
  },
});

/** A GET route: the operation's input as query parameters. */
function query(op: Operation<unknown, unknown>, status: string, description: string) {
  const schema = json(op.input) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    operationId: op.name,
    summary: op.description,
    tags: ['builder'],
    security: session,
    parameters: Object.entries(schema.properties ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: (schema.required ?? []).includes(name),
      schema: s,
    })),
    responses: { [status]: answer(op, description), default: problem },
  };
}

/** A write: the operation's input as the JSON body. */
function write(op: Operation<unknown, unknown>, status: string, description: string, extra = '') {
  return {
    operationId: op.name,
    summary: op.description + extra,
    tags: ['builder'],
    security: session,
    requestBody: { required: true, content: { 'application/json': { schema: json(op.input) } } },
    responses: { [status]: answer(op, description), default: problem },
  };
}

const asAny = (op: unknown) => op as Operation<unknown, unknown>;

export function builderPaths(): Record<string, unknown> {
  return {
    '/api/builder/sites': {
      get: query(asAny(listSites), '200', "{ result: { sites } }, the owner's default site first"),
      post: write(asAny(createSite), '201', '{ result: site }: the site created'),
    },
    '/api/builder/site': {
      get: query(asAny(readSite), '200', '{ result: { site, publication, versions, nextBefore } }'),
      post: write(asAny(updateSite), '200', '{ result: site } with its settings as now'),
    },
    '/api/builder/suspend': {
      post: write(
        asAny(suspendSite),
        '200',
        '{ result: { siteId, ownerAgentId, suspended: true, reason } }',
        ' Operators only (403 auth.controller_only otherwise).',
      ),
      delete: write(
        asAny(unsuspendSite),
        '200',
        '{ result: { siteId, ownerAgentId, suspended: false, reason: null } }',
        ' Operators only. The body may also be given as query parameters.',
      ),
    },
    '/api/builder/draft': {
      get: query(asAny(readDraft), '200', '{ result: { siteId, revision, document, updatedAt } }'),
      put: write(
        asAny(saveDraft),
        '201',
        '{ result: { siteId, revision, updatedAt } }: the draft saved as a new revision',
        ` A body is at most ${DRAFT_BODY_MAX_BYTES} bytes; 409 builder.draft_stale carries currentRevision.`,
      ),
    },
  };
}
