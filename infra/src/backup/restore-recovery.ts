// The guard between `tributary restore` and `tributary start` (docs/operations.md#backup-and-restore):
// a restored instance must take back from its peers what it lost (`tributary recover`) before it
// writes anything, or it would re-use stream versions its peers have seen. The restore marks the
// database; only a recovery that asked every peer clears the mark; the start refuses while it is set.
import { DomainError } from '@tributary/domain';
import type pg from 'pg';

/** The table as migration 0068 makes it, for a restore of a backup taken before that migration. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS restore_recovery (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  restored_at timestamptz NOT NULL DEFAULT now(),
  backup_created_at timestamptz,
  last_attempt_at timestamptz,
  last_error text
)`;

/** In the restoring transaction: the instance needs a recovery before it may start. */
export async function markRecoveryPending(client: pg.ClientBase, backupCreatedAt: string): Promise<void> {
  await client.query(CREATE_TABLE);
  await client.query(
    `INSERT INTO restore_recovery (backup_created_at) VALUES ($1)
     ON CONFLICT (singleton) DO UPDATE SET restored_at = now(), backup_created_at = $1,
       last_attempt_at = NULL, last_error = NULL`,
    [backupCreatedAt],
  );
}

/** After a recovery: cleared when every peer was asked, otherwise the reason is kept for the next start. */
export async function recordRecovery(pool: pg.Pool, error: string | null): Promise<void> {
  if (error === null) await pool.query('DELETE FROM restore_recovery');
  else await pool.query('UPDATE restore_recovery SET last_attempt_at = now(), last_error = $1', [error]);
}

/** Throws `backup.recovery_pending` while a restore waits for its recovery. */
export async function assertNoRecoveryPending(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ restored_at: Date; last_error: string | null }>(
    'SELECT restored_at, last_error FROM restore_recovery',
  );
  const pending = rows[0];
  if (!pending) return;
  throw new DomainError(
    'backup.recovery_pending',
    'conflict',
    `this instance was restored from a backup (${pending.restored_at.toISOString()}) and has not recovered ` +
      `the events its peers hold: run \`tributary recover\` until it completes, then start` +
      (pending.last_error ? ` (the last recover: ${pending.last_error})` : ''),
  );
}
