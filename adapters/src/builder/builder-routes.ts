// The site builder's REST routes under /api/builder (docs/builder.md): session-only, each one a
// catalogue operation run through the pipeline. Each resource has its own file; this composes them.
import { Router } from 'express';
import type { HttpContext } from '../http/index.js';
import { domainRoutes } from './domain-routes.js';
import { draftRoutes } from './draft-routes.js';
import { formRoutes } from './form-routes.js';
import { mediaRoutes } from './media-routes.js';
import { publicationRoutes } from './publication-routes.js';
import type { BuilderRouteOptions } from './route-options.js';
import { siteRoutes } from './site-routes.js';
import { suspendRoutes } from './suspend-routes.js';

export { DRAFT_BODY_MAX_BYTES, type BuilderRouteOptions } from './route-options.js';

export function builderRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.use(siteRoutes(ctx, o));
  r.use(draftRoutes(ctx, o));
  r.use(suspendRoutes(ctx, o));
  r.use(mediaRoutes(ctx, o));
  r.use(publicationRoutes(ctx, o));
  r.use(formRoutes(ctx, o));
  r.use(domainRoutes(ctx, o));
  return r;
}
