// The composition root: configuration in, a running instance out. The log's core (database, keys, store,
// sequencer, projections) is composed here; each area fills its ports and loops in compose/<area>.ts.
import { assertNoRecoveryPending } from './backup/restore-recovery.js';
import { allProjections, createReadModels } from '@tributary/projections';
import {
  supportedScopes,
  createStreamStateCache,
  initializeInstance,
  type Clock,
  type Services,
} from '@tributary/services';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { outboundFromConfig } from './outbound-from-config.js';
import type { Logger } from 'pino';
import type { Config, ProcessRole } from './config/config.js';
import { composeAreas, type AreaHandles } from './compose/areas.js';
import type { BackgroundRunner } from './compose/area.js';
import {
  passiveAsyncProjections,
  startAsyncProjections,
  type AsyncProjectionRunner,
} from './log/async-projections.js';
import { passiveSequencer, startSequencerLoop, type SequencerLoop } from './log/sequencer-loop.js';
import { appendNotifier, listenForAppends } from './log/append-notices.js';
import { createLogger, logFormatFor } from './logger.js';
import { createOperatorClaim, type ArmableOperatorClaim } from './runtime/operator-claim.js';
import { createInstanceMetrics, type InstanceMetrics } from './metrics/instance-metrics.js';
import { openDatabase, type Database } from './postgres/open-database.js';
import { migrate, migrationsPending } from './postgres/migrate.js';
import { PgEventStore } from './postgres/pg-event-store.js';
import { createReadPool, primaryOnly, type ReadPool } from './postgres/read-replicas.js';
import { nodeIds } from './runtime/node-ids.js';
import { systemClock } from './runtime/system-clock.js';
import { currentKeySign, createRingSigner, loadKeyRing, type KeyRing } from './signing/index.js';
import { adoptLogKey, createKeyState, ringRequestSigner, watchCurrentKey } from './signing/key-watch.js';

/** A composed instance: the core, and the handles the areas give on their loops (`sync`, `mail`, …). */
export type Instance = CoreInstance & AreaHandles;

export interface CoreInstance {
  config: Config;
  services: Services;
  pool: pg.Pool;
  logger: Logger;
  instanceId: string;
  /**
   * What this process runs (docs/operations.md#process-roles): `api` runs none of the background loops
   * (its sequencer and async projections are passive: a worker's do the work), `worker` and `all` run them.
   */
  role: ProcessRole;
  /** This instance's current Ed25519 public key, unpadded base64url (what peers register). */
  readonly publicKey: string;
  /** Every key of the instance this process holds; the current one signs. */
  keys: KeyRing;
  /**
   * The reads that tolerate lag: a hot standby's when DATABASE_READ_URL names one fit to serve, the
   * primary's otherwise (docs/operations.md#read-replicas).
   */
  readPool: ReadPool;
  sequencer: SequencerLoop;
  asyncProjections: AsyncProjectionRunner;
  /** The Prometheus registry and its hooks (docs/operations.md#metrics). */
  metrics: InstanceMetrics;
  /** The areas' background loops (federation sync, payments, the domain re-check, mail), in start order. */
  readonly runners: readonly BackgroundRunner[];
  /**
   * Starts the areas' loops, once (`serve` and `work` do; operator commands do not); an `api` process
   * starts none.
   */
  startRunners(): Promise<void>;
  /** The setup code the first sign-up gives when `serve` listens beyond loopback (docs/operations.md#the-first-operator). */
  operatorClaim: ArmableOperatorClaim;
  /** What keeps the process from working by itself (`/healthz` fails while there is any). */
  healthProblems(): string[];
  /** Closes the database side (pool, loops, embedded Postgres). */
  close(): Promise<void>;
}

interface ComposeOptions {
  clock?: Clock;
  logger?: Logger;
  /** For operator commands: use the embedded cluster a running instance already holds. */
  attachToRunning?: boolean;
  /** Overrides config.PROCESS_ROLE. */
  role?: ProcessRole;
  /**
   * `tributary start`: refuse (`backup.recovery_pending`) a database restored by `tributary restore`
   * whose `tributary recover` has not completed, before anything runs or writes.
   */
  refuseUnrecoveredRestore?: boolean;
}

/** Opens the database, applies migrations, loads the key and initializes the instance on first start. */
export async function composeInstance(config: Config, options: ComposeOptions = {}): Promise<Instance> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, undefined, logFormatFor(config.LOG_FORMAT));
  const clock = options.clock ?? systemClock;
  const role = options.role ?? config.PROCESS_ROLE;
  // The one-runner-at-a-time work is kept single by the database, whatever runs it: the sequencer
  // under a transaction advisory lock, each projection under its checkpoint row's lock, each sync
  // cursor under a session advisory lock (docs/operations.md#process-roles).
  const runsLoops = role !== 'api';
  const db: Database = await openDatabase(config, logger, {
    attachToRunning: options.attachToRunning ?? false,
  });
  const pool = db.pool;
  let readPool: ReadPool = primaryOnly(pool);
  try {
    const pending = await migrationsPending(pool);
    if (pending > 0) logger.info(`applying ${pending} database migrations…`);
    const { applied } = await migrate(pool, undefined, config.DATABASE_LONG_STATEMENT_TIMEOUT_MS);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    if (options.refuseUnrecoveredRestore) await assertNoRecoveryPending(pool);

    // Every key the instance has (the key file, and one file per rotation beside it); the log says which
    // one signs (docs/operations.md#rotating-the-signing-key).
    const ring = loadKeyRing({
      keyFile: config.INSTANCE_KEY_FILE,
      dataDir: config.TRIBUTARY_DATA_DIR,
      passphrase: config.INSTANCE_KEY_PASSPHRASE,
      library: config.SIGNING_LIBRARY,
    });
    if (ring.created) logger.info('created the instance signing key');
    // MCP tokens and preview links never leave this instance: they stay on the key file's own key.
    const key = ring.base.pair;

    const existing = await pool.query<{ instance_id: string }>('SELECT instance_id FROM rm_instance');
    const instanceId = existing.rows[0]?.instance_id ?? randomUUID();
    const keyState = createKeyState(pool, ring, clock);
    await adoptLogKey(keyState, ring);
    // One signing function for events, requests and documents: libsodium unless configured otherwise,
    // always with the ring's current key.
    const sign = currentKeySign(ring);
    logger.info({ signingLibrary: sign.library }, `signing with ${sign.library}`);
    const signer = createRingSigner(ring, instanceId);
    const requestSigner = ringRequestSigner(ring, keyState);

    // Split roles: an API process's appends reach the workers' sequencers as a NOTIFY, not only by
    // their timer (an `all` process pokes its own loop directly, and listens to nobody).
    const notifier = role === 'api' ? appendNotifier(pool, logger) : null;
    const sequencer = notifier ? passiveSequencer(pool, notifier.poke) : startSequencerLoop(pool, logger);
    const asyncProjections = runsLoops
      ? startAsyncProjections(pool, allProjections, logger)
      : passiveAsyncProjections(pool, allProjections);
    // Operator commands read and write the primary only; a serving process reads what tolerates lag
    // from the standbys (docs/operations.md#read-replicas).
    if (config.DATABASE_READ_URL.length > 0 && !options.attachToRunning)
      readPool = createReadPool({
        primary: pool,
        urls: config.DATABASE_READ_URL,
        maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
        checkMs: config.DATABASE_REPLICA_CHECK_MS,
        poolSize: config.DATABASE_POOL_SIZE,
        connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        logger,
      });
    const metrics = createInstanceMetrics(
      pool,
      allProjections.filter((p) => p.mode !== 'inline').map((p) => p.name),
      readPool.replicas,
    );
    const store = new PgEventStore(pool, {
      observeAppend: metrics.observeAppend,
      inlineProjections: allProjections.filter((p) => p.mode === 'inline'),
      onAppended: sequencer.poke,
      sequenceOnRead: false,
      feedReads: readPool,
    });
    const read = createReadModels(pool);
    const operatorClaim = createOperatorClaim(config.TRIBUTARY_DATA_DIR);
    // Every call out of this process goes through this one client and its address policy.
    const outbound = outboundFromConfig(config);
    let composed: Services | null = null;
    const areas = composeAreas({
      config,
      pool,
      readPool,
      logger,
      clock,
      role,
      instanceId,
      ring,
      key,
      signer,
      sign,
      requestSigner,
      store,
      read,
      outbound,
      sequencer,
      operatorClaim,
      services: () => {
        if (!composed) throw new Error('the services are read once composed');
        return composed;
      },
    });
    const services: Services = {
      ...areas.services,
      store,
      instanceKeys: {
        create: () => {
          const k = ring.create();
          return { keyId: k.keyId, publicKey: k.publicKey };
        },
      },
      streamStates: createStreamStateCache(),
      signer,
      clock,
      ids: nodeIds,
      instance: { read: read.instance },
      metrics: metrics.operations,
      config: { scopesSupported: supportedScopes(), ...areas.config },
    };
    composed = services;
    const init = await initializeInstance(
      services,
      {
        role: config.INSTANCE_ROLE,
        name: config.INSTANCE_NAME,
        baseUrl: config.BASE_URL,
        publicKey: ring.current().publicKey,
      },
      // Operator commands run whatever INSTANCE_ROLE their shell has; the role was fixed at first start.
      { checkRole: !options.attachToRunning },
    );
    if (init.created) logger.info({ instanceId, role: config.INSTANCE_ROLE }, 'instance initialized');
    // Started once nothing below can fail: the failure path closes the pool, which waits for this connection.
    const appendNotices = role === 'worker' ? listenForAppends(pool, logger, sequencer.poke) : null;
    // A rotation by another process (the CLI) reaches this one within KEY_REFRESH_MS.
    const keyWatch = options.attachToRunning ? null : watchCurrentKey(keyState, ring, logger);
    let runnersStarted = false;
    const core: CoreInstance = {
      operatorClaim,
      config,
      services,
      pool,
      readPool,
      healthProblems: () => db.healthProblems(),
      logger,
      instanceId,
      role,
      get publicKey() {
        return ring.current().publicKey;
      },
      keys: ring,
      sequencer,
      asyncProjections,
      metrics,
      runners: areas.runners,
      async startRunners() {
        if (runnersStarted || !runsLoops) return;
        runnersStarted = true;
        for (const runner of areas.runners) {
          await runner.start();
          if (runner.queueDepths) metrics.queues.set(runner.name, runner.queueDepths);
        }
      },
      async close() {
        metrics.queues.clear();
        // In the order they started (sync first, mail last); then what the areas hold open.
        for (const runner of areas.runners) await runner.stop();
        for (const close of areas.closers) await close();
        notifier?.stop();
        keyWatch?.stop();
        await appendNotices?.stop();
        await sequencer.stop();
        await asyncProjections.stop();
        logger.info('background loops stopped');
        await readPool.close();
        await db.close();
      },
    };
    // The areas' handles stay getters on the instance: they follow the loops as they start and stop.
    return Object.defineProperties(core, Object.getOwnPropertyDescriptors(areas.handles)) as Instance;
  } catch (e) {
    await readPool.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw e;
  }
}
