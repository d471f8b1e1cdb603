// Under the origin's import lock: an event already in the log, or twice in the batch, is a duplicate
// (a batch sent again writes nothing new); a nonce remembered with another event id is a replay.
import { DomainError } from '@tributary/domain';
import type { ImportLookup } from '../ports/federation.js';
import type { Placed } from './batch.js';
import type { BatchResults } from './results.js';

export function dropRepeats(
  events: readonly Placed[],
  found: Pick<ImportLookup, 'existingIds' | 'seenNonces'>,
  results: BatchResults,
): Placed[] {
  const seenNonces = new Map(found.seenNonces);
  const batchIds = new Set<string>();
  const fresh: Placed[] = [];
  for (const c of events) {
    const { id, nonce } = c.envelope;
    if (found.existingIds.has(id) || batchIds.has(id)) {
      results.duplicate(c.index, id);
      continue;
    }
    const nonceOwner = seenNonces.get(nonce);
    if (nonceOwner !== undefined && nonceOwner !== id) {
      results.reject(
        c.index,
        new DomainError(
          'federation.replayed_nonce',
          'invalid',
          'that nonce was already used by another event',
        ),
      );
      continue;
    }
    batchIds.add(id);
    seenNonces.set(nonce, id);
    fresh.push(c);
  }
  return fresh;
}
