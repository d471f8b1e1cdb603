-- A restored instance may not start until `tributary recover` has completed (docs/operations.md#backup-and-restore):
-- `tributary restore` sets this row in the restoring transaction, a complete `recover` removes it, and
-- `tributary start` refuses while it is there. Machinery like the sync cursors: not folded from the log.
-- IF NOT EXISTS: a restore of a backup from before this migration creates the table itself, in its own
-- transaction, before this migration is applied on top.
CREATE TABLE IF NOT EXISTS restore_recovery (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  restored_at timestamptz NOT NULL DEFAULT now(),
  -- When the backup that was restored was taken.
  backup_created_at timestamptz,
  -- The last `recover` that did not complete: when, and why (the peers it could not ask).
  last_attempt_at timestamptz,
  last_error text
);
