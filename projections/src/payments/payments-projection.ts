// The payments read models (docs/payments.md#records), folded inline from the payment.* events: what a
// route or the worker reads right after the append that wrote it.
import type { EventData } from '@tributary/domain';
import {
  runStatements,
  type Projection,
  type ProjectedEvent,
  type SqlStatement,
} from '../shared/projection.js';

function statementsOf(e: ProjectedEvent): SqlStatement[] {
  const at = e.occurredAt;
  switch (e.type) {
    case 'payment.obligation_recorded': {
      const d = e.data as EventData<'payment.obligation_recorded'>;
      return [
        {
          text: `INSERT INTO rm_payment_obligations (obligation_id, key, seller_agent_id, amount, currency, description, recorded_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (obligation_id) DO NOTHING`,
          values: [
            d.obligationId,
            d.key ?? null,
            d.sellerAgentId,
            d.amount,
            d.currency,
            d.description,
            d.recordedAt,
          ],
        },
      ];
    }
    case 'payment.obligation_checkout_opened': {
      const d = e.data as EventData<'payment.obligation_checkout_opened'>;
      return [
        {
          text: 'UPDATE rm_payment_obligations SET session_id = $2, checkout_url = $3 WHERE obligation_id = $1',
          values: [d.obligationId, d.sessionId, d.url],
        },
      ];
    }
    case 'payment.obligation_settled': {
      const d = e.data as EventData<'payment.obligation_settled'>;
      return [
        {
          text: 'UPDATE rm_payment_obligations SET receipt_id = $2, settled_at = $3, session_id = COALESCE(session_id, $4) WHERE obligation_id = $1',
          values: [d.obligationId, d.receiptId, d.settledAt, d.sessionId],
        },
      ];
    }
    case 'payment.checkout_session_created': {
      const d = e.data as EventData<'payment.checkout_session_created'>;
      return [
        {
          text: `INSERT INTO rm_payment_checkouts (requester_instance_id, obligation_id, seller_instance_id, seller_agent_id,
                   connected_account_id, amount, currency, session_id, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
          values: [
            d.requesterInstanceId,
            d.obligationId,
            d.seller.instanceId,
            d.seller.agentId,
            d.connectedAccountId,
            d.amount,
            d.currency,
            d.sessionId,
            d.createdAt,
          ],
        },
      ];
    }
    case 'payment.checkout_completed': {
      const d = e.data as EventData<'payment.checkout_completed'>;
      return [
        {
          text: 'UPDATE rm_payment_checkouts SET receipt_id = $3, completed_at = $4 WHERE requester_instance_id = $1 AND obligation_id = $2',
          values: [d.requesterInstanceId, d.obligationId, d.receiptId, at],
        },
      ];
    }
    case 'payment.settlement_delivered': {
      const d = e.data as EventData<'payment.settlement_delivered'>;
      return [
        {
          text: 'UPDATE rm_payment_checkouts SET delivered = true WHERE requester_instance_id = $1 AND obligation_id = $2',
          values: [d.requesterInstanceId, d.obligationId],
        },
      ];
    }
    case 'payment.receipt_settled': {
      const d = e.data as EventData<'payment.receipt_settled'>;
      return [
        {
          text: `INSERT INTO rm_payment_receipts (receipt_id, requester_instance_id, obligation_id, seller_instance_id,
                   seller_agent_id, connected_account_id, session_id, payment_intent_id, amount, currency, settled_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
          values: [
            d.receiptId,
            d.requesterInstanceId,
            d.obligationId,
            d.seller.instanceId,
            d.seller.agentId,
            d.connectedAccountId,
            d.sessionId,
            d.paymentIntentId,
            d.amount,
            d.currency,
            d.settledAt,
          ],
        },
      ];
    }
    case 'payment.refund_requested': {
      const d = e.data as EventData<'payment.refund_requested'>;
      return [
        {
          text: `INSERT INTO rm_payment_refunds (receipt_id, idempotency_key, amount, currency, status, requested_at, updated_at)
                 VALUES ($1, $2, $3, $4, 'requested', $5, $5) ON CONFLICT DO NOTHING`,
          values: [d.receiptId, d.idempotencyKey, d.amount, d.currency, d.requestedAt],
        },
      ];
    }
    case 'payment.refund_created': {
      const d = e.data as EventData<'payment.refund_created'>;
      return [
        {
          text: 'UPDATE rm_payment_refunds SET refund_id = $3, status = $4, updated_at = $5 WHERE receipt_id = $1 AND idempotency_key = $2',
          values: [d.receiptId, d.idempotencyKey, d.refundId, d.status, d.createdAt],
        },
      ];
    }
    case 'payment.refund_settled': {
      const d = e.data as EventData<'payment.refund_settled'>;
      return [
        {
          text: `UPDATE rm_payment_refunds SET status = $4, refund_id = COALESCE($3, refund_id), updated_at = $5
                 WHERE receipt_id = $1 AND (idempotency_key = $2 OR refund_id = $3)`,
          values: [d.receiptId, d.idempotencyKey, d.refundId, d.status, d.settledAt],
        },
      ];
    }
    case 'payment.payout_requested': {
      const d = e.data as EventData<'payment.payout_requested'>;
      return [
        {
          text: `INSERT INTO rm_payment_payouts (requester_instance_id, idempotency_key, payee_instance_id, payee_agent_id,
                   amount, currency, reference, status, requested_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT DO NOTHING`,
          values: [
            d.requesterInstanceId,
            d.idempotencyKey,
            d.payee.instanceId,
            d.payee.agentId,
            d.amount,
            d.currency,
            d.reference,
            d.needsConfirmation ? 'awaiting_confirmation' : 'pending',
            d.requestedAt,
          ],
        },
      ];
    }
    case 'payment.payout_confirmed': {
      const d = e.data as EventData<'payment.payout_confirmed'>;
      return [
        {
          text: `UPDATE rm_payment_payouts SET status = 'pending', updated_at = $3 WHERE requester_instance_id = $1 AND idempotency_key = $2`,
          values: [d.requesterInstanceId, d.idempotencyKey, d.confirmedAt],
        },
      ];
    }
    case 'payment.transfer_created': {
      const d = e.data as EventData<'payment.transfer_created'>;
      return [
        {
          text: `UPDATE rm_payment_payouts SET status = 'paid', transfer_id = $3, updated_at = $4 WHERE requester_instance_id = $1 AND idempotency_key = $2`,
          values: [d.requesterInstanceId, d.idempotencyKey, d.transferId, d.createdAt],
        },
      ];
    }
    case 'payment.payout_failed': {
      const d = e.data as EventData<'payment.payout_failed'>;
      return [
        {
          text: 'UPDATE rm_payment_payouts SET status = $3, updated_at = $4 WHERE requester_instance_id = $1 AND idempotency_key = $2',
          values: [d.requesterInstanceId, d.idempotencyKey, d.reason, d.failedAt],
        },
      ];
    }
    case 'payment.connected_account_created': {
      const d = e.data as EventData<'payment.connected_account_created'>;
      return [
        {
          text: `INSERT INTO rm_payment_accounts (instance_id, agent_id, account_id, country, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT DO NOTHING`,
          values: [d.party.instanceId, d.party.agentId, d.accountId, d.country, d.createdAt],
        },
      ];
    }
    case 'payment.connected_account_updated': {
      const d = e.data as EventData<'payment.connected_account_updated'>;
      return [
        {
          text: `UPDATE rm_payment_accounts SET details_submitted = $3, charges_enabled = $4, payouts_enabled = $5, updated_at = $6
                 WHERE instance_id = $1 AND agent_id = $2`,
          values: [
            d.party.instanceId,
            d.party.agentId,
            d.detailsSubmitted,
            d.chargesEnabled,
            d.payoutsEnabled,
            d.updatedAt,
          ],
        },
      ];
    }
    case 'payment.webhook_event_received': {
      const d = e.data as EventData<'payment.webhook_event_received'>;
      return [
        {
          text: `INSERT INTO rm_payment_webhook_events (event_id, event_type, received_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          values: [d.eventId, d.eventType, d.receivedAt],
        },
      ];
    }
    case 'payment.webhook_event_processed': {
      const d = e.data as EventData<'payment.webhook_event_processed'>;
      return [
        {
          text: 'UPDATE rm_payment_webhook_events SET processed_at = $2, outcome = $3 WHERE event_id = $1',
          values: [d.eventId, d.processedAt, d.outcome],
        },
      ];
    }
    default:
      // payment.dispute_updated and payment.payout_updated are on the log only.
      return [];
  }
}

export const paymentsProjection: Projection = {
  name: 'payments',
  mode: 'inline',
  tables: [
    'rm_payment_obligations',
    'rm_payment_checkouts',
    'rm_payment_receipts',
    'rm_payment_refunds',
    'rm_payment_payouts',
    'rm_payment_accounts',
    'rm_payment_webhook_events',
  ],
  handles: [
    'payment.obligation_recorded',
    'payment.obligation_checkout_opened',
    'payment.obligation_settled',
    'payment.checkout_session_created',
    'payment.checkout_completed',
    'payment.settlement_delivered',
    'payment.receipt_settled',
    'payment.refund_requested',
    'payment.refund_created',
    'payment.refund_settled',
    'payment.payout_requested',
    'payment.payout_confirmed',
    'payment.transfer_created',
    'payment.payout_failed',
    'payment.connected_account_created',
    'payment.connected_account_updated',
    'payment.webhook_event_received',
    'payment.webhook_event_processed',
  ],
  statements: (e) => (e.imported ? [] : statementsOf(e)),
  async apply(db, e) {
    await runStatements(db, paymentsProjection.statements!(e)!);
  },
};
