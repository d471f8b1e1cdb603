-- A relayed origin's revoked key: what it signed that occurred at or after revoked_after is not the
-- origin's (docs/federation.md#relay).
ALTER TABLE rm_relay_origin_keys ADD COLUMN revoked_after text;
