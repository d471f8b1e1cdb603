-- Stripe's webhook events as the intake received them (docs/payments.md#exactly-once): one row per Stripe
-- event id, written by a group-committed INSERT before the 200, so many concurrent deliveries share one
-- durable commit and the intake reads nothing first. The payments worker moves each pending row onto the
-- log (payment.webhook_event_received, oldest first) and then marks it logged, dropping its copy of the
-- payload (the log holds it). The row stays: it is what makes a redelivery a duplicate.
CREATE TABLE payment_webhook_inbox (
  event_id     text PRIMARY KEY,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  event_type   text,
  created      bigint,
  livemode     boolean,
  payload      text,
  received_at  timestamptz NOT NULL,
  logged_at    timestamptz,
  -- A row not yet on the log carries everything its log event needs.
  CONSTRAINT payment_webhook_inbox_pending_complete CHECK (
    logged_at IS NOT NULL
    OR (event_type IS NOT NULL AND created IS NOT NULL AND livemode IS NOT NULL AND payload IS NOT NULL)
  )
);
CREATE INDEX payment_webhook_inbox_pending ON payment_webhook_inbox (seq) WHERE logged_at IS NULL;

-- Events the log already holds (recorded by the intake before this table): a redelivery is a duplicate.
INSERT INTO payment_webhook_inbox (event_id, received_at, logged_at)
SELECT event_id, received_at, received_at FROM rm_payment_webhook_events;
