// The connected external-assistant account under /api/autobot/codex (docs/assistant.md#connected-account):
// session routes, each one a catalogue operation run through the pipeline. Secrets never appear in an
// answer: the operations return none.
import {
  disconnectAccount,
  listAccountModels,
  pollAccountSignIn,
  readAccount,
  startAccountSignIn,
} from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';

export function assistantAccountRoutes(ctx: HttpContext, o: { browserWrites: RequestHandler[] }): Router {
  const r = Router();
  r.get('/codex', operationRoute(ctx, readAccount, { input: (req) => req.query }));
  r.delete(
    '/codex',
    ...o.browserWrites,
    operationRoute(ctx, disconnectAccount, { input: (req) => ({ ...req.query, ...(req.body ?? {}) }) }),
  );
  r.post('/codex/device', ...o.browserWrites, operationRoute(ctx, startAccountSignIn, { status: 201 }));
  r.post('/codex/device/poll', ...o.browserWrites, operationRoute(ctx, pollAccountSignIn));
  r.get('/codex/models', operationRoute(ctx, listAccountModels, { input: (req) => req.query }));
  return r;
}
