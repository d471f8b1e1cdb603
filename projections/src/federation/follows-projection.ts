// Whom each agent here follows (rm_agent_follows), folded from agent.followed / agent.unfollowed. Write
// only, so its statements go with the append in one round trip.
import type { EventData } from '@tributary/domain';
import {
  runStatements,
  type Projection,
  type SqlStatement,
  type ProjectedEvent,
} from '../shared/projection.js';

function followStatements(e: ProjectedEvent): SqlStatement[] {
  if (e.type === 'agent.followed') {
    const d = e.data as EventData<'agent.followed'>;
    return [
      {
        text: `INSERT INTO rm_agent_follows (follower_agent_id, followed_agent_id, origin, followed_at)
               VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        values: [d.agentId, d.followedAgentId, d.origin, e.occurredAt],
      },
    ];
  }
  const d = e.data as EventData<'agent.unfollowed'>;
  return [
    {
      text: `DELETE FROM rm_agent_follows WHERE follower_agent_id = $1 AND followed_agent_id = $2`,
      values: [d.agentId, d.followedAgentId],
    },
  ];
}

export const followsProjection: Projection = {
  name: 'follows',
  mode: 'inline',
  tables: ['rm_agent_follows'],
  handles: ['agent.followed', 'agent.unfollowed'],
  async apply(db, e) {
    await runStatements(db, followStatements(e));
  },
  statements: followStatements,
};
