// GET /api/federation/query: public resources, a capped page at a time (QUERY_MAX_LIMIT), with an
// opaque cursor. Agents come from the public registry (never placeholders); events are our own public,
// federable events, each as the exact text we signed. Nothing private is reachable from here.
import { feedEventTypes, invalid, QUERY_MAX_LIMIT } from '@tributary/domain';
import { z } from 'zod';
import type { RegistryAgentView } from './ports/federation.js';
import type { FederationWithSurfaceServices } from './federation-operation.js';

export const QUERY_DEFAULT_LIMIT = 50;

const limit = z.coerce.number().int().min(1).max(QUERY_MAX_LIMIT).default(QUERY_DEFAULT_LIMIT);
const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/)
  .optional();

const federationQuery = z.discriminatedUnion('resource', [
  z.strictObject({
    resource: z.literal('agents'),
    limit,
    cursor,
    origin: z.string().min(1).max(200).optional().describe('only agents of this instance id'),
  }),
  z.strictObject({
    resource: z.literal('events'),
    limit,
    cursor,
    type: z
      .string()
      .max(500)
      .optional()
      .describe('comma-separated event types (at most 10), each a public federable type'),
    stream: z.string().min(1).max(200).optional(),
  }),
]);
type FederationQuery = z.infer<typeof federationQuery>;

export type QueryPage =
  | { resource: 'agents'; items: RegistryAgentView[]; next: string | null }
  | { resource: 'events'; items: { sequence: number; text: string }[]; next: string | null };

/** Parses the query string strictly: unknown parameters and bad values are refused, each with its code. */
export function parseFederationQuery(raw: unknown): FederationQuery {
  const q = federationQuery.safeParse(raw);
  if (q.success) return q.data;
  const unknown = q.error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown)
    throw invalid('query.unknown_parameter', 'unknown query parameter', {
      parameters: (unknown as { keys: string[] }).keys,
    });
  throw invalid('query.bad_query', `resource=agents|events, limit 1–${QUERY_MAX_LIMIT}, cursor`, {
    issues: q.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

const encodeCursor = (kind: 'a' | 'e', value: string) =>
  Buffer.from(`${kind}:${value}`).toString('base64url');
function decodeCursor(kind: 'a' | 'e', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  if (!text.startsWith(`${kind}:`) || text.length < 3)
    throw invalid('query.bad_cursor', 'that cursor does not belong to this query');
  return text.slice(2);
}

export async function runFederationQuery(
  services: FederationWithSurfaceServices,
  q: FederationQuery,
): Promise<QueryPage> {
  if (q.resource === 'agents') {
    const after = decodeCursor('a', q.cursor);
    const rows = await services.federation.read.registryAgents({
      limit: q.limit + 1,
      after,
      origin: q.origin,
    });
    return { resource: 'agents', ...pageOf(rows, q.limit, (last) => encodeCursor('a', last.agentId)) };
  }
  const afterText = decodeCursor('e', q.cursor);
  const afterSequence = afterText === undefined ? 0 : Number(afterText);
  if (!Number.isSafeInteger(afterSequence) || afterSequence < 0)
    throw invalid('query.bad_cursor', 'that cursor does not belong to this query');
  const types = q.type === undefined ? undefined : q.type.split(',').map((t) => t.trim());
  if (types) {
    const known = new Set(feedEventTypes());
    if (types.length > 10 || types.some((t) => !known.has(t)))
      throw invalid('query.bad_type', 'type: up to 10 public, federable event types', {
        types: [...known].sort(),
      });
  }
  const instance = await services.instance.read.get();
  const rows = await services.federationSurface.read.publicEvents({
    origin: instance!.instanceId,
    afterSequence,
    limit: q.limit + 1,
    types,
    stream: q.stream,
  });
  return { resource: 'events', ...pageOf(rows, q.limit, (last) => encodeCursor('e', String(last.sequence))) };
}

/** A page of `limit` from `limit + 1` rows read: the items, and the cursor after the last when more follow. */
function pageOf<T>(rows: readonly T[], limit: number, cursorAfter: (last: T) => string) {
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? cursorAfter(items[items.length - 1]!) : null };
}
