// The federation ports composed in memory for unit tests: the peer registry read from the in-memory
// log, the real key codec and envelope verifier, the real URL guard over a fixed name table (no DNS,
// no network), equivocation evidence and sync cursors kept in arrays by the same rules as their
// PostgreSQL stores (infra/src/federation/pg-federation-store.ts, pg-sync-cursors.ts). Test layer only.
import { createOutboundHttp, createUrlGuard } from '@tributary/adapters';
import { createPeerEnvelopeVerifier, peerKeyCodec } from '@tributary/infra';
import type {
  Equivocation,
  EquivocationRecord,
  EventStore,
  FederationReadModels,
  FederationPorts,
  FederationStore,
  StoredEvent,
  SyncCursor,
  SyncCursorStore,
} from '@tributary/services';
import { inMemoryFederationReadModels } from './in-memory-read-models.js';

/**
 * What the unit instance's resolver answers: a public address for `*.example` peers, a private one for
 * `*.internal` (refused by the address policy), and nothing for any other name (unresolvable).
 */
function unitResolve(host: string): Promise<string[]> {
  if (host.endsWith('.example')) return Promise.resolve(['93.184.215.14']);
  if (host.endsWith('.internal')) return Promise.resolve(['10.1.2.3']);
  return Promise.resolve([]);
}

export type MemoryFederationServices = FederationPorts & {
  store: MemoryFederationStore;
  cursors: SyncCursorStore;
};

interface MemoryFederationStore extends FederationStore {
  /** Keeps equivocation evidence as an import does (a refused event once per origin). */
  recordEquivocations(entries: readonly Equivocation[]): Promise<void>;
}

export function memoryFederation(
  log: EventStore & { all(): readonly StoredEvent[] },
): MemoryFederationServices {
  // The read models see the cursors for the peers' states (as PostgreSQL joins them).
  const made: { cursors?: SyncCursorStore } = {};
  const read = inMemoryFederationReadModels(log, () => made.cursors?.list() ?? Promise.resolve([]));
  const cursors = (made.cursors = memorySyncCursors(log, read));
  return {
    read,
    verifier: createPeerEnvelopeVerifier(),
    store: memoryFederationStore(),
    keys: peerKeyCodec,
    urls: createUrlGuard(createOutboundHttp({ resolve: unitResolve })),
    cursors,
  };
}

const notKept = (name: string) => async (): Promise<never> => {
  throw new Error(`${name}: relaying is not kept in memory (test it end to end)`);
};

function memoryFederationStore(): MemoryFederationStore {
  const evidence: EquivocationRecord[] = [];
  const requestNonces = new Map<string, Date>();
  return {
    async holdingImports(_origin, work) {
      return work(); // no imports run in memory (see importing below)
    },
    async importing() {
      // Imports hold the origin's lock across reads and appends in one transaction: PostgreSQL's
      // behaviour is the point there, so they are tested end to end.
      throw new Error('federation imports are not kept in memory (test them end to end)');
    },
    async rememberRequestNonce(peerId, nonce, expiresAt) {
      const key = `${peerId} ${nonce}`;
      if (requestNonces.has(key)) return false;
      requestNonces.set(key, expiresAt);
      return true;
    },
    async pruneNonces(now) {
      for (const [key, expiresAt] of requestNonces) if (expiresAt < now) requestNonces.delete(key);
    },
    async recordEquivocations(entries) {
      for (const e of entries)
        if (!evidence.some((r) => r.origin === e.origin && r.refusedEventId === e.refusedEventId))
          evidence.push({ ...e, seq: evidence.length + 1 });
    },
    async equivocations(query) {
      return evidence
        .filter(
          (r) => r.seq > (query.after ?? 0) && (query.origin === undefined || r.origin === query.origin),
        )
        .slice(0, query.limit)
        .map((r) => ({ ...r }));
    },
    // Relaying (gaps, the relay's per-peer choices and manifests) is PostgreSQL's: tested end to end.
    async gaps() {
      return [];
    },
    settleGap: notKept('settleGap'),
    async peerFollowing() {
      return null;
    },
    setPeerFollowing: notKept('setPeerFollowing'),
    async originManifest() {
      return null;
    },
    saveOriginManifest: notKept('saveOriginManifest'),
    async equivocationCounts() {
      const counts = new Map<string, { count: number; lastDetectedAt: Date }>();
      for (const r of evidence) {
        const c = counts.get(r.origin);
        counts.set(r.origin, {
          count: (c?.count ?? 0) + 1,
          lastDetectedAt: c && c.lastDetectedAt > r.detectedAt ? c.lastDetectedAt : r.detectedAt,
        });
      }
      return counts;
    },
  };
}

/** Sync cursors as pg-sync-cursors.ts keeps them; one attempt per cursor at a time. */
function memorySyncCursors(log: EventStore, read: FederationReadModels): SyncCursorStore {
  const cursors = new Map<string, SyncCursor>();
  const running = new Set<string>();
  const keyOf = (peerId: string, direction: string) => `${peerId} ${direction}`;
  const feed = async () =>
    (await log.readAll({ since: 0, limit: Number.MAX_SAFE_INTEGER, feedOnly: true })).events;
  const ensure = (peerId: string, direction: SyncCursor['direction'], now: Date) => {
    const key = keyOf(peerId, direction);
    let c = cursors.get(key);
    if (!c) {
      c = {
        peerId,
        direction,
        position: 0,
        attempts: 0,
        nextAttemptAt: now,
        lastAttemptAt: null,
        lastSuccessAt: null,
        lastErrorCode: null,
        lastError: null,
        peerHead: null,
        accepted: 0,
        duplicates: 0,
        rejected: 0,
        lastRejection: null,
        replayingHistory: false,
        pushedAt: null,
      };
      cursors.set(key, c);
    }
    return c;
  };
  return {
    async attempt(peerId, direction, now, attempt) {
      const key = keyOf(peerId, direction);
      if (running.has(key)) return null;
      running.add(key);
      try {
        const outcome = await attempt({ ...ensure(peerId, direction, now) });
        const c = ensure(peerId, direction, now);
        if (outcome.kind === 'answered') {
          // A cursor never moves back.
          c.position = Math.max(c.position, outcome.position);
          c.attempts = 0;
          c.nextAttemptAt = outcome.more ? now : outcome.idleUntil;
          c.lastAttemptAt = now;
          if (outcome.contacted) {
            c.lastSuccessAt = now;
            c.lastErrorCode = null;
            c.lastError = null;
            c.lastRejection = outcome.rejection;
          }
          c.peerHead = outcome.peerHead ?? c.peerHead;
          c.accepted += outcome.accepted;
          c.duplicates += outcome.duplicates;
          c.rejected += outcome.rejected;
          c.replayingHistory = outcome.replayingHistory ?? false;
        } else {
          c.attempts += 1;
          c.nextAttemptAt = outcome.retryAt;
          c.lastAttemptAt = now;
          c.lastErrorCode = outcome.code;
          c.lastError = outcome.message.slice(0, 500);
        }
        return outcome;
      } finally {
        running.delete(key);
      }
    },
    async whilePullHeld(peerId, fn) {
      const key = keyOf(peerId, 'pull');
      for (let i = 0; running.has(key) && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
      const got = !running.has(key);
      if (got) running.add(key);
      try {
        return await fn();
      } finally {
        if (got) running.delete(key);
      }
    },
    async pulledThrough(peerId) {
      return cursors.get(keyOf(peerId, 'pull'))?.position ?? null;
    },
    async pushReceived(peerId, { after, through }, now) {
      const c = ensure(peerId, 'pull', now);
      if (c.position < after) {
        c.pushedAt = null;
        if (c.nextAttemptAt > now) c.nextAttemptAt = now;
        return { kind: 'gap', position: c.position };
      }
      c.position = Math.max(c.position, through);
      c.pushedAt = now;
      c.lastSuccessAt = now;
      c.peerHead = Math.max(c.peerHead ?? 0, through);
      return { kind: 'advanced', position: c.position };
    },
    async listFor(peerIds) {
      return (await this.list()).filter((c) => peerIds.includes(c.peerId));
    },
    async list() {
      const events = await feed();
      return [...cursors.values()]
        .sort((a, b) => compare(a.peerId, b.peerId) || compare(a.direction, b.direction))
        .map((c) => ({
          ...c,
          // push: how many of our feed events are past the cursor.
          ...(c.direction === 'push' && { backlog: events.filter((e) => e.sequence > c.position).length }),
        }));
    },
    async due(now, directions) {
      const peers = await read.peers();
      // Every registered peer has a cursor per direction from its first sweep on.
      for (const p of peers) for (const d of directions) ensure(p.peerId, d, now);
      const head = (await feed()).at(-1)?.sequence ?? 0;
      const unblocked = new Set(peers.filter((p) => !p.blocked).map((p) => p.peerId));
      // A push cursor is due only when our feed has something past it; a pull cursor on its schedule.
      return [...cursors.values()]
        .filter(
          (c) =>
            unblocked.has(c.peerId) &&
            directions.includes(c.direction) &&
            c.nextAttemptAt <= now &&
            (c.direction === 'pull' || c.position < head),
        )
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
        .slice(0, 200)
        .map((c) => ({ peerId: c.peerId, direction: c.direction }));
    },
    async peerAnswered(peerId, now) {
      for (const c of cursors.values())
        if (c.peerId === peerId && c.attempts > 0 && c.nextAttemptAt > now) c.nextAttemptAt = now;
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
