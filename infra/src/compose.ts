// The composition root: configuration in, a running instance out. Every port gets its adapter here.
import { assertNoRecoveryPending } from './backup/restore-recovery.js';
import {
  clientErrorHandler,
  createHttpApp,
  wowFastPathOf,
  stripeWebhookFastPathOf,
  createFormSubmissionHook,
  createSiteServer,
  followRoute,
  UNMATCHED_ROUTE,
  isMetricsPath,
  metricsEndpoint,
  mountAgentAccess,
  staticTokenFrom,
  type SiteServer,
} from '@tributary/adapters';
import { allProjections, createReadModels } from '@tributary/projections';
import {
  catalogueAreaScopes,
  supportedScopes,
  createStreamStateCache,
  initializeInstance,
  openPreview,
  type Clock,
  type Services,
} from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server as NetServer } from 'node:net';
// The inbound server (its timeouts are options of createServer); calls out go through the outbound client.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type pg from 'pg';
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
import { createPgSiteServingSource } from './builder/pg-site-serving-source.js';
import { outboundFromConfig } from './outbound-from-config.js';
import { fetchPeerManifest } from './federation/fetch-peer-manifest.js';
import { lastLogVerifyRun } from './log/log-verify-runs.js';
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
import {
  createOperatorClaim,
  isLoopbackAddress,
  type ArmableOperatorClaim,
} from './runtime/operator-claim.js';
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
      read,
      metrics: metrics.operations,
      accounts: { ...composeAccounts({ pool, config, clock }), operatorClaim },
      oauth: composeOAuth({ pool, config, clock, read, outbound }),
      tokens: composeTokens({ config, key, keyId: ring.base.keyId }),
      builder,
      spatial: composeSpatial({ pool, clock }),
      assistantChat: composeAssistantChat({ config, outbound }),
      // The account's state and models reach the status and settings routes through these hooks.
      assistant: {
        ...composeAssistant({ pool }),
        // A remote-viewer credential minted by single sign-on ends with its person's authority revocation.
        remoteViewers: withSsoRevocation(composeAssistant({ pool }).remoteViewers, pool),
        ...assistantAccountHooks(() => services),
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

export interface RunningServer {
  instance: Instance;
  server: Server;
  /** Published sites, answered before the application router (docs/builder.md#serving). */
  sites: SiteServer;
  /** The application router (Express) that answers every request the site server does not. */
  app: RequestListener;
  /** An address this process can reach the server on (loopback when it listens on every interface). */
  url: string;
  /** What it listens on, in words: `0.0.0.0:3000 (every IPv4 interface)`, `127.0.0.1:3000`. */
  bound: string;
  /** Whether only this machine can reach it. */
  loopbackOnly: boolean;
  /** The code the first account must give (listening beyond loopback, no operator yet), and its file. */
  setupCode: { code: string; file: string } | null;
  /** With METRICS_PORT: where /metrics answers (loopback when it listens on every interface). */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

/** The route label of requests the published-sites fast path answered (never their path). */
const SITE_ROUTE = 'site';
const WOW_SPATIAL_ROUTE = '/wow/spatial/:spatialId';
/** The label the app's own route gives Stripe's webhook, which its fast path answers in front of it. */
const STRIPE_WEBHOOK_ROUTE = '/api/federation/stripe/webhook';
const METRICS_ROUTE = '/metrics';

/** On shutdown, requests still in flight after this long are cut (a slow reader of a long feed page). */
const SHUTDOWN_GRACE_MS = 10_000;

const ALL_V4 = '0.0.0.0';
const ALL_V6 = new Set(['::', '[::]']);

function localAddressOf(host: string): string {
  if (host === ALL_V4) return '127.0.0.1';
  if (ALL_V6.has(host)) return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The address really bound (HOST may be a name), in words. */
function describeBinding(server: Server, host: string): string {
  const a = server.address();
  if (!a || typeof a === 'string') return String(a ?? host);
  if (a.address === ALL_V4) return `${ALL_V4}:${a.port} (every IPv4 interface)`;
  if (a.address === '::') return `[::]:${a.port} (every interface)`;
  return `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
}

function urlOf(server: Server, host: string): string {
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  return `http://${localAddressOf(host)}:${port}`;
}

/** METRICS_PORT's own listener: /metrics only, off the public port (docs/operations.md#metrics). */
async function listenForMetrics(config: Config, listener: RequestListener): Promise<Server> {
  const port = config.METRICS_PORT!;
  const host = config.METRICS_HOST ?? config.HOST;
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 10_000 }, listener);
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new Error(`METRICS_PORT ${port} is already in use; set a free port`);
    throw e;
  }
  return server;
}

export interface ServeOptions {
  /**
   * A server already listening (bound by the caller, e.g. on port 0 so the kernel picked a free port):
   * the instance takes its socket over instead of binding PORT itself, so the port is never free
   * between being chosen and being served. PORT and BASE_URL must name its port.
   */
  listening?: NetServer;
}

/** Starts the HTTP server on a composed instance (role `api` or `all`), and with `all` the sync too. */
export async function serve(instance: Instance, options: ServeOptions = {}): Promise<RunningServer> {
  const { config, logger, pool } = instance;
  if (instance.role === 'worker') throw new Error('a worker process serves no HTTP: use work()');
  const app = createHttpApp({
    services: instance.services,
    baseUrl: config.BASE_URL,
    maxBodyBytes: config.MAX_BODY_BYTES,
    operator: {
      fetchPeerManifest: (baseUrl) =>
        fetchPeerManifest(outboundFromConfig(config), baseUrl, instance.services.clock.now()),
      lastLogVerifyRun: () => lastLogVerifyRun(pool),
    },
    mount: (app, ctx) =>
      mountAgentAccess(app, ctx, {
        maxBodyBytes: config.MAX_BODY_BYTES,
        staticToken: staticTokenFrom(
          config.AIAGENT_MCP_TOKEN,
          config.AIAGENT_MCP_SCOPES ?? catalogueAreaScopes(),
        ),
        allowedOrigins: config.MCP_ALLOWED_ORIGINS,
        deviceIntervalSeconds: config.OAUTH_DEVICE_INTERVAL_SECONDS,
      }),
    logger,
    trustProxy: config.TRUST_PROXY,
    rateLimits: {
      registration: config.RATE_LIMIT_REGISTRATION,
      discovery: config.RATE_LIMIT_DISCOVERY,
      feed: config.RATE_LIMIT_FEED,
      tlsAsk: config.RATE_LIMIT_TLS_ASK,
      sso: config.RATE_LIMIT_SSO,
      webhookRefusals: config.RATE_LIMIT_WEBHOOK_REFUSALS,
    },
    sitesDomain: config.SITES_DOMAIN,
    assistantChatTimeoutMs: config.ASSISTANT_CHAT_TIMEOUT_MS,
    liveness: { problems: () => instance.healthProblems() },
    readiness: {
      async check() {
        const problems: string[] = [];
        try {
          await pool.query('SELECT 1');
          const pending = await migrationsPending(pool);
          if (pending > 0) problems.push(`${pending} migrations pending`);
        } catch (e) {
          problems.push(`database unreachable: ${(e as Error).message}`);
        }
        return problems;
      },
    },
  });
  // Published sites are a fast path in front of the application: a request for a site's host or for
  // /sites/<label>/ never reaches Express (docs/builder.md#serving).
  const sites = createSiteServer({
    sitesDomain: config.SITES_DOMAIN,
    baseUrl: config.BASE_URL,
    source: createPgSiteServingSource(pool, logger, { pollMs: config.SITES_CHANGE_POLL_SECONDS * 1000 }),
    blobs: instance.services.builder.blobs,
    cacheBytes: config.SITES_CACHE_BYTES,
    pageMaxAgeSeconds: config.SITES_PAGE_MAX_AGE_SECONDS,
    previews: (token) => openPreview(instance.services, token, instance.services.clock.now()),
    // POST /_forms/<formId> on a site: the visitor's address decided by the app's own TRUST_PROXY.
    forms: createFormSubmissionHook({
      services: instance.services,
      maxBodyBytes: config.BUILDER_FORM_MAX_BODY_BYTES,
      trustProxy: app.get('trust proxy fn') as (address: string, hop: number) => boolean,
    }),
    logger,
  });
  await sites.start();
  const { metrics } = instance;
  const scrape = metricsEndpoint({
    token: config.METRICS_TOKEN,
    trustProxy: app.get('trust proxy fn') as (address: string, hop: number) => boolean,
    proxyTrusted: config.TRUST_PROXY !== false,
    render: async () => ({ contentType: metrics.contentType, body: await metrics.render() }),
  });
  const separateMetrics = config.METRICS_PORT !== undefined;
  /** Counts the request under its route label once its answer has ended (or was cut). */
  const observe = (req: IncomingMessage, res: ServerResponse, route: () => string) => {
    const started = performance.now();
    res.once('close', () =>
      metrics.observeRequest(
        route(),
        req.method ?? 'GET',
        res.statusCode,
        (performance.now() - started) / 1000,
      ),
    );
  };
  // Cached Web of Worlds graphs are answered before Express too (docs/spatial.md#caching).
  const wowFast = wowFastPathOf(app);
  // And Stripe's webhook deliveries (docs/payments.md#exactly-once).
  const webhookFast = stripeWebhookFastPathOf(app);
  const server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // How often Node looks for requests past those limits: the cut comes at most this late.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4)),
      ),
    },
    (req, res) => {
      let route = () => SITE_ROUTE;
      observe(req, res, () => route());
      // A site's own host keeps every path, /metrics too: only the application's host answers scrapes.
      if (sites.handle(req, res)) return;
      if (!separateMetrics && isMetricsPath(req.url)) {
        route = () => METRICS_ROUTE;
        scrape(req, res);
        return;
      }
      // A cached graph answered in front of the app counts under the route that would have served it.
      route = () => WOW_SPATIAL_ROUTE;
      if (wowFast(req, res)) return;
      route = () => STRIPE_WEBHOOK_ROUTE;
      if (webhookFast(req, res)) return;
      route = followRoute(req);
      app(req, res);
    },
  );
  server.on('clientError', clientErrorHandler(logger));
  if (options.listening) server.listen(options.listening);
  else server.listen(config.PORT, config.HOST);
  try {
    await once(server, 'listening');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    await sites.close();
    if (err.code === 'EADDRINUSE')
      throw new Error(`port ${config.PORT} is already in use; set PORT to a free port`);
    if (err.code === 'EACCES') throw new Error(`no permission to listen on port ${config.PORT}`);
    throw e;
  }
  let metricsServer: Server | null = null;
  try {
    if (separateMetrics)
      metricsServer = await listenForMetrics(config, (req, res) => {
        observe(req, res, () => (isMetricsPath(req.url) ? METRICS_ROUTE : UNMATCHED_ROUTE));
        if (isMetricsPath(req.url)) scrape(req, res);
        else {
          res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
          res.end('only /metrics here\n');
        }
      });
    await instance.startSync();
    instance.startPayments();
    await instance.startDomainRecheck();
    instance.startMail();
  } catch (e) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (metricsServer) await new Promise<void>((resolve) => metricsServer!.close(() => resolve()));
    await sites.close();
    throw e;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${localAddressOf(config.HOST)}:${port}`;
  // Anyone who reaches the sign-up page first would own an instance without an operator: beyond
  // loopback, the first account must give the setup code this start prints (docs/operations.md#the-first-operator).
  let setupCode: { code: string; file: string } | null = null;
  const boundAddress = typeof address === 'object' && address ? address.address : config.HOST;
  if (!isLoopbackAddress(boundAddress) && !(await instance.services.read.instance.get())?.controllers.length)
    setupCode = instance.operatorClaim.arm();
  return {
    instance,
    server,
    sites,
    app,
    url,
    bound: describeBinding(server, config.HOST),
    loopbackOnly: isLoopbackAddress(boundAddress),
    setupCode,
    metricsUrl: metricsServer ? urlOf(metricsServer, config.METRICS_HOST ?? config.HOST) : null,
    async stop() {
      if (metricsServer) {
        const m = metricsServer;
        const closed = new Promise<void>((resolve) => m.close(() => resolve()));
        m.closeAllConnections();
        await closed;
      }
      // New connections are refused at once; requests in flight get a grace period, then are cut.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await closed;
      clearTimeout(cut);
      await sites.close();
      logger.info('http server closed');
      await instance.close();
    },
  };
}

export interface RunningWorker {
  instance: Instance;
  /** With METRICS_PORT: where /metrics answers (loopback when it listens on every interface). */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

/**
 * A worker process (`--role worker`, docs/operations.md#process-roles): the sequencer and the async
 * projections (started by composeInstance), federation sync and the custom-domain re-check. It serves
 * no public HTTP; with METRICS_PORT it answers /metrics there (its lags and queues are a worker's to show).
 */
export async function work(instance: Instance): Promise<RunningWorker> {
  const { config, metrics } = instance;
  if (instance.role !== 'worker') throw new Error(`work() runs a worker, not role ${instance.role}`);
  let metricsServer: Server | null = null;
  if (config.METRICS_PORT !== undefined) {
    const scrape = metricsEndpoint({
      token: config.METRICS_TOKEN,
      // No application here to take TRUST_PROXY's function from: the scrape is judged by its own peer.
      trustProxy: () => false,
      proxyTrusted: false,
      render: async () => ({ contentType: metrics.contentType, body: await metrics.render() }),
    });
    metricsServer = await listenForMetrics(config, (req, res) => {
      if (isMetricsPath(req.url)) scrape(req, res);
      else {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('only /metrics here\n');
      }
    });
  }
  try {
    await instance.startSync();
    instance.startPayments();
    await instance.startDomainRecheck();
    instance.startMail();
  } catch (e) {
    if (metricsServer) await new Promise<void>((resolve) => metricsServer!.close(() => resolve()));
    throw e;
  }
  return {
    instance,
    metricsUrl: metricsServer ? urlOf(metricsServer, config.METRICS_HOST ?? config.HOST) : null,
    async stop() {
      if (metricsServer) {
        const m = metricsServer;
        const closed = new Promise<void>((resolve) => m.close(() => resolve()));
        m.closeAllConnections();
        await closed;
      }
      await instance.close();
    },
  };
}
