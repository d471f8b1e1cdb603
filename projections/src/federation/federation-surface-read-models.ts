// Query functions for the rest of the federation surface (the services' FederationSurfaceReadModels).
import { REGISTRY_SELECT, toRegistryAgent, type RegistryRow } from './federation-read-models.js';
import type { Queryable } from '../shared/projection.js';
import { iso } from '../shared/iso.js';

interface PeerRow {
  peer_id: string;
  agent_id: string;
  name: string;
  role: string;
  base_url: string;
}
const toPeer = (r: PeerRow) => ({
  peerId: r.peer_id,
  agentId: r.agent_id,
  name: r.name,
  role: r.role,
  baseUrl: r.base_url,
});

export function createFederationSurfaceReadModels(db: Queryable) {
  return {
    async instanceKeys() {
      const { rows } = await db.query<{
        key_id: string;
        public_key: string;
        valid_from: Date;
        valid_until: Date | null;
        revoked_after: Date | null;
      }>(
        `SELECT k.key_id, k.public_key, k.valid_from, k.valid_until, k.revoked_after FROM rm_instance_keys k
         JOIN rm_instance i ON i.instance_id = k.origin ORDER BY k.valid_from, k.key_id`,
      );
      return rows.map((r) => ({
        keyId: r.key_id,
        publicKey: r.public_key,
        validFrom: iso(r.valid_from)!,
        validUntil: iso(r.valid_until),
        revokedAfter: iso(r.revoked_after),
      }));
    },
    async publicEvents(q: {
      origin: string;
      afterSequence: number;
      limit: number;
      types?: readonly string[] | undefined;
      stream?: string | undefined;
    }) {
      const { rows } = await db.query<{ seq: string; envelope: string }>(
        `SELECT s.seq, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
         WHERE s.feed AND s.seq > $1 AND e.origin = $2
           AND ($3::text[] IS NULL OR e.type = ANY($3::text[])) AND ($4::text IS NULL OR e.stream = $4)
         ORDER BY s.seq LIMIT $5`,
        [q.afterSequence, q.origin, q.types ?? null, q.stream ?? null, q.limit],
      );
      return rows.map((r) => ({ sequence: Number(r.seq), text: r.envelope }));
    },
    async entities(refs: readonly { kind: 'agent' | 'event'; id: string }[]) {
      const agentIds = refs.filter((r) => r.kind === 'agent').map((r) => r.id);
      const eventIds = refs.filter((r) => r.kind === 'event').map((r) => r.id);
      const facts: {
        kind: 'agent' | 'event';
        id: string;
        origin: string | null;
        placeholder?: boolean;
        deleted?: boolean;
        remoteId?: string | null;
      }[] = [];
      if (agentIds.length) {
        const { rows } = await db.query<{
          agent_id: string;
          origin: string | null;
          placeholder: boolean;
          deleted: boolean;
          remote_agent_id: string | null;
        }>(
          `SELECT a.agent_id, a.origin, a.placeholder, a.deleted_at IS NOT NULL AS deleted, r.remote_agent_id
           FROM rm_agents a LEFT JOIN rm_remote_agents r ON r.local_agent_id = a.agent_id
           WHERE a.agent_id = ANY($1::text[])`,
          [agentIds],
        );
        for (const r of rows)
          facts.push({
            kind: 'agent',
            id: r.agent_id,
            origin: r.origin,
            placeholder: r.placeholder,
            deleted: r.deleted,
            remoteId: r.remote_agent_id,
          });
      }
      if (eventIds.length) {
        // Only public events count: a private event of ours is as unknown to a peer as a missing one.
        const { rows } = await db.query<{ id: string; origin: string }>(
          `SELECT DISTINCT ON (e.id) e.id, e.origin FROM events e JOIN rm_instance i ON true
           WHERE e.id = ANY($1::text[]) AND (e.feed OR e.origin <> i.instance_id)
           ORDER BY e.id, (e.origin = i.instance_id) DESC`,
          [eventIds],
        );
        for (const r of rows) facts.push({ kind: 'event', id: r.id, origin: r.origin });
      }
      return facts;
    },
    async agentByHandle(handle: string) {
      // Our own handle first: a remote agent may carry the same handle at its origin.
      const { rows } = await db.query<RegistryRow>(
        `${REGISTRY_SELECT} AND (a.handle = $1 OR a.remote_handle = $1)
         ORDER BY (a.handle = $1) DESC NULLS LAST, a.agent_id LIMIT 1`,
        [handle],
      );
      return rows[0] ? toRegistryAgent(rows[0]) : null;
    },
    async agentIdByEmail(email: string) {
      const { rows } = await db.query<{ agent_id: string }>(
        `SELECT agent_id FROM rm_accounts WHERE email = $1`,
        [email],
      );
      return rows[0]?.agent_id ?? null;
    },
    async searchUsers(query: { q: string; after?: string | undefined; limit: number }) {
      const like = query.q.replace(/[\\%_]/g, (c) => `\\${c}`);
      const { rows } = await db.query<{
        agent_id: string;
        handle: string | null;
        name: string;
        bio: string | null;
        avatar_url: string | null;
      }>(
        `SELECT g.agent_id, g.handle, g.name, g.bio, g.avatar_url
           FROM rm_accounts a JOIN rm_agents g ON g.agent_id = a.agent_id
          WHERE a.discoverable AND g.kind = 'person' AND NOT g.placeholder AND g.deleted_at IS NULL
            AND (lower(g.handle) LIKE $1 || '%' OR lower(g.name) LIKE '%' || $1 || '%')
            AND ($2::text IS NULL OR g.agent_id > $2)
          ORDER BY g.agent_id LIMIT $3`,
        [like, query.after ?? null, query.limit],
      );
      return rows.map((r) => ({
        agentId: r.agent_id,
        handle: r.handle,
        name: r.name,
        bio: r.bio,
        avatarUrl: r.avatar_url,
      }));
    },
    async peerById(peerId: string) {
      const { rows } = await db.query<PeerRow>(
        `SELECT peer_id, agent_id, name, role, base_url FROM rm_peers WHERE peer_id = $1 AND NOT blocked`,
        [peerId],
      );
      return rows[0] ? toPeer(rows[0]) : null;
    },
    async peersByHost(host: string) {
      // Base URLs are normalized at registration (scheme://host[:port], no path): match the host part,
      // with or without a port.
      const { rows } = await db.query<PeerRow>(
        `SELECT peer_id, agent_id, name, role, base_url FROM rm_peers
         WHERE NOT blocked AND (lower(substring(base_url from '^[a-z]+://([^/]+)')) = $1
           OR lower(substring(base_url from '^[a-z]+://([^/:]+)')) = $1)
         ORDER BY registered_at, peer_id`,
        [host.toLowerCase()],
      );
      return rows.map(toPeer);
    },
    async mutationSeen(peerId: string, mutationId: string, nonce: string) {
      const { rows } = await db.query<{ by_id: boolean; by_nonce: boolean }>(
        `SELECT bool_or(mutation_id = $2) AS by_id, bool_or(nonce = $3) AS by_nonce
         FROM rm_peer_mutations WHERE peer_id = $1 AND (mutation_id = $2 OR nonce = $3)`,
        [peerId, mutationId, nonce],
      );
      return { id: rows[0]?.by_id === true, nonce: rows[0]?.by_nonce === true };
    },
  };
}
