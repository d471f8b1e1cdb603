// What federation needs from outside the services (ports, docs/architecture.md#layers). infra
// implements them; the composition root fills `Services.federation`.
import type {
  Envelope,
  OriginKey,
  OriginManifest,
  RelayFollowing,
  RelayPeerFollowing,
  SyncDirection,
} from '@tributary/domain';
import type { AppendStream } from '../../ports/event-store.js';

export interface PeerKeyView {
  keyId: string;
  publicKey: string;
  validFrom: string;
  /** When the key was rotated out: it still verifies events that occurred before this. */
  validUntil: string | null;
  /** When the peer revoked it: what it signed that occurred at or after this is not the peer's. */
  revokedAfter: string | null;
}

export interface PeerView {
  peerId: string;
  agentId: string;
  name: string;
  baseUrl: string;
  role: string;
  blocked: boolean;
  blockedReason: string | null;
  registeredAt: string;
  updatedAt: string;
  keys: PeerKeyView[];
}

/** An agent as the public registry shows it: public fields only, never a placeholder. */
export interface RegistryAgentView {
  agentId: string;
  kind: string;
  name: string;
  handle: string | null;
  ownerAgentId: string | null;
  bio: string | null;
  avatarUrl: string | null;
  /** Where the agent lives: this instance's id, or the origin it was materialized from. */
  origin: string | null;
  /** For a materialized remote agent: its id at its origin. */
  remote: { origin: string; agentId: string } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A peer as the operator's list sorts it: blocked by the operator; failing (a sync cursor in backoff: it
 * did not answer, or refused); reachable (it answered, nothing failing); unknown (never contacted yet).
 */
export type PeerSyncState = 'reachable' | 'failing' | 'unknown' | 'blocked';

/** One page of peers in registration order, after a position in it. */
export interface PeerPageQuery {
  limit: number;
  after?: { registeredAt: string; peerId: string } | undefined;
  state?: PeerSyncState | undefined;
}

/** A peer as the public node status shows it: no errors, cursors or keys. */
export interface NodeStatusPeer {
  peerId: string;
  role: string;
  baseUrl: string;
  state: Exclude<PeerSyncState, 'blocked'>;
  lastContactAt: string | null;
}

/** All peers counted by state, and how far behind sync stands (in feed sequences). */
export interface PeerSummary {
  total: number;
  reachable: number;
  failing: number;
  unknown: number;
  blocked: number;
  lag: {
    /** Unblocked peers whose push cursor is behind our feed's head, and the most behind. */
    pushBehind: number;
    pushMaxBehind: number;
    /** Unblocked peers whose pull cursor is behind the peer's head as it last told, and the most behind. */
    pullBehind: number;
    pullMaxBehind: number;
  };
}

export interface FederationReadModels {
  peer(peerId: string): Promise<PeerView | null>;
  /** Every peer: for the paths that need them all (not the operator's views: peerPage). */
  peers(): Promise<PeerView[]>;
  /** A page of peers (registration order, then id), each with its state: an index range, not a scan. */
  peerPage(query: PeerPageQuery): Promise<(PeerView & { state: PeerSyncState })[]>;
  /** The counts by state and the lag, in one aggregate query. */
  peerSummary(): Promise<PeerSummary>;
  /**
   * What the public node status shows of the peers: the first `limit` unblocked peers in registration
   * order and the first unblocked global one, each with its state and last contact, and how many
   * unblocked peers there are — a page from the index and a count, whatever the number of peers.
   */
  nodeStatusPeers(limit: number): Promise<{
    count: number;
    global: NodeStatusPeer | null;
    peers: NodeStatusPeer[];
  }>;
  /**
   * `origin`'s own events imported here, after a local position, in the order they were taken, and the
   * position of our pull cursor on `origin`'s feed.
   */
  heldFrom(
    origin: string,
    after: number,
    limit: number,
  ): Promise<{ events: { position: number; text: string }[]; pulledUpTo: number }>;
  /** The peer holding the key `keyId` (null when none, or more than one, does). */
  peerByKeyId(keyId: string): Promise<{ peer: PeerView; key: PeerKeyView } | null>;
  registryAgents(query: {
    limit: number;
    after?: string | undefined;
    origin?: string | undefined;
  }): Promise<RegistryAgentView[]>;
  registryAgentsByIds(agentIds: readonly string[]): Promise<RegistryAgentView[]>;
  /** An origin known only through a relay: its pinned keys and what its manifest said (null: unknown). */
  relayOrigin(origin: string): Promise<RelayOriginView | null>;
  relayOrigins(): Promise<RelayOriginView[]>;
  /** Which origins' relayed events this instance takes (`all` until the operator chooses). */
  relayFollowing(): Promise<{ following: RelayFollowing; version: number }>;
  /**
   * The other instances whose agents someone here follows (for the following mode `people`), leaving
   * out one follow when given (what an unfollow would leave).
   */
  followedOrigins(except?: { followerAgentId: string; followedAgentId: string }): Promise<string[]>;
  /** The agents `agentId` follows, by their id here, in the order of those ids (after `after`). */
  followedBy(agentId: string, page: { limit: number; after?: string | undefined }): Promise<FollowView[]>;
}

/** An agent someone here follows: its id here, where it lives, and since when. */
export interface FollowView {
  agentId: string;
  origin: string;
  followedAt: string;
}

export interface RelayOriginView {
  origin: string;
  name: string;
  role: string;
  baseUrl: string;
  keys: (OriginKey & { source: string; pinnedAt: string; revokedAfter: string | null })[];
  /** The version of its stream `relay-origin-<origin>` (for the next append). */
  version: number;
  updatedAt: string;
}

/** Fetches and checks origins' signed manifests (infra: guarded outbound GET, strict JSON, Ed25519). */
export interface OriginManifestSource {
  /**
   * GETs the manifest at `url` and checks it: strict JSON, the shape, not expired, and which of the keys
   * it lists signed it. The text is returned as received. Throws `federation.bad_manifest`,
   * `federation.peer_unreachable` or an outbound code.
   */
  fetch(url: string): Promise<{ text: string; manifest: OriginManifest }>;
  /** The same checks on a text already held. */
  read(text: string): OriginManifest;
  /** GETs a public JSON document (an origin's public query) through the outbound client. */
  getJson(url: string): Promise<unknown>;
}

/** A run of an origin's stream versions a relayed import skipped, and what became of it. */
export interface RelayGap {
  origin: string;
  stream: string;
  fromVersion: number;
  toVersion: number;
  /** open: not settled yet; filled: the origin's public events in the range were imported; not_public: the origin has none there. */
  state: 'open' | 'filled' | 'not_public';
  detectedAt: Date;
  resolvedAt: Date | null;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
}

/** Strict reading and verification of envelopes from peers (infra: strict JSON, RFC 8785, Ed25519). */
export interface Verifier {
  /**
   * Splits a batch body `{"events":[…]}` into the exact text of each element, without re-serializing
   * anything; throws `federation.bad_batch` when the body is not that shape.
   */
  splitBatch(body: string): string[];
  /**
   * Splits an export page `{"events":[{"sequence":n,"event":<envelope>},…],"head":n,"hasMore":b}` (members
   * in any order) into each event's exact text; throws `federation.bad_export_page` on another shape.
   */
  splitExportPage(body: string): ExportedPage;
  /** Strict parse and shape check of one envelope text (duplicate keys, non-canonical numbers refused). */
  parseEnvelope(text: string): Envelope;
  /**
   * Verifies each envelope's signature under the given base64url Ed25519 public key, concurrently. With
   * `remember` (a pull checking its next page ahead, while the page before it commits), the work stays
   * off the event loop where it can, and each signature found good is kept for as long as that envelope
   * object lives: a later call asking about that same (deep-frozen) object under the same key is
   * answered from memory — the import of the page asking again. Any other question is verified anew.
   */
  verifyEnvelopes(
    items: readonly { envelope: Envelope; publicKey: string }[],
    options?: { remember?: boolean },
  ): Promise<boolean[]>;
}

export interface ExportedPage {
  events: { sequence: number; text: string }[];
  head: number;
  hasMore: boolean;
}

/** Validates a peer's public key and derives its key id (`ed25519:` + digest, as our own keys). */
export interface PeerKeyCodec {
  /** Throws `federation.bad_public_key` when it is not 32 bytes of Ed25519 as unpadded base64url. */
  keyIdOf(publicKey: string): string;
}

/** SSRF guard for peer base URLs and callbacks. */
export interface UrlGuard {
  /**
   * Throws `federation.unsafe_url` when the URL is not http(s), or when its host is or resolves to an
   * address the outbound address policy refuses (in production: anything not public unless allowed);
   * `federation.unresolvable_url` when it does not resolve.
   */
  checkPeerUrl(url: string): Promise<void>;
}

/** An imported event ready to append: the exact bytes received, under its local stream and actor. */
export interface ImportedRow {
  envelope: Envelope;
  text: string;
  /** `<origin>/<stream>`. */
  localStream: string;
  /** Next version of the local stream (imported streams are numbered locally, in arrival order). */
  localVersion: number;
  /** The local agent the event's actor is bound to. */
  actorId: string;
  /** On our feed too (a relay's: it carries what it accepted from its peers). */
  onFeed?: boolean;
}

export interface AgentBinding {
  origin: string;
  remoteAgentId: string;
  localAgentId: string;
}

/** Reads and writes of one import, in one transaction holding the origin's import lock. */
/** What an import decides on, read at once under the origin's import lock. */
export interface ImportLookup {
  /** Of the event ids, those already in the log from the origin. */
  existingIds: Set<string>;
  /** Nonces of the origin still remembered, each with the id of the event that carried it. */
  seenNonces: Map<string, string>;
  /** Bindings of the agent ids from any origin, and which of them are local agent ids. */
  agentHomes: { bindings: AgentBinding[]; local: Set<string> };
  /** Current versions of the local streams (absent: 0). */
  streamVersions: Map<string, number>;
  /** Per local stream, the highest origin version imported (absent: none). */
  streamHeads: Map<string, number>;
}

/** Two different events an origin signed at one version of one of its streams, both as received. */
export interface Equivocation {
  origin: string;
  /** The origin's stream name (not the local one). */
  stream: string;
  streamVersion: number;
  heldEventId: string;
  heldEnvelope: string;
  refusedEventId: string;
  refusedEnvelope: string;
  detectedAt: Date;
}

export interface EquivocationRecord extends Equivocation {
  /** Position in the evidence table, for paging. */
  seq: number;
}

export interface ImportTransaction {
  /** Reads everything the import decides on in one go (one round trip with the lock). */
  lookup(
    origin: string,
    keys: {
      ids: readonly string[];
      nonces: readonly string[];
      agentIds: readonly string[];
      streams: readonly string[];
    },
  ): Promise<ImportLookup>;
  /** Appends our own sealed events, then the imported rows, with inline projections. */
  append(local: AppendStream[], imported: readonly ImportedRow[]): Promise<void>;
  rememberNonces(
    origin: string,
    entries: readonly { nonce: string; eventId: string; expiresAt: Date }[],
  ): Promise<void>;
  /**
   * The events already imported at these (local stream, origin version) places, with their exact text.
   * Needed only for an event at or below its stream's head, so it costs a round trip only then.
   */
  versionHolders(
    origin: string,
    places: readonly { localStream: string; version: number }[],
  ): Promise<Map<string, { eventId: string; text: string }>>;
  /** Keeps the evidence of equivocations (written with the import; a refused event once). */
  recordEquivocations(entries: readonly Equivocation[]): Promise<void>;
  /** Records gaps a relayed import skipped (written with the import). */
  recordGaps(
    entries: readonly {
      origin: string;
      stream: string;
      fromVersion: number;
      toVersion: number;
      detectedAt: Date;
    }[],
  ): Promise<void>;
  /** Of these (local stream, origin version) places, those inside a recorded gap of the origin's stream. */
  inGaps(origin: string, places: readonly { stream: string; version: number }[]): Promise<Set<string>>;
}

/** The key of a (local stream, origin version) place in `versionHolders`' answer. */
export const versionPlace = (localStream: string, version: number) => `${version} ${localStream}`;

export interface FederationStore {
  /** Runs `work` in one transaction holding `origin`'s import lock; nothing is written if it throws. */
  importing<T>(origin: string, work: (tx: ImportTransaction) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while imports of `origin`'s events wait (the same lock): what it commits is in place
   * before the next import of that origin reads its bindings.
   */
  holdingImports<T>(origin: string, work: () => Promise<T>): Promise<T>;
  /** Records a signed request's nonce; false when the peer already used it within the window. */
  rememberRequestNonce(peerId: string, nonce: string, expiresAt: Date): Promise<boolean>;
  /** Forgets nonces whose window has passed. */
  pruneNonces(now: Date): Promise<void>;
  /** The equivocation evidence, oldest first (of one origin when given), after `after`. */
  equivocations(query: { origin?: string; after?: number; limit: number }): Promise<EquivocationRecord[]>;
  /** Per origin, how many equivocations were recorded and when the last one was. */
  equivocationCounts(): Promise<Map<string, { count: number; lastDetectedAt: Date }>>;
  /** Recorded gaps of relayed origins' streams (all, or those due for a fill attempt at `due`). */
  gaps(query: { origin?: string; due?: Date; limit: number }): Promise<RelayGap[]>;
  /** The outcome of a fill attempt on one gap. */
  settleGap(
    gap: Pick<RelayGap, 'origin' | 'stream' | 'fromVersion'>,
    outcome:
      | { state: 'filled' | 'not_public'; at: Date }
      | { state: 'open'; at: Date; error: string; retryAt: Date },
  ): Promise<void>;
  /** The relay's side: which origins a peer takes relayed events of (null: never said, so all). */
  peerFollowing(peerId: string): Promise<RelayPeerFollowing | null>;
  setPeerFollowing(peerId: string, following: RelayPeerFollowing, at: Date): Promise<void>;
  /** The relay's copy of a peer's signed manifest, served to those who cannot reach it. */
  originManifest(origin: string): Promise<string | null>;
  saveOriginManifest(origin: string, text: string, at: Date): Promise<void>;
}

/** Outbound, signed server-to-server calls (adapters: fetch + RFC 9421). */
export interface PeerClient {
  /** POSTs a batch to the peer's import route; resolves with its per-event results. */
  importEvents(
    baseUrl: string,
    eventTexts: readonly string[],
    range?: PushedRange,
  ): Promise<{
    results: { index: number; id: string | null; status: string; code?: string }[];
    accepted: number;
    duplicates: number;
    rejected: number;
    /** Where the peer's pull cursor for us stands (when the batch carried its range). */
    pulledThrough?: number;
    /**
     * Present when nothing was imported because the batch began before that cursor: the sender's next
     * batch begins here.
     */
    resendFrom?: number;
  }>;
  /** The peer's export page after `since`, as the exact response text (events are verified on its bytes). */
  exportEventsText(baseUrl: string, query: { since: number; limit: number }): Promise<string>;
  /** Our own events the peer holds, after a position of its log (for a restored instance). */
  heldEvents(
    baseUrl: string,
    query: { after: number; limit: number },
  ): Promise<{ events: unknown[]; next: number | null; pulledUpTo: number }>;
  /** Tells a relay which origins' events this instance takes. */
  setRelayFollowing(baseUrl: string, following: RelayPeerFollowing): Promise<void>;
  /** Our events after `since` as the peer exports them to us. */
  exportEvents(
    baseUrl: string,
    query: { since: number; limit: number },
  ): Promise<{ events: { sequence: number; event: unknown }[]; head: number; hasMore: boolean }>;
}

/** One peer and direction of sync: where it stands, and how its last attempts went. */
export interface SyncCursor {
  peerId: string;
  direction: SyncDirection;
  /** push: the last of our feed sequences the peer answered for; pull: the last of the peer's we imported. */
  position: number;
  /** Consecutive failures since the peer last answered. */
  attempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastErrorCode: string | null;
  lastError: string | null;
  /** The peer's feed head when it last answered a pull. */
  peerHead: number | null;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** The codes of the last batch's refusals, e.g. `federation.stale_event ×3`. */
  lastRejection: string | null;
  /** pull: a catch-up after long silence that may take events older than the replay window. */
  replayingHistory: boolean;
  /** push: how many of our feed events are past the cursor (listing only). */
  backlog?: number;
  /**
   * pull: when the peer last pushed us a batch that began where this cursor stood (or before), moving it;
   * the pull waits a pull interval after that instead of fetching what push delivers.
   */
  pushedAt: Date | null;
}

/** A peer's push batch as a range of its feed (as filtered for us): after `after`, through `through`. */
export interface PushedRange {
  after: number;
  through: number;
}

/**
 * What a received push did to our pull cursor for its sender: `advanced` (the batch began at or before
 * where the cursor stood, so it now stands at the batch's end, or stood past it already), or `gap` (events
 * between the cursor and the batch never came: the pull is due at once to fetch them).
 */
export interface PushReceipt {
  kind: 'advanced' | 'gap';
  /** Where the pull cursor stands now. */
  position: number;
}

/** What one attempt changes in its cursor; applied only if the attempt returns (a crash applies nothing). */
export type SyncOutcome =
  | {
      kind: 'answered';
      /** False when there was nothing to send, so the peer was not contacted. */
      contacted: boolean;
      position: number;
      replayingHistory?: boolean;
      peerHead?: number;
      accepted: number;
      duplicates: number;
      rejected: number;
      rejection: string | null;
      /** Run again at once: the peer or our feed has more. */
      more: boolean;
      /** When to look again when there is nothing more (pull: the next scheduled pull). */
      idleUntil: Date;
    }
  | { kind: 'failed'; code: string; message: string; retryAt: Date };

export interface SyncCursorStore {
  /**
   * Runs `attempt` holding the cursor's lock (the row is created, due now, if absent) and then applies its
   * outcome; resolves null when another worker holds that cursor. A crash before the outcome is applied
   * releases the lock and changes nothing.
   */
  attempt(
    peerId: string,
    direction: SyncDirection,
    now: Date,
    attempt: (cursor: SyncCursor) => Promise<SyncOutcome>,
  ): Promise<SyncOutcome | null>;
  /** Every cursor. */
  list(): Promise<SyncCursor[]>;
  /** The cursors of these peers (a page of the operator's status), with the push backlog. */
  listFor(peerIds: readonly string[]): Promise<SyncCursor[]>;
  /** Cursors of registered, unblocked peers that are due at `now` (missing ones are created due). */
  due(
    now: Date,
    directions: readonly SyncDirection[],
  ): Promise<{ peerId: string; direction: SyncDirection }[]>;
  /** The peer just spoke to us (a signed request verified): its failing cursors are retried now. */
  peerAnswered(peerId: string, now: Date): Promise<void>;
  /**
   * A push batch from the peer was imported (every event settled): the pull cursor for that peer moves to
   * its end when the batch began at or before where the cursor stood (docs/federation.md).
   */
  pushReceived(peerId: string, range: PushedRange, now: Date): Promise<PushReceipt>;
  /**
   * Runs `fn` (a received push's import) while no pull attempt of the peer runs, so a push and a pull
   * never import the same events at once: waits (bounded, about 10 s) for a running pull to end, and a
   * pull due meanwhile finds the cursor taken and waits for the next sweep. Runs `fn` anyway when the
   * wait runs out (at worst duplicates, never a loss).
   */
  whilePullHeld<T>(peerId: string, fn: () => Promise<T>): Promise<T>;
  /** Where our pull cursor for the peer stands (everything of its feed for us through it is settled); null before any. */
  pulledThrough(peerId: string): Promise<number | null>;
  /** Releases what the store holds beyond the pool (its lock session). */
  close?(): Promise<void>;
}

export interface FederationPorts {
  read: FederationReadModels;
  /** Absent where this process makes no outbound calls. */
  client?: PeerClient | undefined;
  verifier: Verifier;
  store: FederationStore;
  keys: PeerKeyCodec;
  urls: UrlGuard;
  /** Durable per-peer sync cursors (absent where this process does not sync). */
  cursors?: SyncCursorStore | undefined;
  /** How background sync runs in this process (`off` where it does not), set when it starts. */
  syncMode?: 'bullmq' | 'in-process' | 'off';
  /** Origins' manifests (absent where this process makes no outbound calls). */
  manifests?: OriginManifestSource | undefined;
  /** Told when a peer's signed request verified: its cursors in backoff are retried now. */
  peerSpoke?: ((peerId: string) => void) | undefined;
}
