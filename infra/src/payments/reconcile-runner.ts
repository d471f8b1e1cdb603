// Reconciles payments with Stripe on a schedule (docs/payments.md#reconciliation): every
// PAYMENTS_RECONCILE_SECONDS one run compares Stripe's recent objects with our records
// (services/src/payments/reconcile.ts) and logs each difference as a warning. It only reads, so a run
// in each worker process of an instance is harmless; a tick that finds a run going joins it.
import {
  composedFor,
  paymentsComposed,
  reconcilePayments,
  type ReconcileReport,
  type Services,
} from '@tributary/services';
import type { Logger } from 'pino';

export interface ReconcileRunnerOptions {
  services: Services;
  logger: Logger;
  intervalSeconds: number;
  /** How far back each run looks (PAYMENTS_RECONCILE_HOURS). */
  sinceHours: number;
}

export interface ReconcileRunner {
  /** Runs one reconciliation now (tests). */
  runNow(): Promise<ReconcileReport>;
  /** The last finished run's report, if any. */
  last(): ReconcileReport | null;
  stop(): Promise<void>;
}

export function startReconcileRunner(o: ReconcileRunnerOptions): ReconcileRunner {
  let current: Promise<ReconcileReport> | null = null;
  let last: ReconcileReport | null = null;
  const run = (): Promise<ReconcileReport> => {
    // Without payments the pass fails as a pass does (a rejection), not as the call.
    current ??= Promise.resolve()
      .then(() => reconcilePayments(composedFor(o.services, paymentsComposed), { sinceHours: o.sinceHours }))
      .then((report) => {
        last = report;
        if (report.differences.length > 0)
          o.logger.warn(
            {
              differences: report.differences.map((d) => ({
                difference: d.difference,
                objectId: d.objectId,
                recordId: d.recordId,
              })),
              checked: report.checked,
            },
            'payments: reconciliation with Stripe found differences',
          );
        if (report.truncated.length > 0)
          o.logger.warn(
            { truncated: report.truncated },
            'payments: reconciliation window held more than one page',
          );
        return report;
      })
      .finally(() => (current = null));
    return current;
  };
  const timer = setInterval(
    () =>
      void run().catch((err: unknown) =>
        o.logger.warn({ err }, 'payments: reconciliation failed; the next run retries'),
      ),
    o.intervalSeconds * 1000,
  );
  timer.unref();
  return {
    runNow: run,
    last: () => last,
    async stop() {
      clearInterval(timer);
      while (current) await current.catch(() => undefined);
    },
  };
}
