-- The time zone a person chose for their pages (svc.account.set_time_zone, docs/web.md#times), folded
-- by the accounts projection from account.time_zone_set; null when they chose none. No fill from the log:
-- the event is new with this migration.
ALTER TABLE rm_accounts ADD COLUMN IF NOT EXISTS time_zone text;
