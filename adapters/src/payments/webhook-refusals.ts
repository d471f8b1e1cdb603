// Stripe's webhook has no budget for Stripe's own deliveries, however many come: the signature says they
// are Stripe's, and Stripe delivers from a few addresses. What is counted, per client address, is
// deliveries refused as not Stripe's — a missing, stale or wrong signature, a signed body that is not an
// event — so a flood of junk costs a body read and an HMAC per request until the address's budget
// (RATE_LIMIT_WEBHOOK_REFUSALS) is spent, then 429 `request.rate_limited` with `Retry-After`, nothing
// read into the inbox, until it refills (docs/payments.md#exactly-once). Shared by the app's route and the
// server's fast path, so both answer alike.
import { isDomainError } from '@tributary/domain';
import type { Problem, RateLimiter } from '../http/index.js';

const REFUSED_AS_NOT_STRIPES = new Set(['payments.webhook_signature_invalid', 'payments.webhook_malformed']);

export interface WebhookRefusals {
  /** The 429 for an address whose budget of refusals is spent; null while it may deliver. */
  limited(address: string): Problem | null;
  /** Counts the error a delivery from `address` was refused with, if it says the delivery is not Stripe's. */
  count(address: string, error: unknown): void;
}

export function webhookRefusals(limiter: RateLimiter): WebhookRefusals {
  return {
    limited(address) {
      const retryAfter = limiter.peek(address);
      return retryAfter === 0
        ? null
        : {
            status: 429,
            code: 'request.rate_limited',
            title: 'Too many refused webhook deliveries from this address',
            retryAfter,
          };
    },
    count(address, error) {
      if (isDomainError(error) && REFUSED_AS_NOT_STRIPES.has(error.code)) limiter.take(address);
    },
  };
}
