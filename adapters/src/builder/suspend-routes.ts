// /api/builder/suspended lists the suspended sites (GET); /api/builder/suspend: an operator suspends a site (POST) or lifts the suspension (DELETE, with a JSON
// body or query parameters). Operators only; the owner reads the state in GET /api/builder/site.
import { listSuspendedSites, suspendSite, unsuspendSite } from '@tributary/services';
import { Router } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export function suspendRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/suspended', operationRoute(ctx, listSuspendedSites, { input: (req) => req.query }));
  r.post('/suspend', ...o.browserWrites, operationRoute(ctx, suspendSite));
  r.delete(
    '/suspend',
    ...o.browserWrites,
    operationRoute(ctx, unsuspendSite, {
      input: (req) => ({ ...(req.query as Record<string, unknown>), ...(req.body as object | undefined) }),
    }),
  );
  return r;
}
