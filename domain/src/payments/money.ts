// Amounts are integers in the currency's minor unit (cents, or yen for a zero-decimal currency) with a
// lowercase ISO 4217 code, as Stripe takes them. Pure rules: a bad amount or currency is refused with
// its own code before anything is written or sent (docs/payments.md#amounts).
import { invalid } from '../shared/errors.js';

/**
 * The currencies accepted here: those Stripe settles in for the countries the platform serves. A code
 * outside the list is `payments.currency_unknown`, never passed on.
 */
export const PAYMENT_CURRENCIES = [
  'aud',
  'bgn',
  'brl',
  'cad',
  'chf',
  'czk',
  'dkk',
  'eur',
  'gbp',
  'hkd',
  'huf',
  'inr',
  'jpy',
  'krw',
  'mxn',
  'nok',
  'nzd',
  'pln',
  'ron',
  'sek',
  'sgd',
  'usd',
] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/** Currencies whose minor unit is the unit itself (no cents). */
export const ZERO_DECIMAL_CURRENCIES: readonly PaymentCurrency[] = ['jpy', 'krw'];

/** The largest amount of one charge, refund, transfer or payout: Stripe's eight-digit ceiling. */
export const MAX_AMOUNT_MINOR = 99_999_999;

export interface Money {
  /** Integer, in the currency's minor unit, 1..MAX_AMOUNT_MINOR. */
  amount: number;
  currency: PaymentCurrency;
}

export const isPaymentCurrency = (c: unknown): c is PaymentCurrency =>
  typeof c === 'string' && (PAYMENT_CURRENCIES as readonly string[]).includes(c);

/** Throws `payments.currency_unknown` unless `currency` is one of PAYMENT_CURRENCIES (lowercase). */
export function requireCurrency(currency: unknown, field = 'currency'): PaymentCurrency {
  if (!isPaymentCurrency(currency))
    throw invalid('payments.currency_unknown', 'that currency is not one this instance takes', {
      field,
      currencies: PAYMENT_CURRENCIES,
    });
  return currency;
}

/**
 * Throws `payments.amount_invalid` unless `amount` is a positive safe integer no larger than
 * MAX_AMOUNT_MINOR (negative, zero, fractional, oversized, NaN and non-numbers are all refused).
 */
export function requireAmount(amount: unknown, field = 'amount'): number {
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0 || amount > MAX_AMOUNT_MINOR)
    throw invalid(
      'payments.amount_invalid',
      `an amount is a positive integer of minor units, at most ${MAX_AMOUNT_MINOR}`,
      { field, max: MAX_AMOUNT_MINOR },
    );
  return amount;
}

/** Both rules at once, the currency first (an amount means nothing without it). */
export function requireMoney(amount: unknown, currency: unknown, field = 'amount'): Money {
  const c = requireCurrency(currency);
  return { amount: requireAmount(amount, field), currency: c };
}
