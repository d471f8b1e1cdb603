-- Device flow (RFC 8628): find a pending request by the digest of the code a person types in.
CREATE TABLE rm_oauth_device_codes (
  user_code_digest text PRIMARY KEY,
  device_digest    text NOT NULL,
  expires_at       timestamptz NOT NULL
);
