// `tributary backup`, `restore` and `recover` (docs/operations.md#backup-and-restore).
import type { Command } from 'commander';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { rt, UsageError, quietConfig, withInstance, keyDirOf, passphraseFrom } from '../command-kit.js';

export function registerBackup(program: Command): void {
  program
    .command('backup <file>')
    .description(
      'write one consistent snapshot of the database and the key folder to a new file, encrypted with --passphrase-file (or --unencrypted)',
    )
    .option(
      '--passphrase-file <file>',
      'encrypt with the passphrase on the first line of this file (scrypt + AES-256-GCM)',
    )
    .option('--unencrypted', 'write the backup, private keys included, in clear')
    .action(async (file: string, o: { passphraseFile?: string; unencrypted?: boolean }) => {
      // The file holds the instance's private keys: in clear only when the operator says so.
      if (o.unencrypted && o.passphraseFile !== undefined)
        throw new UsageError('give --passphrase-file or --unencrypted, not both');
      if (!o.unencrypted && o.passphraseFile === undefined)
        throw new UsageError(
          "the backup holds the instance's private keys: give --passphrase-file <file> to encrypt it, or --unencrypted to write them in clear",
          'backup.encryption_required',
        );
      const passphrase = passphraseFrom(o.passphraseFile);
      if (existsSync(file))
        throw new rt.DomainError(
          'backup.file_exists',
          'conflict',
          `${file} exists; a backup is written to a new file only`,
        );
      if (o.unencrypted)
        console.error(
          `tributary: warning: ${file} is not encrypted and holds the instance's private keys; keep it as secret as the keys`,
        );
      const config = quietConfig();
      const db = await rt.openDatabase(config, rt.createLogger('warn'), {
        attachToRunning: true,
        maintenance: true,
      });
      try {
        const r = await rt.writeBackup(db.pool, {
          file,
          keyDir: keyDirOf(config),
          blobDir: join(config.TRIBUTARY_DATA_DIR, 'blobs'),
          passphrase,
        });
        console.log(
          `backup written: ${file} (${r.tables} tables, ${r.rows} rows, feed head ${r.feedHead}, ${r.blobs} blobs of ${r.blobBytes} bytes${r.encrypted ? ', encrypted' : ''})`,
        );
        if (config.INSTANCE_KEY_FILE?.startsWith('-----BEGIN'))
          console.log(
            'the key in INSTANCE_KEY_FILE itself is not in the backup: keep it in your secret store',
          );
      } finally {
        await db.close();
      }
    });

  program
    .command('restore <file>')
    .description('load a backup into an empty database and a data folder without keys')
    .option(
      '--passphrase-file <file>',
      'the passphrase of an encrypted backup, on the first line of this file',
    )
    .action(async (file: string, o: { passphraseFile?: string }) => {
      const passphrase = passphraseFrom(o.passphraseFile);
      const config = quietConfig();
      const keyDir = keyDirOf(config);
      const held = existsSync(keyDir) ? readdirSync(keyDir).filter((n) => n.endsWith('.pem')) : [];
      if (held.length > 0)
        throw new rt.DomainError(
          'backup.target_not_empty',
          'conflict',
          `${keyDir} already holds keys (${held.join(', ')}); restore into a data folder without keys`,
        );
      const db = await rt.openDatabase(config, rt.createLogger('warn'), {
        attachToRunning: true,
        maintenance: true,
      });
      try {
        if (!(await rt.databaseIsEmpty(db.pool)))
          throw new rt.DomainError(
            'backup.target_not_empty',
            'conflict',
            'the database already holds an instance; restore into an empty database',
          );
        const r = await rt.restoreBackup(db.pool, {
          file,
          keyDir,
          blobDir: join(config.TRIBUTARY_DATA_DIR, 'blobs'),
          passphrase,
          migrateTo: async (versions) => void (await rt.migrate(db.pool, versions)),
        });
        console.log(
          `restored: instance ${r.instanceId ?? '(none)'}: ${r.tables} tables, ${r.rows} rows, feed head ${r.feedHead}, ${r.keys} key files, ${r.blobs} blobs`,
        );
      } finally {
        await db.close();
      }
      await recover();
    });

  program
    .command('recover')
    .description(
      "after a restore: take back this instance's own events its peers hold and the restored log lacks",
    )
    .action(() => recover());
}

/** Takes back our own events the peers hold that the restored log lacks (docs/operations.md#backup-and-restore). */
async function recover(): Promise<void> {
  await withInstance(async (instance) => {
    const report = await rt.recoverOwnEvents(
      rt.composedFor(instance.services, rt.federationSurfaceComposed),
      {
        // The feed's next numbers start past whatever a peer already pulled, so none skips a new event.
        beforeAppend: async (pulledUpTo) => {
          await instance.pool.query(`UPDATE sequencer_state SET last_seq = GREATEST(last_seq, $1)`, [
            pulledUpTo,
          ]);
        },
      },
    );
    for (const p of report.peers)
      console.log(`peer ${p.peerId}: ${p.error ? `FAILED ${p.error}` : `${p.held} of our events held`}`);
    console.log(`recovered ${report.recovered} events; feed numbering resumes past ${report.pulledUpTo}`);
    for (const f of report.fenced)
      console.log(
        `fenced: stream ${f.stream} from version ${f.fromVersion} (an earlier lost event no peer holds)`,
      );
    const failed = report.peers.filter((p) => p.error);
    // Only a recovery that asked every peer lets the instance start (docs/operations.md#backup-and-restore).
    await rt.recordRecovery(
      instance.pool,
      failed.length > 0 ? `could not ask ${failed.map((p) => `${p.peerId} (${p.error})`).join(', ')}` : null,
    );
    if (failed.length > 0)
      throw new rt.DomainError(
        'backup.recovery_incomplete',
        'unavailable',
        `${failed.length} peer(s) could not be asked; run \`tributary recover\` once they answer, before starting the instance`,
      );
  });
}
