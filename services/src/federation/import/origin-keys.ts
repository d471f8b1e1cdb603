// Step 2 of an import: the keys of each origin the batch holds events of — a registered peer's (none
// when it is blocked), or those pinned for an origin known through a relay, learning new ones from its
// manifest when the batch needs them (docs/federation.md#relay).
import type { OriginKey } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import type { PeerView } from '../ports/federation.js';
import { originKeysFor, type OriginKeys } from '../relay.js';
import type { Candidate, Source } from './batch.js';

/** An origin's keys as known before the batch, and, for one known through a relay, what was learned. */
export interface KnownKeys {
  keys: (OriginKey | PeerView['keys'][number])[];
  relayed: OriginKeys | null;
}

export async function originKeys(
  services: FederationOperationServices,
  source: Source,
  parsed: readonly Candidate[],
): Promise<Map<string, KnownKeys>> {
  const fed = services.federation;
  const keysOf = new Map<string, KnownKeys>();
  for (const origin of new Set(parsed.map((c) => c.envelope.origin))) {
    const asPeer =
      source.kind === 'peer' && origin === source.peer.peerId ? source.peer : await fed.read.peer(origin);
    if (asPeer && !asPeer.blocked) keysOf.set(origin, { keys: asPeer.keys, relayed: null });
    else if (asPeer) keysOf.set(origin, { keys: [], relayed: null });
    else {
      const theirs = parsed.filter((c) => c.envelope.origin === origin);
      // A key the batch itself announces (under a pinned key) needs no manifest (batch-keys.ts).
      const announced = new Set(
        theirs
          .filter((c) => c.envelope.type === 'instance.key_rotated')
          .map((c) => (c.envelope.data as { keyId?: unknown }).keyId),
      );
      const keyIds = new Set(theirs.map((c) => c.envelope.keyId).filter((id) => !announced.has(id)));
      const relayed =
        source.kind === 'peer'
          ? await originKeysFor(services, origin, keyIds, source.peer)
          : { keys: (await fed.read.relayOrigin(origin))?.keys ?? [], learned: null, failure: null };
      keysOf.set(origin, { keys: relayed.keys, relayed });
    }
  }
  return keysOf;
}
