// /api/builder/sites (an owner's sites; create one) and /api/builder/site (one site with its
// publication and versions; update its settings).
import { createSite, listSites, readSite, updateSite } from '@tributary/services';
import { Router } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export function siteRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/sites', operationRoute(ctx, listSites, { input: (req) => req.query }));
  r.post('/sites', ...o.browserWrites, operationRoute(ctx, createSite, { status: 201 }));
  r.get('/site', operationRoute(ctx, readSite, { input: (req) => req.query }));
  r.post('/site', ...o.browserWrites, operationRoute(ctx, updateSite));
  return r;
}
