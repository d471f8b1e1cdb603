-- Connected apps: which persona a grant acts for and its newest access token (for "last used").
ALTER TABLE rm_oauth_families ADD COLUMN persona_id text, ADD COLUMN last_access_jti text;
