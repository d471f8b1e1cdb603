// The payments rules, given/when/then: money, line items, an obligation settled once for what was
// recorded, a checkout completed once with its receipt, refunds never above what is left, payouts paid
// once per key.
import {
  decideCompleteCheckout,
  decidePayoutOutcome,
  decideRecordCheckout,
  decideRecordObligation,
  decideRefundOutcome,
  decideRequestPayout,
  decideRequestRefund,
  decideSettleObligation,
  fold,
  paymentCheckoutStream,
  paymentObligationStream,
  paymentPayoutStream,
  paymentReceiptStream,
  payoutStatusOf,
  refundableRemaining,
  requireLineItems,
  requireMoney,
  type CheckoutState,
  type NewEvent,
  type ObligationState,
  type PayoutState,
  type ReceiptState,
  type RefundAuthority,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const NOW = '2026-11-27T12:00:00.000Z';
const stateOf = <S>(stream: string, events: NewEvent[]) =>
  fold<S>(
    stream,
    events.filter((e) => e.stream === stream).map((e, i) => ({ ...e, streamVersion: i + 1 })),
  );

describe('money', () => {
  test('given amounts and currencies, then only positive integers up to 99,999,999 in a listed lowercase currency pass', () => {
    assert.deepEqual(requireMoney(1, 'eur'), { amount: 1, currency: 'eur' });
    assert.deepEqual(requireMoney(99_999_999, 'jpy'), { amount: 99_999_999, currency: 'jpy' });
    for (const amount of [0, -1, 1.5, 100_000_000, Number.NaN, '100', null])
      assert.equal(
        codeOf(() => requireMoney(amount, 'eur')),
        'payments.amount_invalid',
        String(amount),
      );
    for (const currency of ['EUR', 'xyz', '', 5])
      assert.equal(
        codeOf(() => requireMoney(100, currency)),
        'payments.currency_unknown',
        String(currency),
      );
  });

  test('given line items, then the total is summed and bounded, and names and quantities are checked', () => {
    const ok = requireLineItems(
      [
        { name: 'a', amount: 250, quantity: 2 },
        { name: 'b', amount: 100, quantity: 1 },
      ],
      'eur',
    );
    assert.equal(ok.amount, 600);
    assert.equal(
      codeOf(() => requireLineItems([], 'eur')),
      'payments.line_items_invalid',
    );
    assert.equal(
      codeOf(() => requireLineItems([{ name: '', amount: 1, quantity: 1 }], 'eur')),
      'payments.line_items_invalid',
    );
    assert.equal(
      codeOf(() => requireLineItems([{ name: 'a', amount: 1, quantity: 1000 }], 'eur')),
      'payments.line_items_invalid',
    );
    assert.equal(
      codeOf(() => requireLineItems([{ name: 'a', amount: 99_999_999, quantity: 2 }], 'eur')),
      'payments.amount_invalid',
    );
  });
});

describe('an obligation on the seller’s instance', () => {
  const stream = paymentObligationStream('ob-12345678');
  const record = {
    obligationId: 'ob-12345678',
    sellerAgentId: 'seller',
    lineItems: [{ name: 'a', amount: 1000, quantity: 1 }],
    amount: 1000,
    currency: 'eur' as const,
    description: null,
    requestHash: 'h1',
    now: NOW,
  };
  const settle = {
    obligationId: 'ob-12345678',
    receiptId: 'rc-1',
    amount: 1000,
    currency: 'eur',
    sessionId: 'cs_1',
    now: NOW,
  };

  test('given nothing recorded, when a settlement comes, then payments.obligation_unknown', () => {
    assert.equal(
      codeOf(() => decideSettleObligation(settle, stateOf<ObligationState>(stream, []))),
      'payments.obligation_unknown',
    );
  });

  test('given a recorded obligation, then the same record writes nothing and another body under its id is refused', () => {
    const recorded = decideRecordObligation(record, stateOf<ObligationState>(stream, []));
    assert.equal(recorded.length, 1);
    assert.deepEqual(decideRecordObligation(record, stateOf<ObligationState>(stream, recorded)), []);
    assert.equal(
      codeOf(() =>
        decideRecordObligation({ ...record, requestHash: 'h2' }, stateOf<ObligationState>(stream, recorded)),
      ),
      'payments.idempotency_key_reused',
    );
  });

  test('given a recorded obligation, when settled twice by the same receipt, then settled once; another amount or receipt is refused', () => {
    const recorded = decideRecordObligation(record, stateOf<ObligationState>(stream, []));
    const settled = decideSettleObligation(settle, stateOf<ObligationState>(stream, recorded));
    assert.equal(settled.length, 1);
    const after = stateOf<ObligationState>(stream, [...recorded, ...settled]);
    assert.deepEqual(decideSettleObligation(settle, after), []);
    assert.equal(
      codeOf(() => decideSettleObligation({ ...settle, receiptId: 'rc-2' }, after)),
      'payments.obligation_mismatch',
    );
    assert.equal(
      codeOf(() =>
        decideSettleObligation({ ...settle, amount: 999 }, stateOf<ObligationState>(stream, recorded)),
      ),
      'payments.obligation_mismatch',
    );
  });
});

describe('a checkout, its receipt and refunds on the global instance', () => {
  const checkout = paymentCheckoutStream('inst-a', 'ob-12345678');
  const receipt = paymentReceiptStream('rc-1');
  const created = decideRecordCheckout(
    {
      requesterInstanceId: 'inst-a',
      obligationId: 'ob-12345678',
      seller: { instanceId: 'inst-a', agentId: 'seller' },
      connectedAccountId: 'acct_1',
      requestedBy: 'peer-agent',
      lineItems: [{ name: 'a', amount: 1000, quantity: 1 }],
      amount: 1000,
      currency: 'eur',
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
      requestHash: 'h1',
      sessionId: 'cs_1',
      url: 'https://checkout.example/cs_1',
      now: NOW,
    },
    stateOf<CheckoutState>(checkout, []),
  );
  const complete = {
    receiptId: 'rc-1',
    webhookEventId: 'evt_1',
    sessionId: 'cs_1',
    paymentIntentId: 'pi_1',
    now: NOW,
  };

  test('given a checkout, when completed twice, then one completion and one receipt; another session completes nothing', () => {
    const first = decideCompleteCheckout(complete, stateOf<CheckoutState>(checkout, created));
    assert.deepEqual(
      first.map((e) => [e.stream, e.type]),
      [
        [checkout, 'payment.checkout_completed'],
        [receipt, 'payment.receipt_settled'],
      ],
    );
    assert.deepEqual(
      decideCompleteCheckout(complete, stateOf<CheckoutState>(checkout, [...created, ...first])),
      [],
    );
    assert.deepEqual(
      decideCompleteCheckout(
        { ...complete, sessionId: 'cs_other' },
        stateOf<CheckoutState>(checkout, created),
      ),
      [],
    );
  });

  test('given a receipt of 1000, then refunds add up to at most 1000, a repeat is told apart, another instance finds nothing', () => {
    let log = [...created, ...decideCompleteCheckout(complete, stateOf<CheckoutState>(checkout, created))];
    const ask = (idempotencyKey: string, amount: number | null, requesterInstanceId = 'inst-a') =>
      decideRequestRefund(
        {
          receiptId: 'rc-1',
          requesterInstanceId,
          authority: { kind: 'requester', instanceId: requesterInstanceId },
          idempotencyKey,
          amount,
          reason: null,
          requestedBy: 'peer-agent',
          requestHash: `${idempotencyKey}:${amount}`,
          now: NOW,
        },
        stateOf<ReceiptState>(receipt, log),
      );
    const first = ask('key-1', 300);
    assert.equal(first.kind, 'new');
    log = [...log, ...(first.kind === 'new' ? first.events : [])];
    assert.equal(ask('key-1', 300).kind, 'repeat');
    assert.equal(
      codeOf(() => ask('key-1', 400)),
      'payments.idempotency_key_reused',
    );
    assert.equal(
      codeOf(() => ask('key-2', 701)),
      'payments.refund_exceeds_remaining',
    );
    assert.equal(
      codeOf(() => ask('key-2', 700, 'inst-b')),
      'payments.receipt_not_found',
    );
    const rest = ask('key-2', null);
    assert.equal(rest.kind === 'new' && rest.amount, 700);
    log = [...log, ...(rest.kind === 'new' ? rest.events : [])];
    assert.equal(refundableRemaining(stateOf<ReceiptState>(receipt, log)), 0);
    // Stripe refuses the second: its amount is free again.
    log = [
      ...log,
      ...decideRefundOutcome(
        { receiptId: 'rc-1', idempotencyKey: 'key-2', refundId: null, status: 'failed', now: NOW },
        stateOf<ReceiptState>(receipt, log),
      ),
    ];
    assert.equal(refundableRemaining(stateOf<ReceiptState>(receipt, log)), 700);
  });

  test('given a receipt, then only its requesting instance, its own seller or an operator may refund it; anyone else finds nothing', () => {
    const log = [...created, ...decideCompleteCheckout(complete, stateOf<CheckoutState>(checkout, created))];
    const state = stateOf<ReceiptState>(receipt, log);
    const as = (authority: RefundAuthority) =>
      decideRequestRefund(
        {
          receiptId: 'rc-1',
          requesterInstanceId: 'inst-a',
          authority,
          idempotencyKey: 'key-1',
          amount: 100,
          reason: null,
          requestedBy: 'someone',
          requestHash: 'h',
          now: NOW,
        },
        state,
      );
    assert.equal(as({ kind: 'requester', instanceId: 'inst-a' }).kind, 'new');
    assert.equal(as({ kind: 'seller', party: { instanceId: 'inst-a', agentId: 'seller' } }).kind, 'new');
    assert.equal(as({ kind: 'operator' }).kind, 'new');
    for (const authority of [
      { kind: 'requester', instanceId: 'inst-b' },
      { kind: 'seller', party: { instanceId: 'inst-a', agentId: 'another-seller' } },
      { kind: 'seller', party: { instanceId: 'inst-b', agentId: 'seller' } },
    ] as RefundAuthority[])
      assert.equal(
        codeOf(() => as(authority)),
        'payments.receipt_not_found',
        JSON.stringify(authority),
      );
    // A receipt that does not exist: nobody, not even an operator.
    assert.equal(
      codeOf(() =>
        decideRequestRefund(
          {
            receiptId: 'rc-2',
            requesterInstanceId: 'inst-a',
            authority: { kind: 'operator' },
            idempotencyKey: 'key-1',
            amount: 100,
            reason: null,
            requestedBy: 'someone',
            requestHash: 'h',
            now: NOW,
          },
          stateOf<ReceiptState>(paymentReceiptStream('rc-2'), []),
        ),
      ),
      'payments.receipt_not_found',
    );
  });
});

describe('a payout on the global instance', () => {
  const stream = paymentPayoutStream('inst-a', 'job-12345678');
  const request = {
    requesterInstanceId: 'inst-a',
    idempotencyKey: 'job-12345678',
    payee: { instanceId: 'inst-a', agentId: 'payee' },
    requestedBy: 'peer-agent',
    amount: 500,
    currency: 'eur' as const,
    reference: 'job',
    requestHash: 'h1',
    needsConfirmation: false,
    now: NOW,
  };

  test('given a request, then it is paid once; a repeat writes nothing and another body is refused', () => {
    const requested = decideRequestPayout(request, stateOf<PayoutState>(stream, []));
    assert.equal(payoutStatusOf(stateOf<PayoutState>(stream, requested)), 'pending');
    assert.deepEqual(decideRequestPayout(request, stateOf<PayoutState>(stream, requested)), []);
    assert.equal(
      codeOf(() =>
        decideRequestPayout({ ...request, requestHash: 'h2' }, stateOf<PayoutState>(stream, requested)),
      ),
      'payments.idempotency_key_reused',
    );
    const paid = decidePayoutOutcome(
      { kind: 'transferred', transferId: 'tr_1', connectedAccountId: 'acct_1', now: NOW },
      stateOf<PayoutState>(stream, requested),
    );
    const after = stateOf<PayoutState>(stream, [...requested, ...paid]);
    assert.equal(payoutStatusOf(after), 'paid');
    assert.deepEqual(
      decidePayoutOutcome(
        { kind: 'transferred', transferId: 'tr_2', connectedAccountId: 'acct_1', now: NOW },
        after,
      ),
      [],
    );
  });

  test('given a request above the threshold, then it awaits confirmation', () => {
    const requested = decideRequestPayout(
      { ...request, needsConfirmation: true },
      stateOf<PayoutState>(stream, []),
    );
    assert.equal(payoutStatusOf(stateOf<PayoutState>(stream, requested)), 'awaiting_confirmation');
  });
});
