-- What the site server follows (docs/builder.md#serving): per change key (a site id, or `domain:<name>`
-- for a domain binding's checks, which name no site), how many serving-relevant events it has seen.
-- The inline projection that bumps a count also sends NOTIFY tributary_site_serving with the key, in the
-- append's transaction, so every process hears of the change once it is committed; the counts are what
-- a process compares when it cannot LISTEN (a lost connection, a transaction-pooling proxy).
-- A count only grows, and a rebuild from the log gives the same counts.
CREATE TABLE rm_builder_serving_changes (
  change_key  text PRIMARY KEY,
  changes     bigint NOT NULL
);
