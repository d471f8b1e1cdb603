-- Single sign-on (docs/sso.md). Read models folded from the sso.* events.

-- The assertions this instance issued for its people (what `svc.sso.list_remote_sessions` shows them).
CREATE TABLE rm_sso_issued (
  nonce              text PRIMARY KEY,
  agent_id           text NOT NULL,
  audience           text NOT NULL,
  credential_version integer NOT NULL,
  issued_at          timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX rm_sso_issued_agent ON rm_sso_issued (agent_id, issued_at DESC);

-- The sign-ons accepted here: the remote-viewer credential each minted, and the credential version of
-- the assertion it came from (a later authority revocation of that person ends it).
CREATE TABLE rm_sso_sessions (
  credential_id      text PRIMARY KEY,
  agent_id           text NOT NULL,
  issuer_instance_id text NOT NULL,
  home               text NOT NULL,
  credential_version integer NOT NULL,
  accepted_at        timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX rm_sso_sessions_agent ON rm_sso_sessions (agent_id, accepted_at DESC);

-- Per (local) agent, the highest credential version a revocation announced, ours or imported from the
-- person's home.
CREATE TABLE rm_sso_authority (
  agent_id           text PRIMARY KEY,
  credential_version integer NOT NULL,
  revoked_at         timestamptz NOT NULL
);
