// Signed requests between instances for payments (docs/payments.md#exactly-once): a sovereign asks the
// global instance's payment routes; the global instance settles obligations on sellers' instances. Each
// is an RFC 9421-signed POST through the outbound client; a refusal comes back as a DomainError with the
// other instance's own code.
import type { PaymentPlatformClient, SettlementClient } from '@tributary/services';
import { createPeerClient, peerAnswerJson, type RequestSigner } from '../federation/index.js';
import type { OutboundHttp } from '../outbound/index.js';

interface ClientOptions {
  signer: RequestSigner;
  outbound: OutboundHttp;
  now?: () => Date;
}

/** The path the global instance settles an obligation at, on the seller's instance. */
export const SETTLEMENT_PATH = '/api/federation/stripe/settlement';

export function createSettlementClient(o: ClientOptions): SettlementClient {
  const { post } = createPeerClient(o);
  return {
    async settle(baseUrl, notice) {
      peerAnswerJson(await post(baseUrl, SETTLEMENT_PATH, JSON.stringify(notice)));
    },
  };
}

export function createPaymentPlatformClient(o: ClientOptions): PaymentPlatformClient {
  const { post } = createPeerClient(o);
  const call = async <T>(baseUrl: string, path: string, body: unknown): Promise<T> =>
    peerAnswerJson<{ result: T }>(await post(baseUrl, path, JSON.stringify(body))).result;
  return {
    checkout: (base, body) => call(base, '/api/federation/stripe/checkout', body),
    onboarding: (base, body) => call(base, '/api/federation/connect/onboarding', body),
    account: (base, body) => call(base, '/api/federation/connect/account', body),
    payout: (base, body) => call(base, '/api/federation/connect/payout', body),
    refund: (base, body) => call(base, '/api/federation/stripe/refund', body),
  };
}
