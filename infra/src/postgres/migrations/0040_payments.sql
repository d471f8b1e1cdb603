-- Payments (docs/payments.md#records): read models folded from the payment.* events, and the checkpoint
-- of the webhook consumer lives in projection_checkpoints like every consumer of the log.

-- The seller's instance: obligations and their settlement.
CREATE TABLE rm_payment_obligations (
  obligation_id    text PRIMARY KEY,
  seller_agent_id  text NOT NULL,
  amount           bigint NOT NULL,
  currency         text NOT NULL,
  description      text,
  session_id       text,
  checkout_url     text,
  receipt_id       text,
  recorded_at      timestamptz NOT NULL,
  settled_at       timestamptz
);
CREATE INDEX rm_payment_obligations_seller ON rm_payment_obligations (seller_agent_id, recorded_at DESC);

-- The global instance: checkouts per requester and obligation, and whether the settlement was delivered.
CREATE TABLE rm_payment_checkouts (
  requester_instance_id text NOT NULL,
  obligation_id         text NOT NULL,
  seller_instance_id    text NOT NULL,
  seller_agent_id       text NOT NULL,
  connected_account_id  text NOT NULL,
  amount                bigint NOT NULL,
  currency              text NOT NULL,
  session_id            text NOT NULL UNIQUE,
  receipt_id            text,
  delivered             boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL,
  completed_at          timestamptz,
  PRIMARY KEY (requester_instance_id, obligation_id)
);
CREATE INDEX rm_payment_checkouts_undelivered ON rm_payment_checkouts (completed_at)
  WHERE receipt_id IS NOT NULL AND NOT delivered;

CREATE TABLE rm_payment_receipts (
  receipt_id            text PRIMARY KEY,
  requester_instance_id text NOT NULL,
  obligation_id         text NOT NULL,
  seller_instance_id    text NOT NULL,
  seller_agent_id       text NOT NULL,
  connected_account_id  text NOT NULL,
  session_id            text NOT NULL,
  payment_intent_id     text NOT NULL UNIQUE,
  amount                bigint NOT NULL,
  currency              text NOT NULL,
  settled_at            timestamptz NOT NULL
);
CREATE INDEX rm_payment_receipts_seller ON rm_payment_receipts (seller_instance_id, seller_agent_id, settled_at DESC);

CREATE TABLE rm_payment_refunds (
  receipt_id       text NOT NULL,
  idempotency_key  text NOT NULL,
  refund_id        text UNIQUE,
  amount           bigint NOT NULL,
  currency         text NOT NULL,
  status           text NOT NULL,
  requested_at     timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (receipt_id, idempotency_key)
);

CREATE TABLE rm_payment_payouts (
  requester_instance_id text NOT NULL,
  idempotency_key       text NOT NULL,
  payee_instance_id     text NOT NULL,
  payee_agent_id        text NOT NULL,
  amount                bigint NOT NULL,
  currency              text NOT NULL,
  reference             text NOT NULL,
  status                text NOT NULL,
  transfer_id           text,
  requested_at          timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  PRIMARY KEY (requester_instance_id, idempotency_key)
);
CREATE INDEX rm_payment_payouts_payee ON rm_payment_payouts (payee_instance_id, payee_agent_id, requested_at DESC);
CREATE INDEX rm_payment_payouts_awaiting ON rm_payment_payouts (requested_at) WHERE status = 'awaiting_confirmation';

CREATE TABLE rm_payment_accounts (
  instance_id        text NOT NULL,
  agent_id           text NOT NULL,
  account_id         text NOT NULL UNIQUE,
  country            text NOT NULL,
  details_submitted  boolean NOT NULL DEFAULT false,
  charges_enabled    boolean NOT NULL DEFAULT false,
  payouts_enabled    boolean NOT NULL DEFAULT false,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  PRIMARY KEY (instance_id, agent_id)
);

CREATE TABLE rm_payment_webhook_events (
  event_id      text PRIMARY KEY,
  event_type    text NOT NULL,
  received_at   timestamptz NOT NULL,
  processed_at  timestamptz,
  outcome       text
);
