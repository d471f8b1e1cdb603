// `tributary log`: the signed event log.
import type { Command } from 'commander';
import { rt, quietConfig } from '../command-kit.js';

export function registerLog(program: Command): void {
  const log = program.command('log').description('the signed event log');
  log
    .command('verify')
    .description("replay the whole log, re-verify every signature and every stream's version chain")
    .action(async () => {
      const config = quietConfig();
      const db = await rt.openDatabase(config, rt.createLogger('warn'), {
        attachToRunning: true,
        maintenance: true,
      });
      try {
        const bar = rt.progressBar('verifying');
        const startedAt = new Date();
        const report = await rt.verifyLog(db.pool, bar.update);
        bar.stop();
        await rt.recordLogVerifyRun(db.pool, { startedAt, finishedAt: new Date(), ...report });
        const byOrigin = Object.entries(report.origins)
          .map(([o, n]) => `${o}: ${n}`)
          .join(', ');
        console.log(
          `events verified: ${report.events}; streams: ${report.streams}${byOrigin ? `; by origin: ${byOrigin}` : ''}`,
        );
        if (report.flagged > 0)
          console.log(`flagged: ${report.flagged} events signed by a revoked key after its revocation time`);
        if (!report.ok) {
          const b = report.firstBad!;
          console.error(
            `tributary: log verify FAILED at position ${b.position}${b.id ? ` (event ${b.id}` : ''}${b.stream ? `${b.id ? ', ' : ' ('}stream ${b.stream})` : b.id ? ')' : ''}: ${b.code}: ${b.reason}`,
          );
          process.exitCode = 1;
        } else console.log('log verify: OK');
      } finally {
        await db.close();
      }
    });
}
