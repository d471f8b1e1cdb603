// `tributary migrate`: apply the database migrations.
import type { Command } from 'commander';
import { rt, quietConfig } from '../command-kit.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(async () => {
      const config = quietConfig();
      const db = await rt.openDatabase(config, rt.createLogger('warn'), {
        attachToRunning: true,
        maintenance: true,
      });
      try {
        const { applied } = await rt.migrate(db.pool);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'migrations: up to date');
      } finally {
        await db.close();
      }
    });
}
