// A person's payment records for their personal export (svc.account.export_data,
// docs/payments.md#export): for their own agent and each persona, every receipt, obligation and payout
// this instance recorded, the balance per currency and the connected account. Read models only: the
// export shows what the instance holds, never asks Stripe.
import type { PaymentsAreaServices } from './payments-operation.js';
import type { BalanceView, ConnectedAccountView, ObligationView, PayoutView, ReceiptView } from './ports.js';

/** Rows read per page while exporting. */
const EXPORT_PAGE = 1_000;

export interface AgentPaymentRecords {
  agentId: string;
  receipts: Omit<ReceiptView, 'sellerLocalAgentId'>[];
  obligations: ObligationView[];
  payouts: Omit<PayoutView, 'payeeLocalAgentId'>[];
  balances: BalanceView[];
  connectedAccount: Omit<ConnectedAccountView, 'localAgentId'> | null;
}

/** Pages a newest-first list (paged by the last item's time) to its end. */
async function all<T>(
  page: (p: { limit: number; before?: string | undefined }) => Promise<T[]>,
  at: (item: T) => string,
): Promise<T[]> {
  const out: T[] = [];
  for (let before: string | undefined; ;) {
    const rows = await page({ limit: EXPORT_PAGE, before });
    out.push(...rows);
    if (rows.length < EXPORT_PAGE) return out;
    before = at(rows[rows.length - 1]!);
  }
}

/** Null when the payments area is not composed on this instance. */
export async function paymentRecordsOf(
  services: PaymentsAreaServices,
  agentIds: readonly string[],
): Promise<AgentPaymentRecords[] | null> {
  const read = services.payments?.read;
  if (!read) return null;
  const records: AgentPaymentRecords[] = [];
  for (const agentId of agentIds) {
    const [receipts, obligations, payouts, balances, account] = await Promise.all([
      all(
        (p) => read.receiptsOfAgent(agentId, p),
        (r) => r.settledAt,
      ),
      all(
        (p) => read.obligationsOfAgent(agentId, p),
        (o) => o.recordedAt,
      ),
      all(
        (p) => read.payoutsOfAgent(agentId, p),
        (p) => p.requestedAt,
      ),
      read.balanceOfAgent(agentId),
      read.connectedAccountOfAgent(agentId),
    ]);
    records.push({
      agentId,
      receipts: receipts.map(({ sellerLocalAgentId: _l, ...r }) => r),
      obligations,
      payouts: payouts.map(({ payeeLocalAgentId: _l, ...p }) => p),
      balances,
      connectedAccount: account ? (({ localAgentId: _l, ...a }) => a)(account) : null,
    });
  }
  return records;
}
