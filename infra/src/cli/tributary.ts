// The `tributary` command: start the instance, and the operator's tools around the log.
import { execute, getOperation } from '@tributary/services';
import { allProjections } from '@tributary/projections';
import { isDomainError } from '@tributary/domain';
import { Command } from 'commander';
import { loadConfig, type Config } from '../config/config.js';
import { composeInstance, serve, type Instance } from '../compose.js';
import { createLogger } from '../logger.js';
import { rebuildProjections } from '../log/rebuild-projections.js';
import { verifyLog } from '../log/verify-log.js';
import { migrate } from '../postgres/migrate.js';
import { openDatabase } from '../postgres/open-database.js';
import { progressBar } from './progress.js';
import { assertPortFree } from './port-check.js';

const program = new Command()
  .name('tributary')
  .description('A federated instance server: one append-only log of signed events.')
  .showHelpAfterError();

/** Operator commands log only warnings, so their own output stays readable. */
const quietConfig = (): Config => ({ ...loadConfig(), LOG_LEVEL: 'warn' });

async function withInstance<T>(run: (i: Instance) => Promise<T>): Promise<T> {
  const instance = await composeInstance(quietConfig(), { attachToRunning: true });
  try {
    return await run(instance);
  } finally {
    await instance.close();
  }
}

program
  .command('start')
  .description('run the instance: HTTP on PORT, embedded Postgres when DATABASE_URL is unset')
  .action(async () => {
    const config = loadConfig();
    // Fail fast, before Postgres starts, when the port is taken.
    await assertPortFree(config.PORT, config.HOST);
    const logger = createLogger(config.LOG_LEVEL);
    const instance = await composeInstance(config, { logger });
    const running = await serve(instance);
    logger.info(
      { url: config.BASE_URL, listening: running.url, instanceId: instance.instanceId },
      'tributary is ready',
    );
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down');
      running
        .stop()
        .then(() => process.exit(0))
        .catch((err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        });
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });

program
  .command('migrate')
  .description('apply database migrations and exit')
  .action(async () => {
    const config = quietConfig();
    const db = await openDatabase(config, createLogger('warn'), { attachToRunning: true });
    try {
      const { applied } = await migrate(db.pool);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'migrations: up to date');
    } finally {
      await db.close();
    }
  });

const log = program.command('log').description('the signed event log');
log
  .command('verify')
  .description("replay the whole log, re-verify every signature and every stream's version chain")
  .action(async () => {
    const config = quietConfig();
    const db = await openDatabase(config, createLogger('warn'), { attachToRunning: true });
    try {
      const bar = progressBar('verifying');
      const report = await verifyLog(db.pool, bar.update);
      bar.stop();
      const byOrigin = Object.entries(report.origins)
        .map(([o, n]) => `${o}: ${n}`)
        .join(', ');
      console.log(
        `events verified: ${report.events}; streams: ${report.streams}${byOrigin ? `; by origin: ${byOrigin}` : ''}`,
      );
      if (!report.ok) {
        const b = report.firstBad!;
        console.error(
          `log verify FAILED at position ${b.position}${b.id ? ` (event ${b.id}` : ''}${b.stream ? `${b.id ? ', ' : ' ('}stream ${b.stream})` : b.id ? ')' : ''}: ${b.code}: ${b.reason}`,
        );
        process.exitCode = 1;
      } else console.log('log verify: OK');
    } finally {
      await db.close();
    }
  });

const projections = program.command('projections').description('read models folded from the log');
projections
  .command('list')
  .description('list the projections')
  .action(() => {
    for (const p of allProjections) console.log(`${p.name}\t${p.mode}\t${p.tables.join(',')}`);
  });
projections
  .command('rebuild [name]')
  .description('rebuild one projection (or all) from the log')
  .action(async (name?: string) => {
    const chosen = name ? allProjections.filter((p) => p.name === name) : allProjections;
    if (name && chosen.length === 0) {
      console.error(`unknown projection ${name}; known: ${allProjections.map((p) => p.name).join(', ')}`);
      process.exitCode = 2;
      return;
    }
    const config = quietConfig();
    const db = await openDatabase(config, createLogger('warn'), { attachToRunning: true });
    try {
      await migrate(db.pool);
      let bar: ReturnType<typeof progressBar> | null = null;
      let current = '';
      const counts = await rebuildProjections(db.pool, chosen, (p, done, total) => {
        if (p !== current) {
          bar?.stop();
          bar = progressBar(`rebuilding ${p}`);
          current = p;
        }
        bar!.update(done, total);
      });
      (bar as ReturnType<typeof progressBar> | null)?.stop();
      for (const [p, n] of Object.entries(counts)) console.log(`${p}: rebuilt from ${n} events`);
    } finally {
      await db.close();
    }
  });

const admin = program.command('admin').description("the instance's operators (controllers)");
const runAdmin = (opName: string, input: Record<string, string>) =>
  withInstance(async (instance) => {
    const op = getOperation(opName)!;
    const { result } = await execute(instance.services, op, input, { kind: 'system', agentId: '' }, 'cli');
    console.log(JSON.stringify(result));
  });
admin
  .command('grant <account>')
  .description('make an account (id, email or handle) an operator of this instance')
  .action((account: string) => runAdmin('svc.admin.grant_controller', { account }));
admin
  .command('move <from> <to>')
  .description('hand the operator role from one account to another')
  .action((from: string, to: string) => runAdmin('svc.admin.move_controller', { from, to }));
admin
  .command('list')
  .description('list the operators')
  .action(() =>
    withInstance(async (instance) => {
      const info = await instance.services.read.instance();
      for (const accountId of info?.controllers ?? []) {
        const a = await instance.services.read.accountById(accountId);
        console.log(`${accountId}\t${a?.email ?? ''}\t${a?.handle ?? ''}`);
      }
    }),
  );

program.parseAsync(process.argv).catch((e: unknown) => {
  const msg = isDomainError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
  console.error(`tributary: ${msg}`);
  process.exit(1);
});
