// /api/builder/preview, /publish and /rollback: render the draft into a candidate version and answer its
// preview URL; publish the draft's version; move the publication back (or forth) to a published version;
// restore a published version's content into the draft.
import { previewSite, publishSite, restoreVersion, rollbackSite } from '@tributary/services';
import { Router } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export function publicationRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.post('/preview', ...o.browserWrites, operationRoute(ctx, previewSite));
  r.post('/publish', ...o.browserWrites, operationRoute(ctx, publishSite));
  r.post('/rollback', ...o.browserWrites, operationRoute(ctx, rollbackSite));
  r.post('/restore', ...o.browserWrites, operationRoute(ctx, restoreVersion));
  return r;
}
