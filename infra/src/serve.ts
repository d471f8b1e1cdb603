// Running a composed instance: serve() answers HTTP (role api or all) with the published sites, the
// cached worlds and Stripe's webhook answered in front of the application; work() runs a worker's loops.
import {
  clientErrorHandler,
  createHttpApp,
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
import { catalogueAreaScopes, openPreview } from '@tributary/services';
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
import type { Config } from './config/config.js';
import type { Instance } from './compose.js';
import { createPgSiteServingSource } from './builder/pg-site-serving-source.js';
import { outboundFromConfig } from './outbound-from-config.js';
import { fetchPeerManifest } from './federation/fetch-peer-manifest.js';
import { lastLogVerifyRun } from './log/log-verify-runs.js';
import { isLoopbackAddress } from './runtime/operator-claim.js';
import { migrationsPending } from './postgres/migrate.js';

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
  const { app, fastPaths, trustProxy } = createHttpApp({
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
      status: config.RATE_LIMIT_STATUS,
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
    source: createPgSiteServingSource(pool, logger, {
      pollMs: config.SITES_CHANGE_POLL_SECONDS * 1000,
      fullLoad: instance.readPool.caughtUp,
    }),
    blobs: instance.services.builder.blobs,
    cacheBytes: config.SITES_CACHE_BYTES,
    pageMaxAgeSeconds: config.SITES_PAGE_MAX_AGE_SECONDS,
    previews: (token) => openPreview(instance.services, token, instance.services.clock.now()),
    // POST /_forms/<formId> on a site: the visitor's address decided by the app's own TRUST_PROXY.
    forms: createFormSubmissionHook({
      services: instance.services,
      maxBodyBytes: config.BUILDER_FORM_MAX_BODY_BYTES,
      trustProxy,
    }),
    logger,
  });
  await sites.start();
  const { metrics } = instance;
  const scrape = metricsEndpoint({
    token: config.METRICS_TOKEN,
    trustProxy,
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
  // Cached Web of Worlds graphs are answered before Express too (docs/spatial.md#caching), and Stripe's
  // webhook deliveries (docs/payments.md#exactly-once).
  const { wow: wowFast, stripeWebhook: webhookFast } = fastPaths;
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
    await instance.startRunners();
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
  if (!isLoopbackAddress(boundAddress) && !(await instance.services.instance.read.get())?.controllers.length)
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
    await instance.startRunners();
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
