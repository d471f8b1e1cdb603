-- The results of `tributary log verify`, for the operator's log page (docs/web.md#operator-pages).
-- Machinery like the sync cursors: written by the CLI after each run, not folded from the log.
CREATE TABLE log_verify_runs (
  run_id bigserial PRIMARY KEY,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  ok boolean NOT NULL,
  events bigint NOT NULL,
  streams integer NOT NULL,
  -- Where it failed (position, event id, stream, code, reason); null when ok.
  first_bad jsonb
);
