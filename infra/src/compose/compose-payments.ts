// The payments ports (docs/payments.md#configuration), wired once: the Stripe processor only when both
// Stripe secrets are set (else every payment route answers payments.disabled), the read models, and the
// signed clients between instances over the one outbound client.
import {
  createPaymentPlatformClient,
  createSettlementClient,
  createStripeProcessor,
  type OutboundHttp,
} from '@tributary/adapters';
import { createPaymentsReadModels } from '@tributary/projections';
import type { Clock, PaymentsPorts } from '@tributary/services';
import type { Pool } from 'pg';
import type { Config } from '../config/config.js';
import type { Ed25519Sign } from '../signing/ed25519-signing.js';
import { createPgWebhookInbox } from '../payments/pg-webhook-inbox.js';
import { startPaymentsWorker, type PaymentsWorker } from '../payments/payments-worker.js';
import { startReconcileRunner, type ReconcileRunner } from '../payments/reconcile-runner.js';
import { defineArea, type BackgroundRunner } from './area.js';

export function composePayments(o: {
  pool: Pool;
  config: Pick<
    Config,
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'STRIPE_CONNECT_WEBHOOK_SECRET'
    | 'STRIPE_API_BASE'
    | 'PAYMENTS_PAYOUT_CONFIRM_ABOVE'
    | 'PAYMENTS_STRIPE_TIMEOUT_MS'
    | 'GLOBAL_URL'
    | 'NODE_ENV'
    | 'TRIBUTARY_FAILPOINTS'
  >;
  outbound: OutboundHttp;
  clock: Clock;
  signer: { keyId: string; sign: Ed25519Sign };
}): PaymentsPorts {
  const { config } = o;
  const requestSigner = { keyId: o.signer.keyId, sign: (data: Buffer) => o.signer.sign(data) };
  const clients = { signer: requestSigner, outbound: o.outbound, now: () => o.clock.now() };
  const failpoints = config.NODE_ENV === 'test' ? config.TRIBUTARY_FAILPOINTS : [];
  return {
    read: createPaymentsReadModels(o.pool),
    inbox: createPgWebhookInbox(o.pool),
    processor:
      config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
        ? createStripeProcessor({
            secretKey: config.STRIPE_SECRET_KEY,
            webhookSecrets: [config.STRIPE_WEBHOOK_SECRET, config.STRIPE_CONNECT_WEBHOOK_SECRET].filter(
              (x): x is string => x !== undefined,
            ),
            outbound: o.outbound,
            apiBase: config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : undefined,
            timeoutMs: config.PAYMENTS_STRIPE_TIMEOUT_MS,
          })
        : undefined,
    payoutConfirmAbove: config.PAYMENTS_PAYOUT_CONFIRM_ABOVE,
    globalBaseUrl: config.GLOBAL_URL?.replace(/\/+$/, '') ?? null,
    platform: createPaymentPlatformClient(clients),
    settlements: createSettlementClient(clients),
    // A real crash (SIGKILL, no cleanup) at a named point, for the crash tests.
    ...(failpoints.some((f) => f.startsWith('payments.')) && {
      failpoint: (name: string) => {
        if (failpoints.includes(`payments.${name}`)) process.kill(process.pid, 'SIGKILL');
      },
    }),
  };
}

/**
 * Payments: its ports, the scheduled reconciliation with Stripe (where Stripe is set up) and the worker
 * that moves webhook events onto the log and consumes them once sequenced (docs/payments.md#exactly-once).
 */
export const paymentsArea = defineArea((ctx) => {
  const { config, logger } = ctx;
  let worker: PaymentsWorker | null = null;
  let reconcile: ReconcileRunner | null = null;
  // A webhook event the worker put on the log is consumed once the sequencer has numbered it.
  let webhookRecorded = false;
  ctx.sequencer.onSequenced(() => {
    if (webhookRecorded && worker) {
      webhookRecorded = false;
      worker.wake();
    }
  });
  const payments: PaymentsPorts = {
    ...composePayments({ ...ctx, signer: { keyId: ctx.signer.keyId, sign: ctx.sign } }),
    // The intake recorded an event: the worker moves it onto the log now (then consumes it once sequenced).
    wake: () => worker?.wake(),
  };
  const reconcileRunner: BackgroundRunner = {
    name: 'payments-reconcile',
    start() {
      reconcile = startReconcileRunner({
        services: ctx.services(),
        logger,
        intervalSeconds: config.PAYMENTS_RECONCILE_SECONDS,
        sinceHours: config.PAYMENTS_RECONCILE_HOURS,
      });
    },
    async stop() {
      await reconcile?.stop();
      reconcile = null;
    },
  };
  const workerRunner: BackgroundRunner = {
    name: 'payments-worker',
    start() {
      worker = startPaymentsWorker({
        pool: ctx.pool,
        services: ctx.services(),
        logger,
        intervalMs: config.PAYMENTS_WORKER_INTERVAL_MS,
        onLogged: () => {
          webhookRecorded = true;
        },
      });
    },
    async stop() {
      await worker?.stop();
      worker = null;
    },
  };
  return {
    services: { payments },
    runners: [
      ...(payments.processor && config.PAYMENTS_RECONCILE_SECONDS > 0 ? [reconcileRunner] : []),
      workerRunner,
    ],
    handles: {
      /** The payments worker (webhook consumer, settlement delivery), once started. */
      get paymentsWorker(): PaymentsWorker | null {
        return worker;
      },
      /** The scheduled payments reconciliation, where Stripe is configured and a worker runs. */
      get paymentsReconcile(): ReconcileRunner | null {
        return reconcile;
      },
    },
  };
});
