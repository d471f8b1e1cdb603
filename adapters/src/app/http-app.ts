// The Express application: one router per surface, problem+json at every edge.
import type { Services } from '@tributary/services';
import { DomainError } from '@tributary/domain';
import express from 'express';
import type { Logger } from 'pino';
import {
  authRoutes,
  accountMailRoutes,
  CACHE_DOCUMENT,
  createPublicRateLimits,
  healthRoutes,
  jsonBodyParser,
  notFoundRouteWith,
  operationRoutes,
  problemHandlerWith,
  publicDocument,
  refuseBadBytes,
  registeredRoutes,
  requestLogging,
  requireJson,
  routeMethodAnswers,
  sameOrigin,
  type HttpContext,
  type PublicRateLimitSettings,
  type Liveness,
  type Readiness,
} from '../http/index.js';
import {
  federationRoutes,
  federationStatusRoutes,
  federationSurfaceRoutes,
  feedRoutes,
  siteAddressRegistryRoutes,
  mailRoutes,
  userSearchRoutes,
} from '../federation/index.js';
import {
  createStripeWebhookFastPath,
  paymentsRoutes,
  webhookRefusals,
  type StripeWebhookFastPath,
} from '../payments/index.js';
import { addressRoutes, builderRoutes, DRAFT_BODY_MAX_BYTES, tlsAskRoutes } from '../builder/index.js';
import {
  assistantAccountRoutes,
  assistantPlanRoutes,
  assistantSettingsRoutes,
  attachmentRoutes,
  chatRoutes,
} from '../assistant/index.js';
import { manifestRoutes } from '../manifests/index.js';
import {
  createWowBodies,
  createWowFastPath,
  presenceRoutes,
  travellerRoutes,
  wowRoutes,
  type WowFastPath,
} from '../spatial/index.js';
import {
  accessPages,
  accountMailPages,
  accountPages,
  assetRoutes,
  assistantPages,
  browserProblems,
  builderPages,
  homePages,
  landingRoutes,
  readerZone,
  operatorPages,
  operatorOutboxPages,
  operatorSettingsPages,
  operatorAccountPages,
  type OperatorPorts,
} from '../web/index.js';
import { ssoRoutes } from '../sso/index.js';
import { discoveryDocumentRoutes } from '../well-known/index.js';
import { docsPages } from './docs-pages.js';
import { openApiDocument } from './openapi.js';

interface HttpAppOptions {
  services: Services;
  baseUrl: string;
  maxBodyBytes: number;
  readiness: Readiness;
  liveness?: Liveness;
  logger: Logger;
  /** Express's `trust proxy`: which hops' `X-Forwarded-*` to believe (TRUST_PROXY). */
  trustProxy?: boolean | number | string;
  /** Per-address limits of the public surfaces; the documented defaults when unset. */
  rateLimits?: PublicRateLimitSettings;
  /** Free site addresses are `<label>.<sitesDomain>` (SITES_DOMAIN); Caddy's TLS `ask` answers for them. */
  sitesDomain?: string;
  /** ASSISTANT_CHAT_TIMEOUT_MS: one chat request as a whole (default 180 s). */
  assistantChatTimeoutMs?: number;
  /**
   * What the operator's pages need from infra (reading a peer's manifest, the log verify record); the
   * pages answer 503 without it.
   */
  operator?: OperatorPorts;
  /** Extra routers mounted by later surfaces (MCP, OAuth, federation), before the 404 handler. */
  mount?: (app: express.Express, ctx: HttpContext) => void;
}

const unavailable = async (): Promise<never> => {
  throw new DomainError('federation.unavailable', 'unavailable', 'not composed in this process');
};
const unavailableOperatorPorts: OperatorPorts = {
  fetchPeerManifest: unavailable,
  lastLogVerifyRun: unavailable,
};

/** The application, and what the server in front of it answers before it (serve() in infra). */
export interface HttpApp {
  app: express.Express;
  fastPaths: {
    /** Cached Web of Worlds graphs: true when it answered the request. */
    wow: WowFastPath;
    /** Stripe's webhook (the route's answers without Express): true when it took the request. */
    stripeWebhook: StripeWebhookFastPath;
  };
  /** TRUST_PROXY as Express applies it: whether the hop at `address` is a proxy to believe. */
  trustProxy: (address: string, hop: number) => boolean;
}

export function createHttpApp(o: HttpAppOptions): HttpApp {
  const app = express();
  const ctx: HttpContext = {
    services: o.services,
    baseUrl: o.baseUrl,
    cookie: { secure: o.baseUrl.startsWith('https:') },
    limits: createPublicRateLimits(o.rateLimits),
  };
  app.disable('x-powered-by');
  // API bodies change with every write and the feed pages are large: hashing them for ETags costs more
  // than it saves.
  app.set('etag', false);
  app.set('trust proxy', o.trustProxy ?? false);
  app.use(
    requestLogging({
      logger: o.logger,
      quiet: (req) => req.url === '/healthz' || req.url === '/readyz',
      routine: (req) => req.url?.startsWith('/assets/') ?? false,
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    // Nothing is cached unless its route says so: answers for a session must never be.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // Before any route: no path parameter or query value can then be text PostgreSQL cannot store.
  app.use(refuseBadBytes);
  // A browser landing on an error sees a page; API clients keep problem+json.
  const answer = browserProblems(ctx);
  const methods = routeMethodAnswers(() => registeredRoutes(app), answer);
  app.use(methods.options);
  app.use(healthRoutes(o.readiness, o.liveness));
  // Public reads of hosted worlds: early, so their requests skip matching against every later router.
  const wowBodies = createWowBodies(ctx);
  app.use(wowRoutes(ctx, wowBodies));
  // The server in front of the app answers a cached graph before Express (serve() in infra).
  const trustProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const fastPaths: HttpApp['fastPaths'] = {
    wow: createWowFastPath({ bodies: wowBodies, limiter: ctx.limits.feed, trustProxy }),
    // And Stripe's webhook: the route below answers the same; the server in front takes it first.
    stripeWebhook: createStripeWebhookFastPath({
      services: o.services,
      logger: o.logger,
      refusals: webhookRefusals(ctx.limits.webhookRefusals),
      trustProxy,
    }),
  };
  const openApi = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  app.options('/api/openapi.json', openApi);
  app.get('/api/openapi.json', openApi, (_req, res) => {
    res.json(openApiDocument(o.baseUrl));
  });
  // Every page's times in the reader's own zone: the account's choice, else the `tz` cookie app.js sets.
  app.use(readerZone(ctx));
  app.use(landingRoutes(ctx));
  app.use(assetRoutes());
  app.use(accountPages(ctx));
  app.use(accountMailPages(ctx));
  app.use(homePages(ctx));
  app.use(accessPages(ctx));
  app.use(builderPages(ctx, { sitesDomain: o.sitesDomain ?? 'sites.localhost' }));
  app.use(assistantPages(ctx));
  app.use(operatorPages(ctx, o.operator ?? unavailableOperatorPorts));
  app.use(operatorSettingsPages(ctx));
  app.use(operatorOutboxPages(ctx));
  app.use(operatorAccountPages(ctx));
  app.use(docsPages(ctx));

  const jsonBody = jsonBodyParser({
    limit: o.maxBodyBytes,
    type: ['application/json', 'application/*+json'],
  });
  const browserWrites = [sameOrigin(o.baseUrl), requireJson, jsonBody];
  app.use('/api/auth', ...browserWrites, authRoutes(ctx));
  app.use('/api/auth', ...browserWrites, accountMailRoutes(ctx));
  app.use('/api/ops', ...browserWrites, operationRoutes(ctx));
  app.use('/api/federation', feedRoutes(ctx));
  app.use('/api/federation', federationStatusRoutes(ctx));
  app.use('/api/federation', federationRoutes(ctx, { browserWrites, maxBodyBytes: o.maxBodyBytes }));
  app.use('/api/federation', federationSurfaceRoutes(ctx, { maxBodyBytes: o.maxBodyBytes }));
  app.use('/api/federation', siteAddressRegistryRoutes(ctx));
  app.use('/api/federation', paymentsRoutes(ctx, { browserWrites }));
  app.use('/api/federation', mailRoutes(ctx));
  app.use('/api/federation', ssoRoutes(ctx));
  app.use('/api/federation', userSearchRoutes(ctx));
  const draftBody = jsonBodyParser({
    limit: Math.max(o.maxBodyBytes, DRAFT_BODY_MAX_BYTES),
    type: ['application/json', 'application/*+json'],
  });
  app.use('/api/builder', tlsAskRoutes(ctx, { sitesDomain: o.sitesDomain ?? 'sites.localhost' }));
  app.use(
    '/api/builder',
    builderRoutes(ctx, {
      browserWrites,
      draftWrites: [sameOrigin(o.baseUrl), requireJson, draftBody],
      originCheck: sameOrigin(o.baseUrl),
    }),
  );
  app.use('/api/builder', addressRoutes(ctx, { browserWrites }));
  app.use('/api/autobot', chatRoutes(ctx, { browserWrites, timeoutMs: o.assistantChatTimeoutMs ?? 180_000 }));
  app.use('/api/autobot', assistantPlanRoutes(ctx, { browserWrites }));
  app.use('/api/autobot', assistantSettingsRoutes(ctx, { browserWrites }));
  app.use('/api/autobot', assistantAccountRoutes(ctx, { browserWrites }));
  app.use('/api/autobot', attachmentRoutes(ctx, { originCheck: sameOrigin(o.baseUrl) }));
  app.use(discoveryDocumentRoutes(ctx));
  app.use(manifestRoutes(ctx));
  app.use(travellerRoutes(ctx, { browserWrites }));
  app.use(presenceRoutes(ctx));
  o.mount?.(app, ctx);

  app.use(methods.notAllowed);
  app.use(notFoundRouteWith(answer));
  app.use(problemHandlerWith(answer));
  return { app, fastPaths, trustProxy };
}
