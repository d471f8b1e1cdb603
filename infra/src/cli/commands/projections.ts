// `tributary projections`: the read models folded from the log.
import type { Command } from 'commander';
import { rt, UsageError, quietConfig, printList } from '../command-kit.js';

export function registerProjections(program: Command): void {
  const projections = program.command('projections').description('read models folded from the log');
  projections
    .command('list')
    .description('list the projections')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      printList(
        rt.allProjections.map((p) => ({ name: p.name, mode: p.mode, tables: [...p.tables] })),
        [
          ['NAME', (p) => p.name],
          ['MODE', (p) => p.mode],
          ['TABLES', (p) => p.tables.join(',')],
        ],
        o,
      ),
    );
  projections
    .command('rebuild [name]')
    .description('rebuild one projection (or all) from the log')
    .action(async (name?: string) => {
      const chosen = name ? rt.allProjections.filter((p) => p.name === name) : rt.allProjections;
      if (name && chosen.length === 0)
        throw new UsageError(
          `unknown projection ${name}; known: ${rt.allProjections.map((p) => p.name).join(', ')}`,
        );
      const config = quietConfig();
      const db = await rt.openDatabase(config, rt.createLogger('warn'), {
        attachToRunning: true,
        maintenance: true,
      });
      try {
        await rt.migrate(db.pool);
        let bar: ReturnType<typeof rt.progressBar> | null = null;
        let current = '';
        const counts = await rt.rebuildProjections(db.pool, chosen, (p, done, total) => {
          if (p !== current) {
            bar?.stop();
            bar = rt.progressBar(`rebuilding ${p}`);
            current = p;
          }
          bar!.update(done, total);
        });
        (bar as ReturnType<typeof rt.progressBar> | null)?.stop();
        for (const [p, n] of Object.entries(counts)) console.log(`${p}: rebuilt from ${n} events`);
      } finally {
        await db.close();
      }
    });
}
