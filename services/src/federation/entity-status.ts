// POST /api/federation/entity-status (peer-signed): the origin half of reconciliation. For each entity
// reference a peer holds, say whether it is live here, deleted here (a persona its owner deleted; events
// are never deleted), missing, or not ours to answer for (we are not its origin; the answer names the
// origin to ask instead).
import { DomainError, ENTITY_STATUS_MAX, invalid } from '@tributary/domain';
import { z } from 'zod';
import type { FederationWithSurfaceServices } from './federation-operation.js';

export const ENTITY_STATUSES = ['live', 'deleted', 'missing', 'not_authoritative'] as const;
type EntityStatus = (typeof ENTITY_STATUSES)[number];

const entityRef = z.strictObject({
  kind: z.enum(['agent', 'event']),
  id: z.string().min(1).max(200),
});
export const entityStatusRequest = z.strictObject({
  entities: z.array(entityRef).min(1),
});

interface EntityStatusResult {
  kind: 'agent' | 'event';
  id: string;
  status: EntityStatus;
  /** For not_authoritative: the instance to ask (and, for an agent, its id there). */
  origin?: string;
  originId?: string;
}

export function parseEntityStatusRequest(body: unknown) {
  const parsed = entityStatusRequest.safeParse(body);
  if (!parsed.success)
    throw invalid('federation.bad_probe', 'body: { entities: [{ kind: agent|event, id }] }', {
      issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  if (parsed.data.entities.length > ENTITY_STATUS_MAX)
    throw new DomainError(
      'federation.probe_too_large',
      'too_large',
      `at most ${ENTITY_STATUS_MAX} entities per probe`,
      { max: ENTITY_STATUS_MAX },
    );
  return parsed.data;
}

export async function probeEntityStatus(
  services: FederationWithSurfaceServices,
  request: z.infer<typeof entityStatusRequest>,
): Promise<{ results: EntityStatusResult[] }> {
  const instance = await services.instance.read.get();
  const self = instance!.instanceId;
  const facts = await services.federationSurface.read.entities(request.entities);
  const byRef = new Map(facts.map((f) => [`${f.kind}\u0000${f.id}`, f]));
  return {
    results: request.entities.map(({ kind, id }) => {
      const f = byRef.get(`${kind}\u0000${id}`);
      if (!f || f.origin === null) return { kind, id, status: 'missing' as const };
      if (f.origin !== self)
        return {
          kind,
          id,
          status: 'not_authoritative' as const,
          origin: f.origin,
          ...(f.remoteId && { originId: f.remoteId }),
        };
      return { kind, id, status: f.deleted ? ('deleted' as const) : ('live' as const) };
    }),
  };
}
