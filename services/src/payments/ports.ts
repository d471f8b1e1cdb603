// What the payments area needs from outside the services (docs/payments.md): the payment processor
// (Stripe, through the official `stripe` package over the guarded outbound client), the read models, and
// the signed-request clients between instances. infra fills them (infra/src/compose/compose-payments.ts).
import type { LineItem, Money, PaymentCurrency, PaymentParty, PayoutStatus } from '@tributary/domain';

/** Stripe's event, verified: only what processing reads. */
export interface ProcessorEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  /** `data.object` as Stripe sent it. */
  object: Record<string, unknown>;
  /** The Connect account the event happened on (`account`), if any. */
  account: string | null;
}

export interface ConnectedAccountInfo {
  accountId: string;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
}

export interface ProcessorCheckoutSession {
  sessionId: string;
  url: string | null;
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
  paymentIntentId: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Record<string, string>;
  /** The line items as the seller named them: name (the product's), unit amount, quantity. */
  lineItems: { name: string; amount: number; quantity: number }[];
}

export interface ProcessorRefund {
  refundId: string;
  status: string;
  amount: number;
  currency: string;
  paymentIntentId: string | null;
  metadata: Record<string, string>;
}

/**
 * The payment processor. Every call that creates something takes our `idempotencyKey` (sent as
 * Stripe's `Idempotency-Key`: the same key and body answer the first result, so a retry after a crash
 * never charges, pays or refunds twice) and runs under a timeout. Stripe's refusals come back as
 * DomainErrors: `payments.processor_refused` (with `processorCode`) or `payments.processor_unavailable`.
 */
export interface PaymentProcessor {
  createCheckoutSession(
    req: {
      lineItems: readonly LineItem[];
      currency: PaymentCurrency;
      successUrl: string;
      cancelUrl: string;
      /** The seller's connected account: the charge's destination. */
      connectedAccountId: string;
      /** Copied to the session's and payment's metadata (our ids, so webhooks find their records). */
      metadata: Record<string, string>;
    },
    idempotencyKey: string,
  ): Promise<{ sessionId: string; url: string }>;
  createConnectedAccount(
    req: { country: string; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<{ accountId: string }>;
  createAccountLink(
    req: { accountId: string; refreshUrl: string; returnUrl: string },
    idempotencyKey: string,
  ): Promise<{ url: string; expiresAt: number }>;
  retrieveAccount(accountId: string): Promise<ConnectedAccountInfo>;
  /** A transfer from the platform balance to a connected account (`balance_insufficient` is `insufficient_funds`). */
  createTransfer(
    req: Money & { destination: string; transferGroup: string; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<{ transferId: string }>;
  createRefund(
    req: { paymentIntentId: string; amount: number; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<{ refundId: string; status: string }>;
  /**
   * A Checkout Session as Stripe holds it now, with its line items (for recovering a checkout whose
   * creation was never recorded here); null when Stripe has no such session.
   */
  retrieveCheckoutSession(sessionId: string): Promise<ProcessorCheckoutSession | null>;
  /** A refund as Stripe holds it now (its status re-derived rather than taken from an event); null: none. */
  retrieveRefund(refundId: string): Promise<ProcessorRefund | null>;
  /**
   * Checks `Stripe-Signature` over the raw body with the webhook secret (tolerance 300 s) and parses
   * the event; throws `payments.webhook_signature_invalid` or `payments.webhook_malformed`.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProcessorEvent;
  /** Recent objects for reconciliation, newest first, created at or after `since` (seconds). */
  listRecent(
    kind: 'checkout_sessions' | 'refunds' | 'transfers',
    since: number,
    limit: number,
  ): Promise<Record<string, unknown>[]>;
}

/** A receipt as the global instance knows it. */
export interface ReceiptView {
  receiptId: string;
  requesterInstanceId: string;
  obligationId: string;
  seller: PaymentParty;
  /** The seller's agent here (materialized for a remote seller), null when not known here. */
  sellerLocalAgentId: string | null;
  connectedAccountId: string;
  sessionId: string;
  paymentIntentId: string;
  amount: number;
  currency: PaymentCurrency;
  /** Refunds asked for and not failed, minor units. */
  refunded: number;
  settledAt: string;
}

/** An obligation as the seller's instance knows it. */
export interface ObligationView {
  obligationId: string;
  sellerAgentId: string;
  amount: number;
  currency: PaymentCurrency;
  description: string | null;
  sessionId: string | null;
  checkoutUrl: string | null;
  state: 'recorded' | 'settled';
  receiptId: string | null;
  recordedAt: string;
  settledAt: string | null;
}

/** A payout request on the global instance. */
export interface PayoutView {
  requesterInstanceId: string;
  idempotencyKey: string;
  payee: PaymentParty;
  payeeLocalAgentId: string | null;
  amount: number;
  currency: PaymentCurrency;
  reference: string;
  status: PayoutStatus;
  transferId: string | null;
  requestedAt: string;
  updatedAt: string;
}

export interface ConnectedAccountView {
  party: PaymentParty;
  localAgentId: string | null;
  accountId: string;
  country: string;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Per currency: what an agent received (receipts or settled obligations), had refunded, was paid out. */
export interface BalanceView {
  currency: PaymentCurrency;
  received: number;
  refunded: number;
  paidOut: number;
}

/** A checkout completed whose settlement the seller's instance has not acknowledged yet. */
export interface PendingSettlementView {
  requesterInstanceId: string;
  obligationId: string;
  receiptId: string;
  seller: PaymentParty;
  amount: number;
  currency: PaymentCurrency;
  sessionId: string;
}

export interface PaymentsReadModels {
  receipt(receiptId: string): Promise<ReceiptView | null>;
  /** Receipts where the agent (local id) is the seller, newest first. */
  receiptsOfAgent(
    agentId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<ReceiptView[]>;
  obligation(obligationId: string): Promise<ObligationView | null>;
  /** Obligations of a seller agent on its own instance, newest first. */
  obligationsOfAgent(
    agentId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<ObligationView[]>;
  /** Payouts where the agent (local id) is the payee, newest first. */
  payoutsOfAgent(
    agentId: string,
    page: { limit: number; before?: string | undefined },
  ): Promise<PayoutView[]>;
  /** Payouts waiting for an operator's confirmation, oldest first. */
  payoutsAwaitingConfirmation(limit: number): Promise<PayoutView[]>;
  connectedAccount(party: PaymentParty): Promise<ConnectedAccountView | null>;
  connectedAccountById(accountId: string): Promise<ConnectedAccountView | null>;
  /** The connected account of a local agent (as seller or payee), if any. */
  connectedAccountOfAgent(agentId: string): Promise<ConnectedAccountView | null>;
  balanceOfAgent(agentId: string): Promise<BalanceView[]>;
  /** The receipt a Stripe payment intent paid (refund and dispute webhooks name the intent). */
  receiptByPaymentIntent(paymentIntentId: string): Promise<ReceiptView | null>;
  /** Settlements to deliver, oldest first. */
  pendingSettlements(limit: number): Promise<PendingSettlementView[]>;
}

/** The settlement the global instance sends the seller's instance (a signed federation request). */
export interface SettlementNotice {
  obligationId: string;
  receiptId: string;
  amount: number;
  currency: PaymentCurrency;
  sessionId: string;
}

/** Signed requests from the global instance to a seller's instance. */
export interface SettlementClient {
  /** Resolves once the seller's instance recorded (or had already recorded) the settlement. */
  settle(sellerBaseUrl: string, notice: SettlementNotice): Promise<void>;
}

/**
 * Signed requests from a sovereign instance to the global instance's payment routes; a refusal comes
 * back as a DomainError with the global instance's own code.
 */
export interface PaymentPlatformClient {
  checkout(
    globalBaseUrl: string,
    body: {
      obligationId: string;
      sellerAgentId: string;
      lineItems: LineItem[];
      currency: PaymentCurrency;
      successUrl: string;
      cancelUrl: string;
    },
  ): Promise<{ sessionId: string; url: string; obligationId: string }>;
  onboarding(
    globalBaseUrl: string,
    body: { agentId: string; country: string; refreshUrl: string; returnUrl: string; requestId?: string },
  ): Promise<{ accountId: string; url: string; expiresAt: number; created: boolean }>;
  /** The state of the agent's connected account on the global instance; null when it has none. */
  account(
    globalBaseUrl: string,
    body: { agentId: string },
  ): Promise<{
    account: {
      accountId: string;
      country: string;
      detailsSubmitted: boolean;
      chargesEnabled: boolean;
      payoutsEnabled: boolean;
      createdAt: string;
      updatedAt: string;
    } | null;
  }>;
  payout(
    globalBaseUrl: string,
    body: {
      payeeAgentId: string;
      amount: number;
      currency: PaymentCurrency;
      idempotencyKey: string;
      reference: string;
    },
  ): Promise<{ status: PayoutStatus; transferId: string | null }>;
  refund(
    globalBaseUrl: string,
    body: {
      receiptId: string;
      amount?: number | undefined;
      idempotencyKey: string;
      reason?: string | undefined;
    },
  ): Promise<{ status: 'requested' | 'already_requested'; refundId: string | null; amount: number }>;
}

/** A verified Stripe event as the intake records it (its log event is written later, from this). */
export interface ReceivedWebhookEvent {
  eventId: string;
  eventType: string;
  created: number;
  livemode: boolean;
  /** The raw body as Stripe sent it (UTF-8). */
  payload: string;
  receivedAt: string;
}

/**
 * The webhook intake's durable record (docs/payments.md#exactly-once): one entry per Stripe event id,
 * committed before the intake answers; the worker moves pending entries onto the log.
 */
export interface WebhookInbox {
  /** Durable once it resolves; `duplicate` when the id was already recorded (nothing written). */
  record(event: ReceivedWebhookEvent): Promise<{ duplicate: boolean }>;
  /** Up to `limit` recorded events not yet on the log, in the order they were recorded. */
  pending(limit: number): Promise<ReceivedWebhookEvent[]>;
  /** These events are on the log now. */
  markLogged(eventIds: readonly string[]): Promise<void>;
}

export interface PaymentsPorts {
  read: PaymentsReadModels;
  /** Where the webhook intake records each verified event before answering. */
  inbox: WebhookInbox;
  /** Absent: payments are off on this instance (every route answers `payments.disabled`). */
  processor?: PaymentProcessor | undefined;
  /** PAYMENTS_PAYOUT_CONFIRM_ABOVE: payouts above this (minor units, any currency) wait for an operator. */
  payoutConfirmAbove: number;
  /** The global instance's base URL, as a sovereign reaches it; null on the global instance itself. */
  globalBaseUrl: string | null;
  /** Absent where this process makes no outbound calls. */
  platform?: PaymentPlatformClient | undefined;
  settlements?: SettlementClient | undefined;
  /**
   * Test-only failpoints (TRIBUTARY_FAILPOINTS, NODE_ENV=test): called at named points, e.g. right after a
   * processor call and before its record, where a test kills the process.
   */
  failpoint?: ((name: string) => void) | undefined;
  /** Told when a webhook event was recorded, so the worker runs at once rather than at its next tick. */
  wake?: (() => void) | undefined;
}

/** Payments (docs/payments.md); composed only where the area is (else its operations answer `payments.disabled`). */
export interface PaymentsServices {
  payments: PaymentsPorts;
}
