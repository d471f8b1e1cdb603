// The public Web of Worlds 0.0.1 routes (docs/spatial.md#the-wow-routes), the spatial-fabric discovery
// document and tag resolution. Public, read-only, readable from any origin (CORS `*`, OPTIONS answered),
// rate-limited per client address with the feed's limit (RATE_LIMIT_FEED), problem+json on error.
import {
  requireUuid,
  resolveTag,
  spatialFabric,
  wowNode,
  wowPortal,
  wowSceneNode,
  wowSpatialText,
  wowSpatialVersion,
  wowView,
  wowWorld,
} from '@tributary/services';
import { Router, type Request } from 'express';
import { publicDocument, type HttpContext } from '../http/index.js';
import { createSpatialBodyCache, type SpatialBodyCache } from './spatial-body-cache.js';
import { CACHE_SPATIAL_DISCOVERY, CACHE_WOW } from './wow-headers.js';

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/** The graph bodies of these routes, for the app to share with the fast path (spatial-fast-path.ts). */
export function createWowBodies(ctx: HttpContext): SpatialBodyCache {
  const c = { services: ctx.services, baseUrl: ctx.baseUrl };
  return createSpatialBodyCache({
    load: (id) => wowSpatialText(c, id),
    version: (id) => wowSpatialVersion(c, id),
  });
}

export function wowRoutes(ctx: HttpContext, bodies: SpatialBodyCache = createWowBodies(ctx)): Router {
  const r = Router();
  const c = { services: ctx.services, baseUrl: ctx.baseUrl };
  const wow = publicDocument(ctx, { limit: 'feed', cacheControl: CACHE_WOW });
  const discovery = publicDocument(ctx, { limit: 'feed', cacheControl: CACHE_SPATIAL_DISCOVERY });

  r.options(['/wow/world', '/wow/world/:worldId', '/wow/view/:viewId', '/wow/portal/:portalId'], wow);
  r.get('/wow/world', wow, async (_req, res) => {
    res.json(await wowWorld(c));
  });
  r.get('/wow/world/:worldId', wow, async (req, res) => {
    res.json(await wowWorld(c, param(req, 'worldId')));
  });
  r.get('/wow/view/:viewId', wow, async (req, res) => {
    res.json(await wowView(c, param(req, 'viewId')));
  });
  r.get('/wow/portal/:portalId', wow, async (req, res) => {
    res.json(await wowPortal(c, param(req, 'portalId')));
  });

  // The graph is the large document: served from its serialized bytes (spatial-body-cache.ts), 304 to a
  // client holding the revision.
  r.options(['/wow/spatial/:spatialId', '/wow/spatial/:spatialId/node/:nodeId'], wow);
  r.get('/wow/spatial/:spatialId', wow, async (req, res) => {
    const id = requireUuid(param(req, 'spatialId'), 'spatialId');
    const cached = await bodies.get(id);
    res.setHeader('ETag', cached.etag);
    if (req.headers['if-none-match'] === cached.etag) return void res.status(304).end();
    res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', String(cached.body.length));
    res.end(req.method === 'HEAD' ? undefined : cached.body);
  });
  r.get('/wow/spatial/:spatialId/node/:nodeId', wow, async (req, res) => {
    res.json(await wowNode(c, param(req, 'spatialId'), param(req, 'nodeId')));
  });
  // An earlier draft of upstream's API.yaml addressed the nodes of an endpoint's one world here.
  r.options('/wow/scene/node/:nodeId', wow);
  r.get('/wow/scene/node/:nodeId', wow, async (req, res) => {
    res.json(await wowSceneNode(c, param(req, 'nodeId')));
  });

  r.options('/.well-known/spatial-fabric', discovery);
  r.get('/.well-known/spatial-fabric', discovery, async (_req, res) => {
    res.json(await spatialFabric(c));
  });
  r.options('/api/spatial-web/tags/:scheme/:id', discovery);
  r.get('/api/spatial-web/tags/:scheme/:id', discovery, async (req, res) => {
    res.json(await resolveTag(c, param(req, 'scheme'), param(req, 'id')));
  });
  return r;
}
