-- Whom each person or persona here follows (agent.followed / agent.unfollowed, private events on
-- follows-<agentId>): for listing, and for the relay following mode `people`, which takes the origins
-- that someone here follows (docs/federation.md#following).
CREATE TABLE rm_agent_follows (
  follower_agent_id text NOT NULL,
  followed_agent_id text NOT NULL,
  origin text NOT NULL,
  followed_at timestamptz NOT NULL,
  PRIMARY KEY (follower_agent_id, followed_agent_id)
);
CREATE INDEX rm_agent_follows_origin ON rm_agent_follows (origin);
