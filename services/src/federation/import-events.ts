// POST /api/federation/events/import: a batch of the authenticated peer's own signed events — or, from a
// peer in the relay role, of other origins' events too (docs/federation.md#relay).
// Each event is verified on the bytes received against its origin's key (a registered peer's, or the
// keys pinned for an origin known through a relay), checked against
// replay (same id → duplicate; a remembered nonce with another id → rejected), checked to extend its
// origin stream (an older version → out of order; another event at a held version → equivocation, the
// evidence kept), stored verbatim under a namespaced local stream, and its agents are bound to local ids
// (placeholders where unknown). Accepted events of a batch commit together; a batch sent again, or
// re-encoded, writes nothing new.
import {
  agentReferences,
  bindingsStream,
  BINDINGS_PER_RECORD,
  chainGap,
  chainRefusal,
  followsOrigin,
  isRelayRole,
  originKeyFor,
  CLOCK_SKEW_SECONDS,
  DomainError,
  EVENT_WINDOW_SECONDS,
  foreignAgentRefusal,
  forbidden,
  IMPORT_MAX_EVENTS,
  importedStream,
  importRefusal,
  INSTANCE_STREAM,
  isDomainError,
  unauthenticated,
  type AgentHome,
  type DomainErrorCode,
  type Envelope,
  type EventData,
  type NewEvent,
  type OriginKey,
  type OriginKeysLearnedData,
  relayOriginStream,
} from '@tributary/domain';
import { originKeysFor, relearnedUnderLock, type OriginKeys } from './relay.js';
import { sealEvents } from '../pipeline/seal-events.js';
import type { FederationOperationServices } from './federation-operation.js';
import {
  versionPlace,
  type AgentBinding,
  type Equivocation,
  type ImportedRow,
  type PeerView,
} from './ports/federation.js';

type ImportStatus = 'accepted' | 'duplicate' | 'rejected';

export interface ImportResult {
  index: number;
  id: string | null;
  status: ImportStatus;
  code?: DomainErrorCode;
  message?: string;
}

export interface ImportSummary {
  results: ImportResult[];
  accepted: number;
  duplicates: number;
  rejected: number;
}

interface ImportOptions {
  /** Only a locally initiated pull-sync after long downtime may take events older than the window. */
  allowHistorical?: boolean;
  /**
   * Each text already parsed by `verifier.parseEnvelope` (a pulled page read ahead, whose signatures were
   * then checked with `remember`: the verifier answers for these very objects); undefined where it was
   * not, or failed, and is parsed here.
   */
  parsed?: readonly (Envelope | undefined)[];
}

interface Candidate {
  index: number;
  text: string;
  envelope: Envelope;
  /** The batch's own key announcement this event's key came from, if it is not known yet. */
  introducedBy?: number | undefined;
}

/** A candidate whose signature verified under this public key. */
type Verified = Candidate & { publicKey: string };

/** An origin's key as this batch sees it: as known, then as earlier events of the batch announced. */
interface BatchKey {
  keyId: string;
  publicKey: string;
  validFrom: string;
  validUntil: string | null;
  revokedAfter?: string | null | undefined;
  introducedBy?: number | undefined;
}

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

type Source = { kind: 'peer'; peer: PeerView } | { kind: 'origin'; origin: string };

async function importTexts(
  services: FederationOperationServices,
  source: Source,
  texts: readonly string[],
  options: ImportOptions,
): Promise<ImportSummary> {
  const fed = services.federation;
  const now = services.clock.now();
  const instance = await services.instance.read.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  const senderId = source.kind === 'peer' ? source.peer.peerId : source.origin;
  const relay = source.kind === 'peer' && isRelayRole(source.peer.role);

  const results: ImportResult[] = texts.map((_, index) => ({ index, id: null, status: 'rejected' }));
  const reject = (index: number, e: unknown) => {
    if (!isDomainError(e)) throw e;
    results[index] = { ...results[index]!, status: 'rejected', code: e.code, message: e.message };
  };

  // 1. Strict parse and the import rules.
  const parsed: Candidate[] = [];
  const following = relay ? (await fed.read.relayFollowing()).following : null;
  const followed = following?.mode === 'people' ? await fed.read.followedOrigins() : [];
  texts.forEach((text, index) => {
    try {
      const envelope = options.parsed?.[index] ?? fed.verifier.parseEnvelope(text);
      results[index]!.id = envelope.id;
      const refusal = importRefusal(envelope, {
        peerId: senderId,
        relay,
        self: instance.instanceId,
        now,
        allowHistorical: options.allowHistorical ?? false,
      });
      if (refusal) throw refusal;
      if (following && envelope.origin !== senderId && !followsOrigin(following, envelope.origin, followed))
        throw new DomainError(
          'federation.origin_not_followed',
          'invalid',
          `${envelope.origin} is not followed here`,
          {
            origin: envelope.origin,
          },
        );
      parsed.push({ index, text, envelope });
    } catch (e) {
      reject(index, e);
    }
  });

  // 2. Each origin's keys: a registered peer's, or those pinned (or now learned) for an origin known
  // through a relay; then the key valid when each event occurred.
  const keysOf = new Map<
    string,
    { keys: (OriginKey | PeerView['keys'][number])[]; relayed: OriginKeys | null }
  >();
  for (const origin of new Set(parsed.map((c) => c.envelope.origin))) {
    const asPeer =
      source.kind === 'peer' && origin === source.peer.peerId ? source.peer : await fed.read.peer(origin);
    if (asPeer && !asPeer.blocked) keysOf.set(origin, { keys: asPeer.keys, relayed: null });
    else if (asPeer) keysOf.set(origin, { keys: [], relayed: null });
    else {
      const theirs = parsed.filter((c) => c.envelope.origin === origin);
      // A key the batch itself announces (under a pinned key) needs no manifest: see below.
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
  // A key an origin rotates to or revokes in this batch counts for its events after that announcement
  // (docs/federation.md#a-peers-own-key-changes).
  const batchKeys = new Map(
    [...keysOf].map(([origin, k]) => [
      origin,
      new Map<string, BatchKey>(k.keys.map((x) => [x.keyId, { ...x }])),
    ]),
  );
  const candidates: Verified[] = [];
  for (const c of parsed) {
    const known = keysOf.get(c.envelope.origin)!;
    const keys = batchKeys.get(c.envelope.origin)!;
    const key = batchKeyFor(keys, c.envelope);
    if (key === null) {
      reject(
        c.index,
        known.relayed
          ? (known.relayed.failure ??
              new DomainError(
                'federation.origin_key_unknown',
                'invalid',
                `no key ${c.envelope.keyId} is known for ${c.envelope.origin}`,
              ))
          : new DomainError(
              'federation.unknown_key',
              'invalid',
              `no key ${c.envelope.keyId} is registered for this peer`,
            ),
      );
      continue;
    }
    if ('refusal' in key) {
      reject(c.index, key.refusal);
      continue;
    }
    if (c.envelope.stream === INSTANCE_STREAM)
      try {
        announceKey(keys, c.envelope, key, c.index);
      } catch (e) {
        reject(c.index, e);
        continue;
      }
    candidates.push({ ...c, publicKey: key.publicKey, introducedBy: key.introducedBy });
  }

  // 3. Signatures, verified concurrently (the CPU-bound part).
  const verdicts = await fed.verifier.verifyEnvelopes(
    candidates.map((c) => ({ envelope: c.envelope, publicKey: c.publicKey })),
  );
  const verified = candidates.filter((c, i) => {
    if (verdicts[i]) return true;
    reject(
      c.index,
      new DomainError('envelope.bad_signature', 'invalid', 'the event signature does not verify'),
    );
    return false;
  });

  // 4. Each origin's events in one transaction under its import lock, with any keys learned for it.
  const byOrigin = new Map<string, Verified[]>();
  for (const c of verified) {
    const list = byOrigin.get(c.envelope.origin);
    if (list) list.push(c);
    else byOrigin.set(c.envelope.origin, [c]);
  }
  for (const [origin, learned] of [...keysOf].map(([o, k]) => [o, k.relayed?.learned ?? null] as const))
    if (learned && !byOrigin.has(origin)) byOrigin.set(origin, []);
  for (const [origin, group] of byOrigin)
    await importOrigin(services, {
      origin,
      group,
      results,
      reject,
      now,
      primaryAgentId: instance.primaryAgentId,
      learned: keysOf.get(origin)?.relayed?.learned ?? null,
      // Only what came from someone other than the origin can have been withheld on the way.
      relayed: source.kind === 'origin' || origin !== senderId,
      // A relay's feed carries what it accepted from its peers: imported events go on ours.
      onOurFeed: isRelayRole(instance.role),
    });
  return summarize(results);
}

async function importOrigin(
  services: FederationOperationServices,
  o: {
    origin: string;
    group: Verified[];
    results: ImportResult[];
    reject: (index: number, e: unknown) => void;
    now: Date;
    primaryAgentId: string;
    learned: OriginKeys['learned'];
    relayed: boolean;
    onOurFeed: boolean;
  },
): Promise<void> {
  const fed = services.federation;
  const { origin, results, reject, now } = o;
  let verified = o.group;
  let learned = o.learned;
  // Every agent an event names, and the local stream each would go to: looked up with the dedup keys.
  const refsOf = new Map(verified.map((c) => [c, agentReferences(c.envelope)]));
  const streamOf = new Map(verified.map((c) => [c, importedStream(origin, c.envelope.stream)]));
  await fed.store.importing(origin, async (tx) => {
    const found = await tx.lookup(origin, {
      ids: verified.map((c) => c.envelope.id),
      nonces: verified.map((c) => c.envelope.nonce),
      agentIds: [...new Set([...refsOf.values()].flat().map((r) => r.agentId))],
      // With keys to record: the version of the origin's key stream, read under the lock.
      // With the version of our stream of this origin's bindings (written only under this lock).
      streams: [
        ...new Set(streamOf.values()),
        bindingsStream(origin),
        ...(learned ? [relayOriginStream(origin)] : []),
      ],
    });
    if (learned) {
      const version = found.streamVersions.get(relayOriginStream(origin)) ?? 0;
      if (version !== learned.expectedVersion) {
        // Another import (or the operator) changed the pinned keys since they were read: decide again
        // on what is pinned now, and keep only events whose key that still makes the origin's.
        const wanted = new Set((learned.event.data as OriginKeysLearnedData).keys.map((k) => k.keyId));
        const again = await relearnedUnderLock(services, origin, learned, version);
        learned = again.learned;
        verified = verified.filter((c) => {
          if (!wanted.has(c.envelope.keyId)) return true;
          if (again.keys.some((k) => k.keyId === c.envelope.keyId && k.publicKey === c.publicKey))
            return true;
          reject(
            c.index,
            again.failure ??
              new DomainError(
                'federation.origin_key_unknown',
                'invalid',
                `no key ${c.envelope.keyId} is known for ${origin}`,
              ),
          );
          return false;
        });
      }
    }
    const {
      existingIds: existing,
      seenNonces,
      agentHomes: homes,
      streamVersions: versions,
      streamHeads: heads,
    } = found;
    const batchIds = new Set<string>();
    const fresh: Verified[] = [];
    for (const c of verified) {
      const { id, nonce } = c.envelope;
      if (existing.has(id) || batchIds.has(id)) {
        results[c.index] = { index: c.index, id, status: 'duplicate' };
        continue;
      }
      const nonceOwner = seenNonces.get(nonce);
      if (nonceOwner !== undefined && nonceOwner !== id) {
        reject(
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

    // Every agent an event names must be the origin's own; unknown ones get a local placeholder.
    const bound = new Map<string, string>(); // remote id (of this origin) → local id
    const otherOrigin = new Set<string>();
    for (const b of homes.bindings)
      if (b.origin === origin) bound.set(b.remoteAgentId, b.localAgentId);
      else otherOrigin.add(b.remoteAgentId);
    const homeOf = (agentId: string): AgentHome =>
      bound.has(agentId)
        ? { kind: 'remote', origin }
        : otherOrigin.has(agentId)
          ? { kind: 'remote', origin: '' }
          : homes.local.has(agentId)
            ? { kind: 'local' }
            : { kind: 'unknown' };
    // The origin's streams stay chains: an event must extend its stream past the highest version
    // imported (from the log, then from this batch). Who holds a version at or below the log's head is
    // asked only when some event is there, which an honest peer never sends — nor a relay, but to fill
    // a gap it left.
    const held = new Map<string, { eventId: string; text: string }>();
    const behind = fresh.filter((c) => c.envelope.streamVersion <= (heads.get(streamOf.get(c)!) ?? 0));
    let inGaps = new Set<string>();
    if (behind.length > 0) {
      const places = behind.map((c) => ({
        localStream: streamOf.get(c)!,
        version: c.envelope.streamVersion,
      }));
      for (const [place, holder] of await tx.versionHolders(origin, places)) held.set(place, holder);
      if (o.relayed)
        inGaps = await tx.inGaps(
          origin,
          behind.map((c) => ({ stream: c.envelope.stream, version: c.envelope.streamVersion })),
        );
    }
    const equivocations: Equivocation[] = [];
    const gaps: {
      origin: string;
      stream: string;
      fromVersion: number;
      toVersion: number;
      detectedAt: Date;
    }[] = [];

    const accepted: Verified[] = [];
    const newBindings: AgentBinding[] = [];
    for (const c of fresh) {
      // A key announced earlier in this batch counts only if that announcement is taken.
      if (c.introducedBy !== undefined && results[c.introducedBy]!.status !== 'accepted') {
        reject(
          c.index,
          new DomainError(
            'federation.unknown_key',
            'invalid',
            `no key ${c.envelope.keyId} is known for ${c.envelope.origin}`,
          ),
        );
        continue;
      }
      const localStream = streamOf.get(c)!;
      const place = versionPlace(localStream, c.envelope.streamVersion);
      const holder = held.get(place);
      const head = heads.get(localStream) ?? 0;
      const fills = inGaps.has(versionPlace(c.envelope.stream, c.envelope.streamVersion));
      const outOfChain = chainRefusal(c.envelope, head, holder?.eventId, fills);
      if (outOfChain) {
        if (outOfChain.code === 'federation.equivocation')
          equivocations.push({
            origin,
            stream: c.envelope.stream,
            streamVersion: c.envelope.streamVersion,
            heldEventId: holder!.eventId,
            heldEnvelope: holder!.text,
            refusedEventId: c.envelope.id,
            refusedEnvelope: c.text,
            detectedAt: now,
          });
        reject(c.index, outOfChain);
        continue;
      }
      const refs = refsOf.get(c)!;
      const refusal = foreignAgentRefusal(origin, refs, homeOf);
      if (refusal) {
        reject(c.index, refusal);
        continue;
      }
      if (c.envelope.streamVersion > head) {
        const gap = o.relayed ? chainGap(c.envelope, head) : null;
        if (gap) gaps.push({ origin, stream: c.envelope.stream, ...gap, detectedAt: now });
        heads.set(localStream, c.envelope.streamVersion);
      }
      held.set(place, { eventId: c.envelope.id, text: c.text });
      for (const { agentId } of refs)
        if (!bound.has(agentId)) {
          const localAgentId = services.ids.entityId();
          bound.set(agentId, localAgentId);
          newBindings.push({ origin, remoteAgentId: agentId, localAgentId });
        }
      accepted.push(c);
      results[c.index] = { index: c.index, id: c.envelope.id, status: 'accepted' };
    }
    await tx.recordEquivocations(equivocations);
    await tx.recordGaps(gaps);
    if (accepted.length === 0 && !learned) return;

    // Our own record of the new bindings (each a placeholder until the origin's agent.created arrives):
    // one `agents.materialized` for the whole import (one per BINDINGS_PER_RECORD), and of the origin's
    // keys learned for this import.
    const records: NewEvent[] = [];
    for (let i = 0; i < newBindings.length; i += BINDINGS_PER_RECORD)
      records.push({
        stream: bindingsStream(origin),
        type: 'agents.materialized',
        data: {
          origin,
          bindings: newBindings
            .slice(i, i + BINDINGS_PER_RECORD)
            .map((b) => ({ agentId: b.localAgentId, remoteAgentId: b.remoteAgentId })),
        },
      });
    const ownEvents: NewEvent[] = [...(learned ? [learned.event] : []), ...records];
    const expected = new Map([[bindingsStream(origin), versions.get(bindingsStream(origin)) ?? 0]]);
    if (learned) expected.set(learned.event.stream, learned.expectedVersion);
    const local =
      ownEvents.length === 0
        ? []
        : await sealEvents(ownEvents, expected, {
            signer: services.signer,
            ids: services.ids,
            actorId: o.primaryAgentId,
            occurredAt: now.toISOString(),
          });
    const rows: ImportedRow[] = accepted.map((c) => {
      const localStream = streamOf.get(c)!;
      const localVersion = (versions.get(localStream) ?? 0) + 1;
      versions.set(localStream, localVersion);
      return {
        envelope: c.envelope,
        text: c.text,
        localStream,
        localVersion,
        actorId: bound.get(c.envelope.actorId)!,
        ...(o.onOurFeed && { onFeed: true }),
      };
    });
    await tx.append(local, rows);
    // A nonce need only be remembered while an event carrying it could still be accepted.
    const keepFor = (EVENT_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
    await tx.rememberNonces(
      origin,
      accepted.map((c) => ({
        nonce: c.envelope.nonce,
        eventId: c.envelope.id,
        expiresAt: new Date(Math.max(Date.parse(c.envelope.occurredAt), now.getTime()) + keepFor),
      })),
    );
  });
}

/** The origin's key valid when the event occurred (null when none is known; see originKeyFor). */
function batchKeyFor(
  keys: ReadonlyMap<string, BatchKey>,
  e: Envelope,
): BatchKey | { refusal: DomainError } | null {
  const key = keys.get(e.keyId);
  if (!key) return null;
  const valid = originKeyFor([key], e.keyId, e.occurredAt);
  return valid !== null && 'refusal' in valid ? valid : key;
}

/**
 * A rotation or revocation in the origin's `instance` stream, signed by `signedWith`: the batch's view of
 * the origin's keys follows it. A rotation must be signed by the origin's current key (one already
 * rotated out cannot name a second successor: that is what a stolen old key would try), and a
 * revocation by a key newer than the one it revokes (an old key cannot disown its successor).
 */
function announceKey(keys: Map<string, BatchKey>, e: Envelope, signedWith: BatchKey, index: number): void {
  const bad = (message: string) => new DomainError('federation.bad_key_announcement', 'invalid', message);
  if (e.type === 'instance.key_rotated') {
    const d = e.data as EventData<'instance.key_rotated'>;
    if (keys.has(d.keyId)) return; // known already (this announcement again, or registered by hand)
    if (signedWith.validUntil !== null || d.previousKeyId !== signedWith.keyId)
      throw bad('a key rotation must be signed by the key it retires, while that key is current');
    const previousValidUntil = Date.parse(d.previousValidUntil);
    if (Number.isNaN(previousValidUntil) || Number.isNaN(Date.parse(d.validFrom)))
      throw bad('a key rotation names its times as RFC 3339');
    keys.set(signedWith.keyId, { ...signedWith, validUntil: new Date(previousValidUntil).toISOString() });
    keys.set(d.keyId, {
      keyId: d.keyId,
      publicKey: d.publicKey,
      validFrom: d.validFrom,
      validUntil: null,
      revokedAfter: null,
      introducedBy: index,
    });
  } else if (e.type === 'instance.key_revoked') {
    const d = e.data as EventData<'instance.key_revoked'>;
    const revoked = keys.get(d.keyId);
    const after = Date.parse(d.revokedAfter);
    if (Number.isNaN(after)) throw bad('a key revocation names its time as RFC 3339');
    if (revoked && Date.parse(revoked.validFrom) >= Date.parse(signedWith.validFrom))
      throw bad('a key can only be revoked by a key that came after it');
    if (revoked && (!revoked.revokedAfter || after < Date.parse(revoked.revokedAfter)))
      keys.set(d.keyId, { ...revoked, revokedAfter: new Date(after).toISOString() });
  }
}

function summarize(results: ImportResult[]): ImportSummary {
  const count = (s: ImportStatus) => results.filter((r) => r.status === s).length;
  return {
    results,
    accepted: count('accepted'),
    duplicates: count('duplicate'),
    rejected: count('rejected'),
  };
}
