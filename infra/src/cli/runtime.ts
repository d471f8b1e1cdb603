// What the commands run on, loaded only when a command runs: `--version`, `--help` and a usage error
// answer without loading the instance's modules (docs/cli.md#speed).
export {
  composedFor,
  execute,
  federationSurfaceComposed,
  getOperation,
  instanceKeys,
  recoverOwnEvents,
} from '@tributary/services';
export { allProjections } from '@tributary/projections';
export { DomainError, isDomainError, MIN_KEY_OVERLAP_SECONDS } from '@tributary/domain';
export { databaseIsEmpty, restoreBackup, writeBackup } from '../backup/backup.js';
export { recordRecovery } from '../backup/restore-recovery.js';
export { loadConfig, PROCESS_ROLES, type Config, type ProcessRole } from '../config/config.js';
export { composeInstance, type Instance } from '../compose.js';
export { serve, work } from '../serve.js';
export { createLogger, logFormatFor } from '../logger.js';
export { rebuildProjections } from '../log/rebuild-projections.js';
export { verifyLog } from '../log/verify-log.js';
export { recordLogVerifyRun } from '../log/log-verify-runs.js';
export { fetchPeerManifest } from '../federation/fetch-peer-manifest.js';
export { outboundFromConfig } from '../outbound-from-config.js';
export { migrate } from '../postgres/migrate.js';
export { openDatabase } from '../postgres/open-database.js';
export { progressBar } from './progress.js';
export { assertPortFree, holdPort, loopbackOf } from './port-check.js';
export { guardProcess } from '../runtime/process-guard.js';
