// The payments area's queries (services/src/ports/payments.ts `PaymentsReadModels`). A party is an
// (instance, agent) pair; the local agent it stands for is the agent itself when the instance is ours,
// else the agent materialized here for it (rm_remote_agents), when there is one.
import { iso, isoText } from '../shared/iso.js';
import type { Queryable } from '../shared/projection.js';

type Row = Record<string, unknown>;
const num = (v: unknown): number => Number(v);

/** SQL: the local agent id of the party (instance column, agent column). */
const localAgent = (inst: string, agent: string) =>
  `COALESCE(CASE WHEN ${inst} = (SELECT instance_id FROM rm_instance LIMIT 1) THEN ${agent} END,
     (SELECT local_agent_id FROM rm_remote_agents ra WHERE ra.origin = ${inst} AND ra.remote_agent_id = ${agent}))`;
/** SQL: the parties a local agent ($1) is (itself here, or the remote agents it is bound to). */
const partiesOf = (inst: string, agent: string) =>
  `((${inst} = (SELECT instance_id FROM rm_instance LIMIT 1) AND ${agent} = $1)
     OR (${inst}, ${agent}) IN (SELECT origin, remote_agent_id FROM rm_remote_agents WHERE local_agent_id = $1))`;

const RECEIPT_COLUMNS = `r.*, ${localAgent('r.seller_instance_id', 'r.seller_agent_id')} AS seller_local_agent_id,
  COALESCE((SELECT sum(f.amount) FROM rm_payment_refunds f WHERE f.receipt_id = r.receipt_id AND f.status NOT IN ('failed', 'canceled')), 0) AS refunded`;

const receiptOf = (r: Row) => ({
  receiptId: r['receipt_id'] as string,
  requesterInstanceId: r['requester_instance_id'] as string,
  obligationId: r['obligation_id'] as string,
  seller: { instanceId: r['seller_instance_id'] as string, agentId: r['seller_agent_id'] as string },
  sellerLocalAgentId: (r['seller_local_agent_id'] as string | null) ?? null,
  connectedAccountId: r['connected_account_id'] as string,
  sessionId: r['session_id'] as string,
  paymentIntentId: r['payment_intent_id'] as string,
  amount: num(r['amount']),
  currency: r['currency'] as never,
  refunded: num(r['refunded']),
  settledAt: isoText(r['settled_at']),
});

const obligationOf = (r: Row) => ({
  // The seller's own key: the id they gave it (the recorded id is derived from it and the seller).
  obligationId: ((r['key'] as string | null) ?? r['obligation_id']) as string,
  sellerAgentId: r['seller_agent_id'] as string,
  amount: num(r['amount']),
  currency: r['currency'] as never,
  description: (r['description'] as string | null) ?? null,
  sessionId: (r['session_id'] as string | null) ?? null,
  checkoutUrl: (r['checkout_url'] as string | null) ?? null,
  state: (r['receipt_id'] ? 'settled' : 'recorded') as 'settled' | 'recorded',
  receiptId: (r['receipt_id'] as string | null) ?? null,
  recordedAt: isoText(r['recorded_at']),
  settledAt: iso(r['settled_at']),
});

const PAYOUT_COLUMNS = `p.*, ${localAgent('p.payee_instance_id', 'p.payee_agent_id')} AS payee_local_agent_id`;
const payoutOf = (r: Row) => ({
  requesterInstanceId: r['requester_instance_id'] as string,
  idempotencyKey: r['idempotency_key'] as string,
  payee: { instanceId: r['payee_instance_id'] as string, agentId: r['payee_agent_id'] as string },
  payeeLocalAgentId: (r['payee_local_agent_id'] as string | null) ?? null,
  amount: num(r['amount']),
  currency: r['currency'] as never,
  reference: r['reference'] as string,
  status: r['status'] as never,
  transferId: (r['transfer_id'] as string | null) ?? null,
  requestedAt: isoText(r['requested_at']),
  updatedAt: isoText(r['updated_at']),
});

const ACCOUNT_COLUMNS = `a.*, ${localAgent('a.instance_id', 'a.agent_id')} AS local_agent_id`;
const accountOf = (r: Row) => ({
  party: { instanceId: r['instance_id'] as string, agentId: r['agent_id'] as string },
  localAgentId: (r['local_agent_id'] as string | null) ?? null,
  accountId: r['account_id'] as string,
  country: r['country'] as string,
  detailsSubmitted: r['details_submitted'] as boolean,
  chargesEnabled: r['charges_enabled'] as boolean,
  payoutsEnabled: r['payouts_enabled'] as boolean,
  createdAt: isoText(r['created_at']),
  updatedAt: isoText(r['updated_at']),
});

interface Page {
  limit: number;
  before?: string | undefined;
}

export function createPaymentsReadModels(db: Queryable) {
  const one = async <T>(sql: string, values: unknown[], map: (r: Row) => T): Promise<T | null> => {
    const { rows } = await db.query<Row>(sql, values);
    return rows[0] ? map(rows[0]) : null;
  };
  const many = async <T>(sql: string, values: unknown[], map: (r: Row) => T): Promise<T[]> =>
    (await db.query<Row>(sql, values)).rows.map(map);
  return {
    receipt: (receiptId: string) =>
      one(
        `SELECT ${RECEIPT_COLUMNS} FROM rm_payment_receipts r WHERE r.receipt_id = $1`,
        [receiptId],
        receiptOf,
      ),
    receiptByPaymentIntent: (paymentIntentId: string) =>
      one(
        `SELECT ${RECEIPT_COLUMNS} FROM rm_payment_receipts r WHERE r.payment_intent_id = $1`,
        [paymentIntentId],
        receiptOf,
      ),
    receiptsOfAgent: (agentId: string, page: Page) =>
      many(
        `SELECT ${RECEIPT_COLUMNS} FROM rm_payment_receipts r
         WHERE ${partiesOf('r.seller_instance_id', 'r.seller_agent_id')} AND ($3::timestamptz IS NULL OR r.settled_at < $3)
         ORDER BY r.settled_at DESC LIMIT $2`,
        [agentId, page.limit, page.before ?? null],
        receiptOf,
      ),
    obligation: (obligationId: string) =>
      one('SELECT * FROM rm_payment_obligations WHERE obligation_id = $1', [obligationId], obligationOf),
    obligationsOfAgent: (agentId: string, page: Page) =>
      many(
        `SELECT * FROM rm_payment_obligations WHERE seller_agent_id = $1 AND ($3::timestamptz IS NULL OR recorded_at < $3)
         ORDER BY recorded_at DESC LIMIT $2`,
        [agentId, page.limit, page.before ?? null],
        obligationOf,
      ),
    payoutsOfAgent: (agentId: string, page: Page) =>
      many(
        `SELECT ${PAYOUT_COLUMNS} FROM rm_payment_payouts p
         WHERE ${partiesOf('p.payee_instance_id', 'p.payee_agent_id')} AND ($3::timestamptz IS NULL OR p.requested_at < $3)
         ORDER BY p.requested_at DESC LIMIT $2`,
        [agentId, page.limit, page.before ?? null],
        payoutOf,
      ),
    payoutsAwaitingConfirmation: (limit: number) =>
      many(
        `SELECT ${PAYOUT_COLUMNS} FROM rm_payment_payouts p WHERE p.status = 'awaiting_confirmation' ORDER BY p.requested_at LIMIT $1`,
        [limit],
        payoutOf,
      ),
    connectedAccount: (party: { instanceId: string; agentId: string }) =>
      one(
        `SELECT ${ACCOUNT_COLUMNS} FROM rm_payment_accounts a WHERE a.instance_id = $1 AND a.agent_id = $2`,
        [party.instanceId, party.agentId],
        accountOf,
      ),
    connectedAccountById: (accountId: string) =>
      one(
        `SELECT ${ACCOUNT_COLUMNS} FROM rm_payment_accounts a WHERE a.account_id = $1`,
        [accountId],
        accountOf,
      ),
    connectedAccountOfAgent: (agentId: string) =>
      one(
        `SELECT ${ACCOUNT_COLUMNS} FROM rm_payment_accounts a WHERE ${partiesOf('a.instance_id', 'a.agent_id')} LIMIT 1`,
        [agentId],
        accountOf,
      ),
    async balanceOfAgent(agentId: string) {
      // Received: receipts of the agent as seller here, or obligations of theirs settled on their own
      // instance; refunded: refunds not failed on those receipts; paid out: transfers to them.
      const { rows } = await db.query<{
        currency: string;
        received: string;
        refunded: string;
        paid_out: string;
      }>(
        `WITH receipts AS (
           SELECT r.receipt_id, r.amount, r.currency FROM rm_payment_receipts r
           WHERE ${partiesOf('r.seller_instance_id', 'r.seller_agent_id')}),
         obligations AS (
           SELECT o.amount, o.currency FROM rm_payment_obligations o
           WHERE o.seller_agent_id = $1 AND o.receipt_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM rm_payment_receipts x WHERE x.receipt_id = o.receipt_id)),
         refunds AS (
           SELECT f.amount, f.currency FROM rm_payment_refunds f JOIN receipts r ON r.receipt_id = f.receipt_id
           WHERE f.status NOT IN ('failed', 'canceled')),
         payouts AS (
           SELECT p.amount, p.currency FROM rm_payment_payouts p
           WHERE p.status = 'paid' AND ${partiesOf('p.payee_instance_id', 'p.payee_agent_id')}),
         lines AS (
           SELECT currency, amount AS received, 0 AS refunded, 0 AS paid_out FROM receipts
           UNION ALL SELECT currency, amount, 0, 0 FROM obligations
           UNION ALL SELECT currency, 0, amount, 0 FROM refunds
           UNION ALL SELECT currency, 0, 0, amount FROM payouts)
         SELECT currency, sum(received) AS received, sum(refunded) AS refunded, sum(paid_out) AS paid_out
         FROM lines GROUP BY currency ORDER BY currency`,
        [agentId],
      );
      return rows.map((r) => ({
        currency: r.currency as never,
        received: num(r.received),
        refunded: num(r.refunded),
        paidOut: num(r.paid_out),
      }));
    },
    pendingSettlements: (limit: number) =>
      many(
        `SELECT c.*, c.receipt_id FROM rm_payment_checkouts c
         WHERE c.receipt_id IS NOT NULL AND NOT c.delivered ORDER BY c.completed_at LIMIT $1`,
        [limit],
        (r) => ({
          requesterInstanceId: r['requester_instance_id'] as string,
          obligationId: r['obligation_id'] as string,
          receiptId: r['receipt_id'] as string,
          seller: { instanceId: r['seller_instance_id'] as string, agentId: r['seller_agent_id'] as string },
          amount: num(r['amount']),
          currency: r['currency'] as never,
          sessionId: r['session_id'] as string,
        }),
      ),
  };
}
