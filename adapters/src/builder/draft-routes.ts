// /api/builder/draft: read a site's draft; replace it over the revision it was edited from (201 with
// the new revision; a stale revision is 409 builder.draft_stale with the current one); move one block
// of a page (the editor's drag and drop); undo and redo a step of the draft's history
// (docs/builder.md#undo).
import { moveBlock, readDraft, redoDraft, saveDraft, undoDraft } from '@tributary/services';
import { Router } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';
import type { BuilderRouteOptions } from './route-options.js';

export function draftRoutes(ctx: HttpContext, o: BuilderRouteOptions): Router {
  const r = Router();
  r.get('/draft', operationRoute(ctx, readDraft, { input: (req) => req.query }));
  r.put('/draft', ...o.draftWrites, operationRoute(ctx, saveDraft, { status: 201 }));
  r.post('/draft/move-block', ...o.browserWrites, operationRoute(ctx, moveBlock));
  r.post('/draft/undo', ...o.browserWrites, operationRoute(ctx, undoDraft));
  r.post('/draft/redo', ...o.browserWrites, operationRoute(ctx, redoDraft));
  return r;
}
