// `tributary status`: what runs where, without the instance's modules (docs/cli.md#status).
import type { Command } from 'commander';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(
      'what runs where: the instance, its database, mail, queues, peers and their lag, keys, and what to act on',
    )
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const { printStatus, statusReport, statusSettings } = await import('../status.js');
      const report = await statusReport(statusSettings(process.env));
      if (o.json) console.log(JSON.stringify(report, null, 2));
      else printStatus(report, (line) => console.log(line));
    });
}
