// The Express application: one router per surface, problem+json at every edge.
import type { Services } from '@tributary/services';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { HttpContext } from './context.js';
import { openApiDocument } from './openapi.js';
import { CACHE_DOCUMENT, publicDocument } from './public-document.js';
import { createPublicRateLimits, type PublicRateLimitSettings } from './rate-limit.js';
import { requestLogging } from './request-logging.js';
import { notFoundRoute, problemHandler, routeMethodAnswers, sendProblem } from './problem.js';
import { registeredRoutes } from './routes-of.js';
import { authRoutes } from './routes/auth-routes.js';
import { discoveryDocumentRoutes } from '../well-known/discovery-document-routes.js';
import { federationRoutes } from '../federation/federation-routes.js';
import { federationSurfaceRoutes } from '../federation/federation-surface-routes.js';
import { feedRoutes } from '../federation/feed-routes.js';
import { federationStatusRoutes } from '../federation/federation-status-routes.js';
import { healthRoutes, type Readiness } from './routes/health-routes.js';
import { landingRoutes } from '../web/landing-routes.js';
import { operationRoutes } from './routes/operation-routes.js';

export interface HttpAppOptions {
  services: Services;
  baseUrl: string;
  maxBodyBytes: number;
  readiness: Readiness;
  logger: Logger;
  /** Express's `trust proxy`: which hops' `X-Forwarded-*` to believe (TRUST_PROXY). */
  trustProxy?: boolean | number | string;
  /** Per-address limits of the public surfaces; the documented defaults when unset. */
  rateLimits?: PublicRateLimitSettings;
  /** Extra routers mounted by later surfaces (MCP, OAuth, federation), before the 404 handler. */
  mount?: (app: express.Express, ctx: HttpContext) => void;
}

export function createHttpApp(o: HttpAppOptions): express.Express {
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
    requestLogging({ logger: o.logger, quiet: (req) => req.url === '/healthz' || req.url === '/readyz' }),
  );
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    // Nothing is cached unless its route says so: answers for a session must never be.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  const methods = routeMethodAnswers(() => registeredRoutes(app));
  app.use(methods.options);
  app.use(healthRoutes(o.readiness));
  const openApi = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  app.options('/api/openapi.json', openApi);
  app.get('/api/openapi.json', openApi, (_req, res) => {
    res.json(openApiDocument(o.baseUrl));
  });
  app.use(landingRoutes(ctx));

  const jsonBody = express.json({ limit: o.maxBodyBytes, type: ['application/json', 'application/*+json'] });
  const browserWrites = [sameOrigin(o.baseUrl), requireJson, jsonBody];
  app.use('/api/auth', ...browserWrites, authRoutes(ctx));
  app.use('/api/ops', ...browserWrites, operationRoutes(ctx));
  app.use('/api/federation', feedRoutes(ctx));
  app.use('/api/federation', federationStatusRoutes(ctx));
  app.use('/api/federation', federationRoutes(ctx, { browserWrites, maxBodyBytes: o.maxBodyBytes }));
  app.use('/api/federation', federationSurfaceRoutes(ctx, { maxBodyBytes: o.maxBodyBytes }));
  app.use(discoveryDocumentRoutes(ctx));
  o.mount?.(app, ctx);

  app.use(methods.notAllowed);
  app.use(notFoundRoute);
  app.use(problemHandler);
  return app;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Cookie-authenticated writes must come from our own origin (CSRF defence beside SameSite=Lax). */
export function sameOrigin(baseUrl: string): RequestHandler {
  const origin = new URL(baseUrl).origin;
  return (req, res, next) => {
    const given = req.headers.origin;
    if (WRITE.has(req.method) && given && given !== origin)
      return sendProblem(res, {
        status: 403,
        code: 'request.cross_origin',
        title: 'Cross-origin write refused',
      });
    next();
  };
}

/** JSON routes take JSON bodies only; a form post cannot smuggle a write in. */
export const requireJson: RequestHandler = (req, res, next) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (WRITE.has(req.method) && hasBody && !req.is(['application/json', 'application/*+json']))
    return sendProblem(res, {
      status: 415,
      code: 'request.unsupported_media_type',
      title: 'Send application/json',
    });
  next();
};
