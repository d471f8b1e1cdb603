// `tributary payments`: reconciliation with Stripe.
import type { Command } from 'commander';
import { UsageError, withInstance, runOp } from '../command-kit.js';

export function registerPayments(program: Command): void {
  const payments = program.command('payments').description('payments through Stripe (the global instance)');
  payments
    .command('reconcile')
    .description(
      "compare Stripe's recent checkout sessions, refunds and transfers with this instance's records",
    )
    .option('--since-hours <hours>', 'how far back to look (1–720)', '24')
    .option('--json', 'print JSON')
    .action((o: { sinceHours: string; json?: boolean }) =>
      withInstance(async (instance) => {
        const sinceHours = Number(o.sinceHours);
        if (!Number.isFinite(sinceHours) || sinceHours <= 0 || sinceHours > 720)
          throw new UsageError('--since-hours is a number of hours from 1 to 720');
        const r = (await runOp(instance, 'svc.payments.reconcile', { sinceHours })) as {
          since: string;
          checked: { checkoutSessions: number; refunds: number; transfers: number };
          truncated: string[];
          differences: { difference: string; objectId: string; recordId: string | null }[];
        };
        if (o.json) console.log(JSON.stringify(r, null, 2));
        else {
          console.log(
            `since ${r.since}: ${r.checked.checkoutSessions} checkout sessions, ${r.checked.refunds} refunds, ${r.checked.transfers} transfers checked`,
          );
          if (r.truncated.length > 0)
            console.log(`more than one page of: ${r.truncated.join(', ')} (older ones not compared)`);
          for (const d of r.differences) console.log(`${d.difference}\t${d.objectId}\t${d.recordId ?? ''}`);
          console.log(
            r.differences.length === 0 ? 'reconcile: OK' : `reconcile: ${r.differences.length} difference(s)`,
          );
        }
        // Differences found: the check failed (docs/cli.md).
        if (r.differences.length > 0) process.exitCode = 1;
      }),
    );
}
