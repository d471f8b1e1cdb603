// Under the origin's import lock: keys learned for this import were decided on the pinned keys read
// before it. If another import (or the operator) changed them since, decide again on what is pinned now,
// and keep only events whose key that still makes the origin's.
import { DomainError, type OriginKeysLearnedData } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import { relearnedUnderLock, type OriginKeys } from '../relay.js';
import type { Placed } from './batch.js';
import type { BatchResults } from './results.js';

export async function recheckLearnedKeys(
  services: FederationOperationServices,
  o: { origin: string; learned: OriginKeys['learned']; events: Placed[] },
  /** The version of the origin's key stream, read under the lock. */
  version: number,
  results: BatchResults,
): Promise<{ learned: OriginKeys['learned']; events: Placed[] }> {
  const { origin, learned, events } = o;
  if (!learned || version === learned.expectedVersion) return { learned, events };
  const wanted = new Set((learned.event.data as OriginKeysLearnedData).keys.map((k) => k.keyId));
  const again = await relearnedUnderLock(services, origin, learned, version);
  return {
    learned: again.learned,
    events: events.filter((c) => {
      if (!wanted.has(c.envelope.keyId)) return true;
      if (again.keys.some((k) => k.keyId === c.envelope.keyId && k.publicKey === c.publicKey)) return true;
      results.reject(
        c.index,
        again.failure ??
          new DomainError(
            'federation.origin_key_unknown',
            'invalid',
            `no key ${c.envelope.keyId} is known for ${origin}`,
          ),
      );
      return false;
    }),
  };
}
