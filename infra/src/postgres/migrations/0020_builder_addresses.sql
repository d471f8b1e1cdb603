-- Site addresses (docs/builder.md#addresses): one row per label this instance knows, in its latest
-- state. `claimed`: a site of ours holds it (owner_agent_id set); `released`: a site of ours gave it up,
-- held back for its owner until hold_until; on the global instance also `registered` (another instance
-- holds it, instance_id set) and `deregistered` (that instance gave it up, held for it until
-- hold_until). Folded inline from this instance's own address-label-<label> streams; claims imported
-- from peers are not folded (a peer's address is served by the peer).
CREATE TABLE rm_builder_addresses (
  label          text PRIMARY KEY,
  site_id        text NOT NULL,
  owner_agent_id text,
  instance_id    text,
  state          text NOT NULL CHECK (state IN ('claimed', 'released', 'registered', 'deregistered')),
  claimed_at     timestamptz NOT NULL,
  released_at    timestamptz,
  hold_until     timestamptz
);
-- A site's current address, and the site server's label index.
CREATE UNIQUE INDEX rm_builder_addresses_site ON rm_builder_addresses (site_id) WHERE state = 'claimed';

-- On the global instance: the host each peer instance serves its sites on, as it last recorded it.
CREATE TABLE rm_builder_address_instances (
  instance_id text PRIMARY KEY,
  hostname    text NOT NULL,
  recorded_at timestamptz NOT NULL
);
