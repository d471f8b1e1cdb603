// POST /api/spatial-web/traveller (docs/spatial.md#presentations): a signed-in person takes the
// presentation they carry through a portal. A session write like every other: same origin, JSON.
import { presentTraveller } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';

export function travellerRoutes(ctx: HttpContext, o: { browserWrites: RequestHandler[] }): Router {
  const r = Router();
  r.post('/api/spatial-web/traveller', ...o.browserWrites, operationRoute(ctx, presentTraveller));
  return r;
}
