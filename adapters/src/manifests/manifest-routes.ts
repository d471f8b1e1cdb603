// GET /api/universal-manifest/<kind>/<id> (docs/manifests.md): the signed universal manifest of a public
// entity, readable from any origin like the instance's own /.well-known/universal-manifest.json.
import { readEntityManifest } from '@tributary/services';
import { Router } from 'express';
import { CACHE_DOCUMENT, publicDocument, runOperation, type HttpContext } from '../http/index.js';

export function manifestRoutes(ctx: HttpContext): Router {
  const r = Router();
  // Signed per request and valid 30 days; five minutes in a cache is fine (a withdrawn manifest may be
  // served from a cache that long — documented).
  const cors = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  r.options('/api/universal-manifest/:kind/:id', cors);
  r.get('/api/universal-manifest/:kind/:id', cors, async (req, res) => {
    const { result } = await runOperation(
      ctx,
      readEntityManifest,
      { kind: req.params.kind, id: req.params.id },
      'anonymous',
    );
    res.json(result);
  });
  return r;
}
