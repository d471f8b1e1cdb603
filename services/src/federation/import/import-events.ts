// POST /api/federation/events/import: a batch of the authenticated peer's own signed events — or, from a
// peer in the relay role, of other origins' events too (docs/federation.md#relay).
// Each event is verified on the bytes received against its origin's key (a registered peer's, or the
// keys pinned for an origin known through a relay), checked against
// replay (same id → duplicate; a remembered nonce with another id → rejected), checked to extend its
// origin stream (an older version → out of order; another event at a held version → equivocation, the
// evidence kept), stored verbatim under a namespaced local stream, and its agents are bound to local ids
// (placeholders where unknown). Accepted events of a batch commit together; a batch sent again, or
// re-encoded, writes nothing new. Each step is a file of this folder, named in `importTexts`.
import { DomainError, forbidden, IMPORT_MAX_EVENTS, isRelayRole, unauthenticated } from '@tributary/domain';
import type { FederationOperationServices } from '../federation-operation.js';
import { keyEachEvent } from './batch-keys.js';
import type { ImportOptions, Source, Verified } from './batch.js';
import { importOrigin } from './import-origin.js';
import { originKeys, type KnownKeys } from './origin-keys.js';
import { parseEvents } from './parse-events.js';
import { batchResults, type ImportSummary } from './results.js';
import { verifySignatures } from './verify-signatures.js';

export type { ImportResult, ImportSummary } from './results.js';

export async function importEvents(
  services: FederationOperationServices,
  peerId: string,
  body: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  return importPage(services, peerId, services.federation.verifier.splitBatch(body), options);
}

/** `importEvents` of a batch already split into each event's exact text (a pulled page). */
export async function importPage(
  services: FederationOperationServices,
  peerId: string,
  texts: readonly string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const fed = services.federation;
  if (texts.length > IMPORT_MAX_EVENTS)
    throw new DomainError(
      'federation.batch_too_large',
      'too_large',
      `at most ${IMPORT_MAX_EVENTS} events per batch`,
      {
        maxEvents: IMPORT_MAX_EVENTS,
      },
    );
  // The route authenticated the peer; its registry entry is read again here, so a block wins.
  const peer = await fed.read.peer(peerId);
  if (!peer) throw unauthenticated('federation.unknown_peer', 'that peer is not registered here');
  if (peer.blocked) throw forbidden('federation.peer_blocked', 'that peer is blocked');
  return importTexts(services, { kind: 'peer', peer }, texts, options);
}

/**
 * Events fetched from their origin itself (its public query, to fill a gap a relay left): checked as any
 * import, against the keys known for that origin, and allowed into a recorded gap of its stream.
 */
export async function importFetched(
  services: FederationOperationServices,
  origin: string,
  texts: readonly string[],
): Promise<ImportSummary> {
  return importTexts(services, { kind: 'origin', origin }, texts, { allowHistorical: true });
}

async function importTexts(
  services: FederationOperationServices,
  source: Source,
  texts: readonly string[],
  options: ImportOptions,
): Promise<ImportSummary> {
  const now = services.clock.now();
  const instance = await services.instance.read.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  const senderId = source.kind === 'peer' ? source.peer.peerId : source.origin;
  const relay = source.kind === 'peer' && isRelayRole(source.peer.role);
  const results = batchResults(texts.length);

  const parsed = await parseEvents(
    services,
    { senderId, relay, self: instance.instanceId, now },
    texts,
    options,
    results,
  );
  const keysOf = await originKeys(services, source, parsed);
  const candidates = keyEachEvent(keysOf, parsed, results);
  const verified = await verifySignatures(services.federation.verifier, candidates, results);
  for (const [origin, group] of byOrigin(verified, keysOf))
    await importOrigin(
      services,
      {
        origin,
        group,
        now,
        primaryAgentId: instance.primaryAgentId,
        learned: keysOf.get(origin)?.relayed?.learned ?? null,
        relayed: source.kind === 'origin' || origin !== senderId,
        onOurFeed: isRelayRole(instance.role),
      },
      results,
    );
  return results.summary();
}

/** The verified events by origin, in batch order; an origin with keys learned and no event gets a turn. */
function byOrigin(verified: readonly Verified[], keysOf: ReadonlyMap<string, KnownKeys>) {
  const groups = new Map<string, Verified[]>();
  for (const c of verified) {
    const list = groups.get(c.envelope.origin);
    if (list) list.push(c);
    else groups.set(c.envelope.origin, [c]);
  }
  for (const [origin, known] of keysOf)
    if (known.relayed?.learned && !groups.has(origin)) groups.set(origin, []);
  return groups;
}
