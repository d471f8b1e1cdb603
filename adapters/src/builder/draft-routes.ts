// /api/builder/draft: read a site's draft; replace it over the revision it was edited from (201 with
// the new revision; a stale revision is 409 builder.draft_stale with the current one).
import { readDraft, saveDraft } from '@tributary/services';
import { Router } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export function draftRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/draft', operationRoute(ctx, readDraft, { input: (req) => req.query }));
  r.put('/draft', ...o.draftWrites, operationRoute(ctx, saveDraft, { status: 201 }));
  return r;
}
