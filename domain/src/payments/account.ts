// A party's connected account on the global instance (docs/payments.md#connected-accounts): created once
// per party (the Stripe call carries a key derived from the party, so a retry finds the same account);
// its state follows Stripe's `account.updated`.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import { invalid } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { PaymentParty } from './events.js';
import { paymentAccountStream } from './streams.js';

export interface ConnectedAccountState {
  exists: boolean;
  party: PaymentParty | null;
  accountId: string | null;
  country: string | null;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
}

const initialAccount = (): ConnectedAccountState => ({
  exists: false,
  party: null,
  accountId: null,
  country: null,
  detailsSubmitted: false,
  chargesEnabled: false,
  payoutsEnabled: false,
});

function evolveAccount(s: ConnectedAccountState, e: StoredEventLike): ConnectedAccountState {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'payment.connected_account_created':
      return {
        ...s,
        exists: true,
        party: d['party'] as PaymentParty,
        accountId: d['accountId'] as string,
        country: d['country'] as string,
      };
    case 'payment.connected_account_updated':
      return {
        ...s,
        detailsSubmitted: d['detailsSubmitted'] as boolean,
        chargesEnabled: d['chargesEnabled'] as boolean,
        payoutsEnabled: d['payoutsEnabled'] as boolean,
      };
    default:
      return s;
  }
}

export const accountStreams = streamAggregate<ConnectedAccountState>('payment-account-', {
  initial: initialAccount,
  evolve: evolveAccount,
});

const COUNTRY = /^[A-Z]{2}$/;

/** The seller's country, never defaulted: an ISO 3166-1 alpha-2 code (upper case). */
export function requireCountry(country: unknown): string {
  if (typeof country !== 'string' || !COUNTRY.test(country))
    throw invalid('payments.country_required', 'give the seller’s country (ISO 3166-1 alpha-2, e.g. DE)');
  return country;
}

export function decideCreateAccount(
  cmd: { party: PaymentParty; accountId: string; country: string; now: string },
  s: ConnectedAccountState,
): NewEvent[] {
  if (s.exists) return [];
  return [
    {
      stream: paymentAccountStream(cmd.party.instanceId, cmd.party.agentId),
      type: 'payment.connected_account_created',
      data: { party: cmd.party, accountId: cmd.accountId, country: cmd.country, createdAt: cmd.now },
    },
  ];
}

export function decideUpdateAccount(
  cmd: { detailsSubmitted: boolean; chargesEnabled: boolean; payoutsEnabled: boolean; now: string },
  s: ConnectedAccountState,
): NewEvent[] {
  if (!s.exists) return [];
  if (
    s.detailsSubmitted === cmd.detailsSubmitted &&
    s.chargesEnabled === cmd.chargesEnabled &&
    s.payoutsEnabled === cmd.payoutsEnabled
  )
    return [];
  const party = s.party as PaymentParty;
  return [
    {
      stream: paymentAccountStream(party.instanceId, party.agentId),
      type: 'payment.connected_account_updated',
      data: {
        party,
        accountId: s.accountId,
        detailsSubmitted: cmd.detailsSubmitted,
        chargesEnabled: cmd.chargesEnabled,
        payoutsEnabled: cmd.payoutsEnabled,
        updatedAt: cmd.now,
      },
    },
  ];
}

/** Stripe's payout from the account to its bank, as its webhook tells it (recorded on the account's stream). */
export function decidePayoutUpdated(
  cmd: { payoutId: string; amount: number; currency: string; status: string; now: string },
  s: ConnectedAccountState,
): NewEvent[] {
  if (!s.exists) return [];
  const party = s.party as PaymentParty;
  return [
    {
      stream: paymentAccountStream(party.instanceId, party.agentId),
      type: 'payment.payout_updated',
      data: {
        connectedAccountId: s.accountId,
        payoutId: cmd.payoutId,
        amount: cmd.amount,
        currency: cmd.currency,
        status: cmd.status,
        updatedAt: cmd.now,
      },
    },
  ];
}

/**
 * A seller must hold a connected account (`payments.no_connected_account`) that can take charges
 * (`payments.seller_not_ready`) before a checkout is opened for them.
 */
export function requireChargeableAccount(s: ConnectedAccountState): string {
  if (!s.exists || s.accountId === null)
    throw invalid('payments.no_connected_account', 'the seller has no connected account; onboard them first');
  if (!s.chargesEnabled)
    throw invalid('payments.seller_not_ready', 'the seller’s connected account cannot take charges yet');
  return s.accountId;
}
