// The door of this instance's hosted worlds (docs/spatial.md#presence): POST /wow/user admits a traveller
// on their presentation, GET /wow/user/<userId> says who is present. Public and readable from any origin
// (no cookies are involved: a presentation is its own credential), answered in upstream's OpenSpatialWorld
// `User` shape (our members under `tributary`) rather than `{ result }`.
import { admitTraveller, readPresence } from '@tributary/services';
import { Router } from 'express';
import { jsonBodyParser, publicDocument, runOperation, type HttpContext } from '../http/index.js';

/** A presentation is a few kilobytes; nothing larger is one. */
export const PRESENTATION_MAX_BYTES = 16 * 1024;

export function presenceRoutes(ctx: HttpContext): Router {
  const r = Router();
  const door = publicDocument(ctx, { limit: 'discovery', methods: ['POST', 'OPTIONS'] });
  const reads = publicDocument(ctx, { limit: 'discovery' });
  const body = jsonBodyParser({
    limit: PRESENTATION_MAX_BYTES,
    type: ['application/json', 'application/*+json'],
  });
  r.options('/wow/user', door);
  r.post('/wow/user', door, body, async (req, res) => {
    const { result } = await runOperation(ctx, admitTraveller, { presentation: req.body }, 'anonymous');
    res.status(201).json(result);
  });
  r.options('/wow/user/:userId', reads);
  r.get('/wow/user/:userId', reads, async (req, res) => {
    const { result } = await runOperation(ctx, readPresence, { userId: req.params.userId }, 'anonymous');
    res.json(result);
  });
  return r;
}
