// Step 5 of an import: one origin's verified events in one transaction under that origin's import lock,
// with any keys learned for it. What the import decides on is read once under the lock; each step below
// refuses what it must and passes the rest on.
import { agentReferences, bindingsStream, importedStream, relayOriginStream } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import type { OriginKeys } from '../relay.js';
import { admitEvents } from './admit-events.js';
import { appendImported } from './append-imported.js';
import type { Placed, Verified } from './batch.js';
import { dropRepeats } from './drop-repeats.js';
import { sealOwnRecords } from './own-records.js';
import { recheckLearnedKeys } from './recheck-learned-keys.js';
import type { BatchResults } from './results.js';

export interface OriginImport {
  origin: string;
  group: readonly Verified[];
  now: Date;
  primaryAgentId: string;
  learned: OriginKeys['learned'];
  /** Only what came from someone other than the origin can have been withheld on the way. */
  relayed: boolean;
  /** A relay's feed carries what it accepted from its peers: imported events go on ours. */
  onOurFeed: boolean;
}

export async function importOrigin(
  services: FederationOperationServices,
  o: OriginImport,
  results: BatchResults,
): Promise<void> {
  const { origin } = o;
  const placed: Placed[] = o.group.map((c) => ({
    ...c,
    refs: agentReferences(c.envelope),
    localStream: importedStream(origin, c.envelope.stream),
  }));
  await services.federation.store.importing(origin, async (tx) => {
    const found = await tx.lookup(origin, {
      ids: placed.map((c) => c.envelope.id),
      nonces: placed.map((c) => c.envelope.nonce),
      agentIds: [...new Set(placed.flatMap((c) => c.refs.map((r) => r.agentId)))],
      // Our stream of this origin's bindings (written only under this lock) and, with keys to record,
      // the origin's key stream.
      streams: [
        ...new Set(placed.map((c) => c.localStream)),
        bindingsStream(origin),
        ...(o.learned ? [relayOriginStream(origin)] : []),
      ],
    });
    const keyVersion = found.streamVersions.get(relayOriginStream(origin)) ?? 0;
    const { learned, events } = await recheckLearnedKeys(
      services,
      { origin, learned: o.learned, events: placed },
      keyVersion,
      results,
    );
    const fresh = dropRepeats(events, found, results);
    const { accepted, agents, chains } = await admitEvents(services, tx, o, fresh, found, results);
    await tx.recordEquivocations(chains.equivocations);
    await tx.recordGaps(chains.gaps);
    if (accepted.length === 0 && !learned) return;
    const local = await sealOwnRecords(services, o, learned, agents.newBindings, found.streamVersions);
    await appendImported(tx, o, local, accepted, agents.localId, found.streamVersions);
  });
}
