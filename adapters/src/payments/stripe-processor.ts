// The Payments port on the official `stripe` package (docs/payments.md#configuration): every call carries
// our Idempotency-Key and a timeout, goes out through the guarded outbound client, and Stripe's errors come
// back as our codes. Webhooks are verified by the package on the raw body (tolerance 300 s).
import { domainError, invalid, isDomainError, WEBHOOK_TOLERANCE_SECONDS } from '@tributary/domain';
import type { PaymentProcessor, ProcessorEvent } from '@tributary/services';
import Stripe from 'stripe';
import type { OutboundHttp } from '../outbound/index.js';
import { OutboundStripeHttpClient } from './stripe-http-client.js';

export interface StripeProcessorOptions {
  secretKey: string;
  /**
   * The webhook endpoints' signing secrets (STRIPE_WEBHOOK_SECRET, STRIPE_CONNECT_WEBHOOK_SECRET): Stripe
   * signs the platform's and the Connect endpoint's events each with its own, so a signature valid under
   * any of them is Stripe's.
   */
  webhookSecrets: readonly string[];
  outbound: OutboundHttp;
  /** STRIPE_API_BASE: where the Stripe API is (tests: the loopback server that speaks it). */
  apiBase?: URL | undefined;
  /** Per call (PAYMENTS_STRIPE_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Stripe's refusals as our codes: invalid requests stay invalid, everything else may be retried. */
export function mapStripeError(e: unknown): Error {
  if (isDomainError(e)) return e;
  if (e instanceof Stripe.errors.StripeError) {
    const processorCode = e.code ?? e.type;
    if (e instanceof Stripe.errors.StripeIdempotencyError)
      return domainError(
        'payments.idempotency_key_reused',
        'unprocessable',
        'Stripe saw that key with another request',
        {
          processorCode,
        },
      );
    if (e instanceof Stripe.errors.StripeInvalidRequestError || e instanceof Stripe.errors.StripeCardError)
      return domainError('payments.processor_refused', 'invalid', 'Stripe refused the request', {
        processorCode,
        ...(e.param ? { param: e.param } : {}),
      });
    return domainError(
      'payments.processor_unavailable',
      'unavailable',
      'Stripe could not be reached or failed',
      {
        processorCode,
      },
    );
  }
  return domainError(
    'payments.processor_unavailable',
    'unavailable',
    'Stripe could not be reached or failed',
  );
}

async function call<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw mapStripeError(e);
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function createStripeProcessor(o: StripeProcessorOptions): PaymentProcessor {
  const base = o.apiBase;
  const stripe = new Stripe(o.secretKey, {
    httpClient: new OutboundStripeHttpClient(o.outbound),
    timeout: o.timeoutMs,
    // A retry carries the same Idempotency-Key, so it can never double an effect.
    maxNetworkRetries: 1,
    telemetry: false,
    ...(base && {
      host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: base.port || (base.protocol === 'http:' ? 80 : 443),
      protocol: base.protocol === 'http:' ? 'http' : 'https',
    }),
  });
  const opts = (idempotencyKey: string) => ({ idempotencyKey, timeout: o.timeoutMs });

  return {
    createCheckoutSession: (req, key) =>
      call(async () => {
        const s = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: req.lineItems.map((i) => ({
              quantity: i.quantity,
              price_data: { currency: req.currency, unit_amount: i.amount, product_data: { name: i.name } },
            })),
            success_url: req.successUrl,
            cancel_url: req.cancelUrl,
            client_reference_id: req.metadata['obligationId'],
            metadata: req.metadata,
            payment_intent_data: {
              transfer_data: { destination: req.connectedAccountId },
              metadata: req.metadata,
            },
          },
          opts(key),
        );
        if (!s.url)
          throw domainError('payments.processor_unavailable', 'unavailable', 'Stripe gave no checkout URL');
        return { sessionId: s.id, url: s.url };
      }),

    createConnectedAccount: (req, key) =>
      call(async () => {
        const a = await stripe.accounts.create(
          {
            type: 'express',
            country: req.country,
            metadata: req.metadata,
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          },
          opts(key),
        );
        return { accountId: a.id };
      }),

    createAccountLink: (req, key) =>
      call(async () => {
        const l = await stripe.accountLinks.create(
          {
            account: req.accountId,
            refresh_url: req.refreshUrl,
            return_url: req.returnUrl,
            type: 'account_onboarding',
          },
          opts(key),
        );
        return { url: l.url, expiresAt: l.expires_at };
      }),

    retrieveAccount: (accountId) =>
      call(async () => {
        const a = await stripe.accounts.retrieve(accountId, undefined, { timeout: o.timeoutMs });
        return {
          accountId: a.id,
          detailsSubmitted: a.details_submitted === true,
          chargesEnabled: a.charges_enabled === true,
          payoutsEnabled: a.payouts_enabled === true,
        };
      }),

    createTransfer: (req, key) =>
      call(async () => {
        const t = await stripe.transfers.create(
          {
            amount: req.amount,
            currency: req.currency,
            destination: req.destination,
            transfer_group: req.transferGroup,
            metadata: req.metadata,
          },
          opts(key),
        );
        return { transferId: t.id };
      }),

    createRefund: (req, key) =>
      call(async () => {
        const r = await stripe.refunds.create(
          { payment_intent: req.paymentIntentId, amount: req.amount, metadata: req.metadata },
          opts(key),
        );
        return { refundId: r.id, status: r.status ?? 'pending' };
      }),

    retrieveCheckoutSession: (sessionId) =>
      call(async () => {
        let s: Stripe.Checkout.Session;
        try {
          s = await stripe.checkout.sessions.retrieve(sessionId, undefined, { timeout: o.timeoutMs });
        } catch (e) {
          if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing')
            return null;
          throw e;
        }
        // At most 20 line items per checkout (domain/src/payments/limits.ts): one page holds them all.
        const items = await stripe.checkout.sessions.listLineItems(
          sessionId,
          { limit: 100 },
          { timeout: o.timeoutMs },
        );
        return {
          sessionId: s.id,
          url: s.url ?? null,
          paymentStatus: s.payment_status,
          amountTotal: s.amount_total ?? null,
          currency: s.currency ?? null,
          paymentIntentId:
            typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
          successUrl: s.success_url ?? null,
          cancelUrl: s.cancel_url ?? null,
          metadata: { ...(s.metadata ?? {}) },
          lineItems: items.data.map((i) => ({
            name: i.description ?? '',
            amount: i.price?.unit_amount ?? 0,
            quantity: i.quantity ?? 0,
          })),
        };
      }),

    retrieveRefund: (refundId) =>
      call(async () => {
        let r: Stripe.Refund;
        try {
          r = await stripe.refunds.retrieve(refundId, undefined, { timeout: o.timeoutMs });
        } catch (e) {
          if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing')
            return null;
          throw e;
        }
        return {
          refundId: r.id,
          status: r.status ?? 'pending',
          amount: r.amount,
          currency: r.currency,
          paymentIntentId:
            typeof r.payment_intent === 'string' ? r.payment_intent : (r.payment_intent?.id ?? null),
          metadata: { ...(r.metadata ?? {}) },
        };
      }),

    verifyWebhook(rawBody, header): ProcessorEvent {
      if (!header) throw invalid('payments.webhook_signature_invalid', 'no Stripe-Signature header');
      let event:
        | {
            id?: unknown;
            type?: unknown;
            created?: unknown;
            livemode?: unknown;
            account?: unknown;
            data?: { object?: unknown };
          }
        | undefined;
      for (const secret of o.webhookSecrets) {
        try {
          event = stripe.webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_SECONDS) as never;
          break;
        } catch (e) {
          // Not signed with this secret (or stale, or altered): the next secret may be the one.
          if (e instanceof Stripe.errors.StripeSignatureVerificationError) continue;
          throw invalid('payments.webhook_malformed', 'the body is not a Stripe event');
        }
      }
      if (!event) throw invalid('payments.webhook_signature_invalid', 'the Stripe-Signature does not verify');
      const object = event.data?.object;
      if (
        typeof event.id !== 'string' ||
        typeof event.type !== 'string' ||
        typeof event.created !== 'number' ||
        object === null ||
        typeof object !== 'object'
      )
        throw invalid('payments.webhook_malformed', 'the body is not a Stripe event');
      return {
        id: event.id,
        type: event.type,
        created: event.created,
        livemode: event.livemode === true,
        object: object as Record<string, unknown>,
        account: str(event.account),
      };
    },

    listRecent: (kind, since, limit) =>
      call(async () => {
        const params = { created: { gte: since }, limit };
        const page =
          kind === 'checkout_sessions'
            ? await stripe.checkout.sessions.list(params, { timeout: o.timeoutMs })
            : kind === 'refunds'
              ? await stripe.refunds.list(params, { timeout: o.timeoutMs })
              : await stripe.transfers.list(params, { timeout: o.timeoutMs });
        return page.data as unknown as Record<string, unknown>[];
      }),
  };
}
