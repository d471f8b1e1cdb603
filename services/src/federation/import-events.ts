// POST /api/federation/events/import: a batch of the authenticated peer's own signed events.
// Each event is verified on the bytes received against the origin's registered key, checked against
// replay (same id → duplicate; a remembered nonce with another id → rejected), checked to extend its
// origin stream (an older version → out of order; another event at a held version → equivocation, the
// evidence kept), stored verbatim under a namespaced local stream, and its agents are bound to local ids
// (placeholders where unknown). Accepted events of a batch commit together; a batch sent again, or
// re-encoded, writes nothing new.
import {
  agentReferences,
  agentStream,
  chainRefusal,
  CLOCK_SKEW_SECONDS,
  DomainError,
  EVENT_WINDOW_SECONDS,
  foreignAgentRefusal,
  forbidden,
  IMPORT_MAX_EVENTS,
  importedStream,
  importRefusal,
  isDomainError,
  unauthenticated,
  type AgentHome,
  type DomainErrorCode,
  type Envelope,
  type NewEvent,
} from '@tributary/domain';
import { federationOf } from './federation-of.js';
import { sealEvents } from '../pipeline/seal-events.js';
import type { Services } from '../pipeline/services.js';
import {
  versionPlace,
  type AgentBinding,
  type Equivocation,
  type ImportedRow,
  type PeerView,
} from '../ports/federation.js';

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
}

interface Candidate {
  index: number;
  text: string;
  envelope: Envelope;
}

export async function importEvents(
  services: Services,
  peerId: string,
  body: string,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const fed = federationOf(services);
  const now = services.clock.now();
  const texts = fed.verifier.splitBatch(body);
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

  const results: ImportResult[] = texts.map((_, index) => ({ index, id: null, status: 'rejected' }));
  const reject = (index: number, e: unknown) => {
    if (!isDomainError(e)) throw e;
    results[index] = { ...results[index]!, status: 'rejected', code: e.code, message: e.message };
  };

  // 1. Strict parse, the import rules, the key valid when the event occurred.
  const candidates: Candidate[] = [];
  texts.forEach((text, index) => {
    try {
      const envelope = fed.verifier.parseEnvelope(text);
      results[index]!.id = envelope.id;
      const refusal = importRefusal(envelope, {
        peerId,
        now,
        allowHistorical: options.allowHistorical ?? false,
      });
      if (refusal) throw refusal;
      keyFor(peer, envelope);
      candidates.push({ index, text, envelope });
    } catch (e) {
      reject(index, e);
    }
  });

  // 2. Signatures, verified concurrently (the CPU-bound part).
  const verdicts = await fed.verifier.verifyEnvelopes(
    candidates.map((c) => ({ envelope: c.envelope, publicKey: keyFor(peer, c.envelope) })),
  );
  const verified = candidates.filter((c, i) => {
    if (verdicts[i]) return true;
    reject(
      c.index,
      new DomainError('envelope.bad_signature', 'invalid', 'the event signature does not verify'),
    );
    return false;
  });
  if (verified.length === 0) return summarize(results);

  // 3. Dedup, nonces, agent bindings and the append: one transaction under the origin's import lock.
  const instance = await services.read.instance.get();
  if (!instance) throw new DomainError('instance.not_initialized', 'unavailable', 'the instance is starting');
  // Every agent an event names, and the local stream each would go to: looked up with the dedup keys.
  const refsOf = new Map(verified.map((c) => [c, agentReferences(c.envelope)]));
  const streamOf = new Map(verified.map((c) => [c, importedStream(peerId, c.envelope.stream)]));
  await fed.store.importing(peerId, async (tx) => {
    const found = await tx.lookup(peerId, {
      ids: verified.map((c) => c.envelope.id),
      nonces: verified.map((c) => c.envelope.nonce),
      agentIds: [...new Set([...refsOf.values()].flat().map((r) => r.agentId))],
      streams: [...new Set(streamOf.values())],
    });
    const {
      existingIds: existing,
      seenNonces,
      agentHomes: homes,
      streamVersions: versions,
      streamHeads: heads,
    } = found;
    const batchIds = new Set<string>();
    const fresh: Candidate[] = [];
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
      if (b.origin === peerId) bound.set(b.remoteAgentId, b.localAgentId);
      else otherOrigin.add(b.remoteAgentId);
    const homeOf = (agentId: string): AgentHome =>
      bound.has(agentId)
        ? { kind: 'remote', origin: peerId }
        : otherOrigin.has(agentId)
          ? { kind: 'remote', origin: '' }
          : homes.local.has(agentId)
            ? { kind: 'local' }
            : { kind: 'unknown' };
    // The origin's streams stay chains: an event must extend its stream past the highest version
    // imported (from the log, then from this batch). Who holds a version at or below the log's head is
    // asked only when some event is there, which an honest peer never sends.
    const held = new Map<string, { eventId: string; text: string }>();
    const behind = fresh.filter((c) => c.envelope.streamVersion <= (heads.get(streamOf.get(c)!) ?? 0));
    if (behind.length > 0)
      for (const [place, holder] of await tx.versionHolders(
        peerId,
        behind.map((c) => ({ localStream: streamOf.get(c)!, version: c.envelope.streamVersion })),
      ))
        held.set(place, holder);
    const equivocations: Equivocation[] = [];

    const accepted: Candidate[] = [];
    const newBindings: AgentBinding[] = [];
    for (const c of fresh) {
      const localStream = streamOf.get(c)!;
      const place = versionPlace(localStream, c.envelope.streamVersion);
      const holder = held.get(place);
      const outOfChain = chainRefusal(c.envelope, heads.get(localStream) ?? 0, holder?.eventId);
      if (outOfChain) {
        if (outOfChain.code === 'federation.equivocation')
          equivocations.push({
            origin: peerId,
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
      const refusal = foreignAgentRefusal(peerId, refs, homeOf);
      if (refusal) {
        reject(c.index, refusal);
        continue;
      }
      heads.set(localStream, c.envelope.streamVersion);
      held.set(place, { eventId: c.envelope.id, text: c.text });
      for (const { agentId } of refs)
        if (!bound.has(agentId)) {
          const localAgentId = services.ids.entityId();
          bound.set(agentId, localAgentId);
          newBindings.push({ origin: peerId, remoteAgentId: agentId, localAgentId });
        }
      accepted.push(c);
      results[c.index] = { index: c.index, id: c.envelope.id, status: 'accepted' };
    }
    await tx.recordEquivocations(equivocations);
    if (accepted.length === 0) return;

    // Our own record of each new binding (a placeholder until the origin's agent.created arrives).
    const bindingEvents: NewEvent[] = newBindings.map((b) => ({
      stream: agentStream(b.localAgentId),
      type: 'agent.materialized',
      data: { agentId: b.localAgentId, origin: b.origin, remoteAgentId: b.remoteAgentId },
    }));
    const local = await sealEvents(bindingEvents, new Map(bindingEvents.map((e) => [e.stream, 0])), {
      signer: services.signer,
      ids: services.ids,
      actorId: instance.primaryAgentId,
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
      };
    });
    await tx.append(local, rows);
    // A nonce need only be remembered while an event carrying it could still be accepted.
    const keepFor = (EVENT_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
    await tx.rememberNonces(
      peerId,
      accepted.map((c) => ({
        nonce: c.envelope.nonce,
        eventId: c.envelope.id,
        expiresAt: new Date(Math.max(Date.parse(c.envelope.occurredAt), now.getTime()) + keepFor),
      })),
    );
  });
  return summarize(results);
}

/** The origin's key that was valid when the event occurred (a retired key still verifies its past). */
function keyFor(peer: PeerView, e: Envelope): string {
  const key = peer.keys.find((k) => k.keyId === e.keyId);
  if (!key)
    throw new DomainError(
      'federation.unknown_key',
      'invalid',
      `no key ${e.keyId} is registered for this peer`,
    );
  if (key.validUntil && Date.parse(e.occurredAt) >= Date.parse(key.validUntil))
    throw new DomainError(
      'federation.key_retired',
      'invalid',
      'the key was retired before the event occurred',
    );
  return key.publicKey;
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
