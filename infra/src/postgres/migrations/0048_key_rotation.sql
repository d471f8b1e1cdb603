-- Key rotation and revocation (docs/operations.md#rotating-the-signing-key): a revoked key verifies only
-- what occurred before `revoked_after`, for our own keys and for the keys peers announce.
ALTER TABLE rm_instance_keys ADD COLUMN revoked_after timestamptz;
ALTER TABLE rm_peer_keys ADD COLUMN revoked_after timestamptz;
