// The queries over whom agents here follow (rm_agent_follows, folded by follows-projection.ts): one
// follower's list, and the origins the relay following mode `people` takes (docs/federation.md#following).
import type { Queryable } from '../shared/projection.js';

export function createFollowsReadModels(db: Queryable) {
  return {
    async followedBy(agentId: string, page: { limit: number; after?: string | undefined }) {
      const { rows } = await db.query<{ followed_agent_id: string; origin: string; followed_at: Date }>(
        `SELECT followed_agent_id, origin, followed_at FROM rm_agent_follows
         WHERE follower_agent_id = $1 AND followed_agent_id > $2 ORDER BY followed_agent_id LIMIT $3`,
        [agentId, page.after ?? '', page.limit],
      );
      return rows.map((r) => ({
        agentId: r.followed_agent_id,
        origin: r.origin,
        followedAt: new Date(r.followed_at).toISOString(),
      }));
    },
    async followedOrigins(except?: { followerAgentId: string; followedAgentId: string }) {
      const { rows } = await db.query<{ origin: string }>(
        `SELECT DISTINCT f.origin FROM rm_agent_follows f
         WHERE f.origin <> (SELECT instance_id FROM rm_instance)
           AND NOT (f.follower_agent_id = $1 AND f.followed_agent_id = $2)
         ORDER BY f.origin`,
        [except?.followerAgentId ?? '', except?.followedAgentId ?? ''],
      );
      return rows.map((r) => r.origin);
    },
  };
}
