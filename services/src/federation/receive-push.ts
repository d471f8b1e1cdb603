// POST /api/federation/events/import as a peer's push (docs/federation.md#push-and-pull-share-a-cursor):
// the batch is imported as any, and when it says which range of the peer's feed (as filtered for us) it
// is — `after` and `through`, in the signed query — it moves our pull cursor for that peer the same way a
// pulled page would, so the pull does not fetch again what push delivered. A batch that does not begin
// where the pull cursor stands leaves it there and makes the pull due at once: what came between (a push
// lost on the way, or still on it) is fetched by the pull, never skipped. A batch that begins before the
// pull cursor is answered without importing it, with where to resend from (a redelivery).
import { z } from 'zod';
import { invalid } from '@tributary/domain';
import type { FederationOperationServices } from './federation-operation.js';
import { importEvents, type ImportSummary } from './import/import-events.js';
import type { PushedRange } from './ports/federation.js';

const rangeQuery = z.strictObject({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  through: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** The push range of an import request's query: absent when it names none (a sender that predates it). */
export function pushedRangeOf(query: Record<string, unknown>): PushedRange | undefined {
  if (query.after === undefined && query.through === undefined) return undefined;
  const q = rangeQuery.safeParse(query);
  if (!q.success || q.data.after >= q.data.through)
    throw invalid('federation.bad_push_range', 'after and through must be whole numbers, after < through');
  return q.data;
}

export async function receivePush(
  services: FederationOperationServices,
  peerId: string,
  body: string,
  range: PushedRange | undefined,
): Promise<ImportSummary & { pulledThrough?: number; resendFrom?: number }> {
  const cursors = services.federation.cursors;
  if (!range || !cursors) {
    const summary = await importEvents(services, peerId, body);
    services.metrics?.imported?.('push', summary);
    return summary;
  }
  // Never at once with a pull of the same peer: one of the two would import what the other does.
  return cursors.whilePullHeld(peerId, async () => {
    // The batch begins before our cursor: what it holds through the cursor was settled here already (the
    // sender sent it again after losing our answer — its worker killed between our answer and its
    // cursor's commit, a job run twice — or our pull took it first). Nothing is imported: the answer
    // says where to resend from, and the sender's next batch begins there, so a redelivery costs a round
    // trip, never a duplicate import.
    const settled = await cursors.pulledThrough(peerId);
    if (settled !== null && range.after < settled) {
      services.metrics?.pushBehindCursor?.();
      return {
        results: [],
        accepted: 0,
        duplicates: 0,
        rejected: 0,
        pulledThrough: settled,
        resendFrom: settled,
      };
    }
    const summary = await importEvents(services, peerId, body);
    services.metrics?.imported?.('push', summary);
    // Every event of the batch is settled (accepted, duplicate or refused, as a pulled page's would be).
    const receipt = await cursors.pushReceived(peerId, range, services.clock.now());
    return { ...summary, pulledThrough: receipt.position };
  });
}
