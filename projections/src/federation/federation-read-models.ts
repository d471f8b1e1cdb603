// Query functions over the federation read models (the services' FederationReadModels port).
import type { Queryable } from '../shared/projection.js';
import type { RelayFollowMode } from '@tributary/domain';
import { iso } from '../shared/iso.js';
import { createFollowsReadModels } from './follows-read-models.js';

interface PeerRow {
  peer_id: string;
  agent_id: string;
  name: string;
  base_url: string;
  role: string;
  blocked: boolean;
  blocked_reason: string | null;
  registered_at: Date;
  updated_at: Date;
  keys:
    | {
        key_id: string;
        public_key: string;
        valid_from: string;
        valid_until: string | null;
        revoked_after: string | null;
      }[]
    | null;
}

const PEER_SELECT = `SELECT p.*, (SELECT json_agg(json_build_object('key_id', k.key_id, 'public_key', k.public_key,
    'valid_from', k.valid_from, 'valid_until', k.valid_until, 'revoked_after', k.revoked_after) ORDER BY k.valid_from, k.key_id)
  FROM rm_peer_keys k WHERE k.peer_id = p.peer_id) AS keys FROM rm_peers p`;

/**
 * The peer holding a key: on every signed request, so an index lookup (rm_peer_keys_key), never a scan of
 * the peers (test/src/federation/peer-list-scale.test.ts holds its plan to that).
 */
export const PEER_BY_KEY_ID_SQL = `${PEER_SELECT} WHERE p.peer_id IN (SELECT peer_id FROM rm_peer_keys WHERE key_id = $1)`;

/** A peer's state for the operator's views (PeerSyncState): blocked, else failing, reachable or unknown. */
const PEER_STATE = `CASE WHEN p.blocked THEN 'blocked'
  WHEN EXISTS (SELECT 1 FROM federation_sync_cursors c WHERE c.peer_id = p.peer_id AND c.attempts > 0) THEN 'failing'
  WHEN EXISTS (SELECT 1 FROM federation_sync_cursors c WHERE c.peer_id = p.peer_id AND c.last_success_at IS NOT NULL)
    THEN 'reachable'
  ELSE 'unknown' END`;

type PeerSyncState = 'reachable' | 'failing' | 'unknown' | 'blocked';

/**
 * A page of the operator's peer list. Keyset order (registered_at, peer_id): the index
 * rm_peers_registered serves the range, walked until `limit` peers of the state asked for are found.
 */
export function peerPageSql(query: {
  limit: number;
  after?: { registeredAt: string; peerId: string } | undefined;
  state?: PeerSyncState | undefined;
}): { text: string; params: unknown[] } {
  const params: unknown[] = [query.limit];
  const where: string[] = [];
  if (query.after) {
    params.push(query.after.registeredAt, query.after.peerId);
    where.push(`(p.registered_at, p.peer_id) > ($2::timestamptz, $3::text)`);
  }
  if (query.state) {
    params.push(query.state);
    where.push(`${PEER_STATE} = $${params.length}`);
  }
  return {
    text: `SELECT p.*, ${PEER_STATE} AS state,
       (SELECT json_agg(json_build_object('key_id', k.key_id, 'public_key', k.public_key,
          'valid_from', k.valid_from, 'valid_until', k.valid_until, 'revoked_after', k.revoked_after)
          ORDER BY k.valid_from, k.key_id) FROM rm_peer_keys k WHERE k.peer_id = p.peer_id) AS keys
       FROM rm_peers p ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY p.registered_at, p.peer_id LIMIT $1`,
    params,
  };
}

/**
 * The public node status's peers: the first `limit` unblocked peers (the index rm_peers_registered's
 * range) and the first unblocked global one, each with its state and latest successful contact, and the
 * count of unblocked peers. No peers unblocked: no rows, and the count is 0.
 */
export const NODE_STATUS_PEERS_SQL = `WITH page AS (
    SELECT p.peer_id, p.role, p.base_url, p.registered_at, false AS is_global FROM rm_peers p
     WHERE NOT p.blocked ORDER BY p.registered_at, p.peer_id LIMIT $1),
  g AS (
    SELECT p.peer_id, p.role, p.base_url, p.registered_at, true AS is_global FROM rm_peers p
     WHERE NOT p.blocked AND p.role = 'global' ORDER BY p.registered_at, p.peer_id LIMIT 1),
  chosen AS (SELECT * FROM page UNION ALL SELECT * FROM g)
SELECT c.peer_id, c.role, c.base_url, c.is_global,
       (SELECT count(*) FROM rm_peers WHERE NOT blocked) AS count,
       CASE WHEN EXISTS (SELECT 1 FROM federation_sync_cursors x WHERE x.peer_id = c.peer_id AND x.attempts > 0)
              THEN 'failing'
            WHEN EXISTS (SELECT 1 FROM federation_sync_cursors x
                          WHERE x.peer_id = c.peer_id AND x.last_success_at IS NOT NULL) THEN 'reachable'
            ELSE 'unknown' END AS state,
       (SELECT max(x.last_success_at) FROM federation_sync_cursors x WHERE x.peer_id = c.peer_id)
         AS last_contact_at
  FROM chosen c ORDER BY c.is_global, c.registered_at, c.peer_id`;

const toPeer = (r: PeerRow) => ({
  peerId: r.peer_id,
  agentId: r.agent_id,
  name: r.name,
  baseUrl: r.base_url,
  role: r.role,
  blocked: r.blocked,
  blockedReason: r.blocked_reason,
  registeredAt: iso(r.registered_at)!,
  updatedAt: iso(r.updated_at)!,
  keys: (r.keys ?? []).map((k) => ({
    keyId: k.key_id,
    publicKey: k.public_key,
    validFrom: new Date(k.valid_from).toISOString(),
    validUntil: k.valid_until === null ? null : new Date(k.valid_until).toISOString(),
    revokedAfter: k.revoked_after === null ? null : new Date(k.revoked_after).toISOString(),
  })),
});

export interface RegistryRow {
  agent_id: string;
  kind: string;
  name: string;
  handle: string | null;
  owner_agent_id: string | null;
  bio: string | null;
  avatar_url: string | null;
  origin: string | null;
  remote_origin: string | null;
  remote_agent_id: string | null;
  created_at: Date;
  updated_at: Date;
}

// Public fields only, never a placeholder (a placeholder is private until its origin speaks), and never
// a deleted agent.
export const REGISTRY_SELECT = `SELECT a.agent_id, a.kind, a.name, coalesce(a.handle, a.remote_handle) AS handle,
    a.owner_agent_id, a.bio, a.avatar_url, a.origin, r.origin AS remote_origin, r.remote_agent_id,
    a.created_at, a.updated_at
  FROM rm_agents a LEFT JOIN rm_remote_agents r ON r.local_agent_id = a.agent_id
  WHERE NOT a.placeholder AND a.deleted_at IS NULL`;

export const toRegistryAgent = (r: RegistryRow) => ({
  agentId: r.agent_id,
  kind: r.kind,
  name: r.name,
  handle: r.handle,
  ownerAgentId: r.owner_agent_id,
  bio: r.bio,
  avatarUrl: r.avatar_url,
  origin: r.origin,
  remote:
    r.remote_origin && r.remote_agent_id ? { origin: r.remote_origin, agentId: r.remote_agent_id } : null,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

export function createFederationReadModels(db: Queryable) {
  return {
    ...createFollowsReadModels(db),
    async peer(peerId: string) {
      const { rows } = await db.query<PeerRow>(`${PEER_SELECT} WHERE p.peer_id = $1`, [peerId]);
      return rows[0] ? toPeer(rows[0]) : null;
    },
    async peers() {
      const { rows } = await db.query<PeerRow>(`${PEER_SELECT} ORDER BY p.registered_at, p.peer_id`);
      return rows.map(toPeer);
    },
    async peerPage(query: {
      limit: number;
      after?: { registeredAt: string; peerId: string } | undefined;
      state?: PeerSyncState | undefined;
    }) {
      const { text, params } = peerPageSql(query);
      const { rows } = await db.query<PeerRow & { state: PeerSyncState }>(text, params);
      return rows.map((r) => ({ ...toPeer(r), state: r.state }));
    },
    async peerSummary() {
      const { rows } = await db.query<{
        total: string;
        reachable: string;
        failing: string;
        unknown: string;
        blocked: string;
        push_behind: string;
        push_max: string | null;
        pull_behind: string;
        pull_max: string | null;
      }>(
        `WITH states AS (SELECT ${PEER_STATE} AS state FROM rm_peers p),
              head AS (SELECT coalesce(max(seq), 0) AS h FROM event_sequence WHERE feed),
              lag AS (
                SELECT c.direction,
                       CASE WHEN c.direction = 'push' THEN (SELECT h FROM head) - c.position
                            ELSE coalesce(c.peer_head, 0) - c.position END AS behind
                  FROM federation_sync_cursors c JOIN rm_peers p USING (peer_id) WHERE NOT p.blocked)
         SELECT (SELECT count(*) FROM states) AS total,
                (SELECT count(*) FROM states WHERE state = 'reachable') AS reachable,
                (SELECT count(*) FROM states WHERE state = 'failing') AS failing,
                (SELECT count(*) FROM states WHERE state = 'unknown') AS unknown,
                (SELECT count(*) FROM states WHERE state = 'blocked') AS blocked,
                (SELECT count(*) FROM lag WHERE direction = 'push' AND behind > 0) AS push_behind,
                (SELECT max(behind) FROM lag WHERE direction = 'push') AS push_max,
                (SELECT count(*) FROM lag WHERE direction = 'pull' AND behind > 0) AS pull_behind,
                (SELECT max(behind) FROM lag WHERE direction = 'pull') AS pull_max`,
      );
      const r = rows[0]!;
      return {
        total: Number(r.total),
        reachable: Number(r.reachable),
        failing: Number(r.failing),
        unknown: Number(r.unknown),
        blocked: Number(r.blocked),
        lag: {
          pushBehind: Number(r.push_behind),
          pushMaxBehind: Math.max(0, Number(r.push_max ?? 0)),
          pullBehind: Number(r.pull_behind),
          pullMaxBehind: Math.max(0, Number(r.pull_max ?? 0)),
        },
      };
    },
    async nodeStatusPeers(limit: number) {
      const { rows } = await db.query<{
        peer_id: string;
        role: string;
        base_url: string;
        is_global: boolean;
        count: string;
        state: 'reachable' | 'failing' | 'unknown';
        last_contact_at: Date | null;
      }>(NODE_STATUS_PEERS_SQL, [limit]);
      const view = (r: (typeof rows)[number]) => ({
        peerId: r.peer_id,
        role: r.role,
        baseUrl: r.base_url,
        state: r.state,
        lastContactAt: iso(r.last_contact_at),
      });
      const g = rows.find((r) => r.is_global);
      return {
        count: rows.length ? Number(rows[0]!.count) : 0,
        global: g ? view(g) : null,
        peers: rows.filter((r) => !r.is_global).map(view),
      };
    },
    async heldFrom(origin: string, after: number, limit: number) {
      // What this instance imported of `origin`'s own events, in the order it took them, and how far
      // its pull from `origin` stands (a restored origin finds what it lost: docs/operations.md#backup-and-restore).
      const { rows } = await db.query<{ position: string; envelope: string }>(
        `SELECT position, envelope FROM events WHERE origin = $1 AND position > $2 AND stream LIKE $3
         ORDER BY position LIMIT $4`,
        [origin, after, `${origin.replace(/[\\%_]/g, '\\$&')}/%`, limit],
      );
      const { rows: cursor } = await db.query<{ position: string }>(
        `SELECT position FROM federation_sync_cursors WHERE peer_id = $1 AND direction = 'pull'`,
        [origin],
      );
      return {
        events: rows.map((r) => ({ position: Number(r.position), text: r.envelope })),
        pulledUpTo: Number(cursor[0]?.position ?? 0),
      };
    },
    async peerByKeyId(keyId: string) {
      const { rows } = await db.query<PeerRow>(PEER_BY_KEY_ID_SQL, [keyId]);
      // A key id held by two peers authenticates neither.
      if (rows.length !== 1) return null;
      const peer = toPeer(rows[0]!);
      return { peer, key: peer.keys.find((k) => k.keyId === keyId)! };
    },
    async registryAgents(query: { limit: number; after?: string | undefined; origin?: string | undefined }) {
      const { rows } = await db.query<RegistryRow>(
        `${REGISTRY_SELECT} AND ($1::text IS NULL OR a.agent_id > $1) AND ($2::text IS NULL OR a.origin = $2)
         ORDER BY a.agent_id LIMIT $3`,
        [query.after ?? null, query.origin ?? null, query.limit],
      );
      return rows.map(toRegistryAgent);
    },
    async relayOrigin(origin: string) {
      const { rows } = await db.query<RelayOriginRow>(`${RELAY_ORIGIN_SELECT} WHERE o.origin = $1`, [origin]);
      return rows[0] ? toRelayOrigin(rows[0]) : null;
    },
    async relayOrigins() {
      const { rows } = await db.query<RelayOriginRow>(`${RELAY_ORIGIN_SELECT} ORDER BY o.origin`);
      return rows.map(toRelayOrigin);
    },
    async relayFollowing() {
      const { rows } = await db.query<{ mode: RelayFollowMode; origins: string[]; version: number }>(
        'SELECT mode, origins, version FROM rm_relay_following',
      );
      const r = rows[0];
      return r
        ? { following: { mode: r.mode, origins: r.origins }, version: r.version }
        : { following: { mode: 'all' as const, origins: [] }, version: 0 };
    },
    async registryAgentsByIds(agentIds: readonly string[]) {
      const { rows } = await db.query<RegistryRow>(
        `${REGISTRY_SELECT} AND a.agent_id = ANY($1::text[]) ORDER BY a.agent_id`,
        [agentIds],
      );
      return rows.map(toRegistryAgent);
    },
  };
}

interface RelayOriginRow {
  origin: string;
  name: string;
  role: string;
  base_url: string;
  version: number;
  updated_at: Date;
  keys:
    | {
        key_id: string;
        public_key: string;
        valid_from: string;
        valid_until: string | null;
        source: string;
        pinned_at: string;
        revoked_after: string | null;
      }[]
    | null;
}

const RELAY_ORIGIN_SELECT = `SELECT o.*, (SELECT json_agg(json_build_object('key_id', k.key_id,
    'public_key', k.public_key, 'valid_from', k.valid_from, 'valid_until', k.valid_until, 'source', k.source,
    'pinned_at', k.pinned_at, 'revoked_after', k.revoked_after) ORDER BY k.pinned_at, k.key_id)
  FROM rm_relay_origin_keys k WHERE k.origin = o.origin) AS keys FROM rm_relay_origins o`;

const toRelayOrigin = (r: RelayOriginRow) => ({
  origin: r.origin,
  name: r.name,
  role: r.role,
  baseUrl: r.base_url,
  version: r.version,
  updatedAt: iso(r.updated_at)!,
  keys: (r.keys ?? []).map((k) => ({
    keyId: k.key_id,
    publicKey: k.public_key,
    validFrom: k.valid_from,
    validUntil: k.valid_until,
    source: k.source,
    pinnedAt: new Date(k.pinned_at).toISOString(),
    revokedAfter: k.revoked_after,
  })),
});
