// The composition root: configuration in, a running instance out. Every port gets its adapter here.
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
import { composeAccounts } from './compose/compose-accounts.js';
import { composeAssistantPlans } from './compose/compose-assistant-plans.js';
import { composeAssistant } from './compose/compose-assistant.js';
import { assistantAccountHooks, composeAssistantAccount } from './compose/compose-assistant-account.js';
import { composeAssistantAttachments } from './compose/compose-assistant-attachments.js';
import { composeBuilder } from './compose/compose-builder.js';
import { composeSpatial } from './compose/compose-spatial.js';
import { composePayments } from './compose/compose-payments.js';
import { startPaymentsWorker, type PaymentsWorker } from './payments/payments-worker.js';
import { composeAssistantChat } from './compose/compose-assistant-chat.js';
import { composeFederation } from './compose/compose-federation.js';
import { composeFederationSurface } from './compose/compose-federation-surface.js';
import { composeMail } from './compose/compose-mail.js';
import { startMailRunner, type MailRunner } from './mail/mail-runner.js';
import { composeSso, withSsoRevocation } from './compose/compose-sso.js';
import { composeOAuth } from './compose/compose-oauth.js';
import { composeTokens } from './compose/compose-tokens.js';
import {
  passiveAsyncProjections,
  startAsyncProjections,
  type AsyncProjectionRunner,
} from './log/async-projections.js';
import { passiveSequencer, startSequencerLoop, type SequencerLoop } from './log/sequencer-loop.js';
import { appendNotifier, listenForAppends } from './log/append-notices.js';
import { startSyncRunner, type SyncRunner } from './federation/sync-runner.js';
import { startDomainRecheck, type DomainRecheckRunner } from './builder/domain-recheck-runner.js';
import { startReconcileRunner, type ReconcileRunner } from './payments/reconcile-runner.js';
import { createLogger, logFormatFor } from './logger.js';
import { createOperatorClaim, type ArmableOperatorClaim } from './runtime/operator-claim.js';
import { createInstanceMetrics, type InstanceMetrics } from './metrics/instance-metrics.js';
import { openDatabase, type Database } from './postgres/open-database.js';
import { migrate, migrationsPending } from './postgres/migrate.js';
import { PgEventStore } from './postgres/pg-event-store.js';
import { nodeIds } from './runtime/node-ids.js';
import { systemClock } from './runtime/system-clock.js';
import { currentKeySign, createRingSigner, loadKeyRing, type KeyRing } from './signing/index.js';
import { adoptLogKey, createKeyState, ringRequestSigner, watchCurrentKey } from './signing/key-watch.js';

export interface Instance {
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
  sequencer: SequencerLoop;
  asyncProjections: AsyncProjectionRunner;
  /** The Prometheus registry and its hooks (docs/operations.md#metrics). */
  metrics: InstanceMetrics;
  /** Background federation sync, once `serve` started it (null in operator commands, or when off). */
  sync: SyncRunner | null;
  /** Starts background sync (the server does; operator commands do not). */
  startSync(): Promise<void>;
  /** The scheduled re-check of custom domains, once `serve` started it (null otherwise, or when off). */
  domainRecheck: DomainRecheckRunner | null;
  startDomainRecheck(): Promise<void>;
  /** The payments worker (webhook consumer, settlement delivery), once started (docs/payments.md#exactly-once). */
  readonly paymentsWorker: PaymentsWorker | null;
  startPayments(): void;
  /** The scheduled payments reconciliation, where Stripe is configured and a worker runs. */
  paymentsReconcile: ReconcileRunner | null;
  /** The mail consumer (docs/mail.md#guarantees), once `serve` or `work` started it (null otherwise). */
  mail: MailRunner | null;
  startMail(): void;
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

/** Whether federation sync runs on BullMQ (else on an in-process timer). */
const syncOnRedis = (config: Config): boolean =>
  config.FEDERATION_QUEUE === 'bullmq' || (config.FEDERATION_QUEUE === 'auto' && !!config.REDIS_URL);

/** DNS lookups at once in a custom-domain re-check sweep. */
const DOMAIN_RECHECK_CONCURRENCY = 4;

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
    // Push sync wakes when local events are sequenced and when a peer speaks; the runner comes later.
    let wakeSync = () => {};
    sequencer.onSequenced(() => wakeSync());
    // A webhook event the worker put on the log is consumed once the sequencer has numbered it.
    let paymentsWorker: PaymentsWorker | null = null;
    let webhookRecorded = false;
    sequencer.onSequenced(() => {
      if (webhookRecorded && paymentsWorker) {
        webhookRecorded = false;
        paymentsWorker.wake();
      }
    });
    const asyncProjections = runsLoops
      ? startAsyncProjections(pool, allProjections, logger)
      : passiveAsyncProjections(pool, allProjections);
    const metrics = createInstanceMetrics(
      pool,
      allProjections.filter((p) => p.mode !== 'inline').map((p) => p.name),
    );
    const store = new PgEventStore(pool, {
      observeAppend: metrics.observeAppend,
      inlineProjections: allProjections.filter((p) => p.mode === 'inline'),
      onAppended: sequencer.poke,
      sequenceOnRead: false,
    });
    const read = createReadModels(pool);
    const operatorClaim = createOperatorClaim(config.TRIBUTARY_DATA_DIR);
    // Every call out of this process goes through this one client and its address policy.
    const outbound = outboundFromConfig(config);
    const builder = composeBuilder({ config, key, outbound, clock, signer: requestSigner });
    const services: Services = {
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
      accounts: { ...composeAccounts({ pool, config, clock }), operatorClaim, read: read.accounts },
      agents: { read: read.agents },
      manifests: { read: read.manifests },
      presence: { read: read.presence },
      oauth: composeOAuth({ pool, config, clock, read, outbound }),
      tokens: { ...composeTokens({ config, key, keyId: ring.base.keyId }), read: read.tokens },
      builder: { ...builder, read: read.builder },
      spatial: composeSpatial({ pool, clock }),
      assistantChat: composeAssistantChat({ config, outbound }),
      // The account's state and models reach the status and settings routes through these hooks.
      assistant: {
        ...composeAssistant({ pool }),
        // A remote-viewer credential minted by single sign-on ends with its person's authority revocation.
        remoteViewers: withSsoRevocation(composeAssistant({ pool }).remoteViewers, pool),
        ...assistantAccountHooks(() => services),
        read: {
          threads: read.assistantThreads,
          vault: read.assistantVault,
          attachments: read.assistantAttachments,
        },
      },
      sso: composeSso({ pool, config, clock, outbound, logger, signer: { keyId: signer.keyId, sign } }),
      assistantAccount: composeAssistantAccount({ pool, config, clock, outbound, logger }),
      assistantAttachments: composeAssistantAttachments({ config, blobs: builder.blobs }),
      federation: composeFederation({
        pool,
        store,
        clock,
        signer,
        requestSigner,
        ed25519Library: config.SIGNING_LIBRARY,
        outbound,
        onAppended: sequencer.poke,
        onPeerSpoke: () => wakeSync(),
      }),
      assistantPlans: composeAssistantPlans(config),
      payments: {
        ...composePayments({ pool, config, outbound, clock, signer: { keyId: signer.keyId, sign } }),
        // The intake recorded an event: the worker moves it onto the log now (then consumes it once sequenced).
        wake: () => paymentsWorker?.wake(),
      },
      federationSurface: composeFederationSurface({
        pool,
        ring,
        requestSigner,
        config,
        origin: instanceId,
        clock,
        outbound,
      }),
      mail: composeMail({ pool, config, logger }),
      config: {
        legacyUnscopedSunset: config.LEGACY_UNSCOPED_SUNSET,
        sessionTtlSeconds: config.SESSION_TTL_SECONDS,
        scopesSupported: supportedScopes(),
        oauth: {
          codeSeconds: config.OAUTH_CODE_SECONDS,
          accessTokenSeconds: config.OAUTH_ACCESS_TOKEN_SECONDS,
          refreshTokenSeconds: config.OAUTH_REFRESH_TOKEN_SECONDS,
          refreshAbsoluteSeconds: config.OAUTH_REFRESH_ABSOLUTE_SECONDS,
          deviceCodeSeconds: config.OAUTH_DEVICE_CODE_SECONDS,
        },
        travellers: {
          presentationSeconds: config.SPATIAL_PRESENTATION_SECONDS,
          presenceSeconds: config.SPATIAL_PRESENCE_SECONDS,
        },
      },
    };
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
    // An API process runs no sync, but the instance does (its workers): /api/federation/status and
    // node-status answer what they run, from the same configuration.
    if (role === 'api' && services.federation && config.FEDERATION_SYNC === 'on')
      services.federation.syncMode = syncOnRedis(config) ? 'bullmq' : 'in-process';
    const self: Instance = {
      operatorClaim,
      config,
      services,
      pool,
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
      sync: null,
      domainRecheck: null,
      paymentsReconcile: null,
      mail: null,
      startMail() {
        if (self.mail || !runsLoops) return;
        self.mail = startMailRunner({ pool, services, logger, pollMs: config.MAIL_POLL_MS });
        sequencer.onSequenced(() => self.mail?.poke());
        logger.info({ delivery: services.mail!.transport.mode }, 'mail consumer started');
      },
      async startDomainRecheck() {
        if (self.domainRecheck || !runsLoops || config.DOMAIN_RECHECK_SECONDS === 0) return;
        self.domainRecheck = await startDomainRecheck({
          services,
          logger,
          instanceId,
          intervalSeconds: config.DOMAIN_RECHECK_SECONDS,
          concurrency: DOMAIN_RECHECK_CONCURRENCY,
          redisUrl:
            config.DOMAIN_RECHECK_QUEUE === 'bullmq' ||
            (config.DOMAIN_RECHECK_QUEUE === 'auto' && !!config.REDIS_URL)
              ? config.REDIS_URL
              : undefined,
        });
        if (self.domainRecheck.queueDepths)
          metrics.queues.set('domain-recheck', self.domainRecheck.queueDepths);
        logger.info({ mode: self.domainRecheck.mode }, 'custom-domain re-check started');
      },
      get paymentsWorker() {
        return paymentsWorker;
      },
      startPayments() {
        // The scheduled reconciliation with Stripe: a worker's, where Stripe is set up.
        if (runsLoops && services.payments?.processor && config.PAYMENTS_RECONCILE_SECONDS > 0)
          self.paymentsReconcile ??= startReconcileRunner({
            services,
            logger,
            intervalSeconds: config.PAYMENTS_RECONCILE_SECONDS,
            sinceHours: config.PAYMENTS_RECONCILE_HOURS,
          });
        if (paymentsWorker || !runsLoops) return;
        paymentsWorker = startPaymentsWorker({
          pool,
          services,
          logger,
          intervalMs: config.PAYMENTS_WORKER_INTERVAL_MS,
          onLogged: () => {
            webhookRecorded = true;
          },
        });
      },
      async startSync() {
        if (self.sync || !runsLoops || config.FEDERATION_SYNC === 'off') return;
        const useRedis = syncOnRedis(config);
        const failpoints = config.NODE_ENV === 'test' ? config.TRIBUTARY_FAILPOINTS : [];
        self.sync = await startSyncRunner({
          services,
          logger,
          instanceId,
          redisUrl: useRedis ? config.REDIS_URL : undefined,
          sweepMs: config.FEDERATION_SWEEP_MS,
          concurrency: config.FEDERATION_SYNC_CONCURRENCY,
          settings: {
            retryBaseMs: config.FEDERATION_RETRY_BASE_MS,
            pullIntervalMs: config.FEDERATION_PULL_INTERVAL_SECONDS * 1000,
            // A real crash (SIGKILL, no cleanup) between delivery and the cursor's commit.
            ...(failpoints.includes('sync.push.after-delivery') && {
              afterPushDelivered: () => process.kill(process.pid, 'SIGKILL'),
            }),
          },
        });
        wakeSync = self.sync.wake;
        if (self.sync.queueDepths) metrics.queues.set('federation-sync', self.sync.queueDepths);
        if (services.federation) services.federation.syncMode = self.sync.mode;
        logger.info({ mode: self.sync.mode }, 'federation sync started');
      },
      async close() {
        wakeSync = () => {};
        metrics.queues.clear();
        await self.sync?.stop();
        self.sync = null;
        await self.domainRecheck?.stop();
        self.domainRecheck = null;
        await paymentsWorker?.stop();
        paymentsWorker = null;
        await self.paymentsReconcile?.stop();
        self.paymentsReconcile = null;
        await self.mail?.stop();
        self.mail = null;
        await services.federation?.cursors?.close?.();
        notifier?.stop();
        keyWatch?.stop();
        await appendNotices?.stop();
        await sequencer.stop();
        await asyncProjections.stop();
        logger.info('background loops stopped');
        await db.close();
      },
    };
    return self;
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
}
