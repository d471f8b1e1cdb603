// What the rest of the federation surface (query, entity-status, discover, manifests, peer mutations)
// needs from outside the services: a signer for documents, and read models. infra implements them.
import type { DocumentSigner } from '../../ports/signer.js';
import type { RegistryAgentView } from './federation.js';

export interface InstanceKeyView {
  keyId: string;
  publicKey: string;
  validFrom: string;
  validUntil: string | null;
  /** Set once revoked: what it signed that occurred at or after this is not ours. */
  revokedAfter: string | null;
}

/** One of our own public, federable events, as the exact text we signed. */
export interface PublicEventRow {
  sequence: number;
  text: string;
}

export type EntityKind = 'agent' | 'event';

export interface EntityFacts {
  kind: EntityKind;
  id: string;
  /** The instance the entity belongs to (its origin), or null when unknown here. */
  origin: string | null;
  /** For an agent: a private placeholder waiting for its origin. */
  placeholder?: boolean;
  /** For an agent: deleted (by its owner here, or by its origin). */
  deleted?: boolean;
  /** For an agent materialized here: its id at its origin. */
  remoteId?: string | null;
}

/** A person as a user search shows them: their public profile fields, nothing else. */
export interface UserSearchHit {
  agentId: string;
  handle: string | null;
  name: string;
  bio: string | null;
  avatarUrl: string | null;
}

export interface DiscoverPeerView {
  peerId: string;
  agentId: string;
  name: string;
  role: string;
  baseUrl: string;
}

export interface FederationSurfaceReadModels {
  instanceKeys(): Promise<InstanceKeyView[]>;
  /** Our own public, federable events after `afterSequence`, optionally of some types or one stream. */
  publicEvents(query: {
    origin: string;
    afterSequence: number;
    limit: number;
    types?: readonly string[] | undefined;
    stream?: string | undefined;
  }): Promise<PublicEventRow[]>;
  /** What is known here about these entities (absent ones are missing from the answer). */
  entities(refs: readonly { kind: EntityKind; id: string }[]): Promise<EntityFacts[]>;
  /** A public (non-placeholder) agent by its handle, local or remote. */
  agentByHandle(handle: string): Promise<RegistryAgentView | null>;
  /** A local account's agent by its (normalized) email. */
  agentIdByEmail(email: string): Promise<string | null>;
  /**
   * Local persons with an account who did not opt out of discovery, whose handle starts with or whose
   * name contains `q` (lower case), by agent id after `after`; public fields only.
   */
  searchUsers(query: { q: string; after?: string | undefined; limit: number }): Promise<UserSearchHit[]>;
  /** Unblocked peers, by instance id or by the host of their base URL. */
  peerById(peerId: string): Promise<DiscoverPeerView | null>;
  peersByHost(host: string): Promise<DiscoverPeerView[]>;
  /** Which of a peer's mutation id and nonce were already applied here. */
  mutationSeen(peerId: string, mutationId: string, nonce: string): Promise<{ id: boolean; nonce: boolean }>;
}

/** Outbound peer mutations and probes (adapters: the signed PeerClient plus a signed envelope). */
export interface PeerSurfaceClient {
  /** Sends a mutation envelope signed with our key; resolves with the peer's answer. */
  mutate(
    baseUrl: string,
    mutation: { operation: string; input: Record<string, unknown> },
  ): Promise<{
    mutationId: string;
    operation: string;
    result: unknown;
    events: { id: string; type: string; stream: string; streamVersion: number }[];
  }>;
  /** Asks the peer (the entities' origin) for their status. */
  entityStatus(
    baseUrl: string,
    entities: readonly { kind: EntityKind; id: string }[],
  ): Promise<{
    results: {
      kind: EntityKind;
      id: string;
      status: 'live' | 'deleted' | 'missing' | 'not_authoritative';
      origin?: string;
      originId?: string;
    }[];
  }>;
}

/** A request allowance shared by every process of the instance (a fixed window in PostgreSQL). */
export interface SharedRate {
  /** Counts one request for `key`: 0 when allowed, else the whole seconds until the window ends. */
  take(key: string): Promise<number>;
}

export interface FederationSurfacePorts {
  documents: DocumentSigner;
  /** Peer user searches (USER_SEARCH_PER_MINUTE per peer); absent, searches are not limited here. */
  userSearchRate?: SharedRate | undefined;
  read: FederationSurfaceReadModels;
  /** Matrix discovery (`/.well-known/matrix/*`); unset when no homeserver is configured. */
  matrix?: { homeserverUrl?: string | undefined; server?: string | undefined } | undefined;
  globalUrl?: string | undefined;
  /** Absent where this process makes no outbound calls. */
  client?: PeerSurfaceClient | undefined;
}
