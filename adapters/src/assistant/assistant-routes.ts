// The assistant's REST routes under /api/autobot for threads and plans (docs/assistant.md): each one a
// catalogue operation run through the pipeline, for a session (or a bearer credential the session
// resolver accepts). A confirmation runs the plan's steps inside its request, within
// ASSISTANT_CONFIRM_TIMEOUT_MS (docs/assistant.md#limits).
import { confirmPlan, decideActions, deleteThread, listThreads, readThread } from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { operationRoute, type HttpContext } from '../http/index.js';

export interface AssistantRouteOptions {
  /** Same-origin and JSON checks plus the JSON body parser, as for every cookie-authenticated write. */
  browserWrites: RequestHandler[];
}

export function assistantPlanRoutes(ctx: HttpContext, o: AssistantRouteOptions): Router {
  const r = Router();
  r.get('/threads', operationRoute(ctx, listThreads, { input: (req) => req.query }));
  r.get(
    '/threads/:threadId',
    operationRoute(ctx, readThread, { input: (req) => ({ ...req.query, threadId: req.params.threadId }) }),
  );
  r.delete(
    '/threads/:threadId',
    ...o.browserWrites,
    operationRoute(ctx, deleteThread, { input: (req) => ({ threadId: req.params.threadId }) }),
  );
  r.patch(
    '/threads/:threadId/messages/:messageId/actions',
    ...o.browserWrites,
    operationRoute(ctx, decideActions, {
      input: (req) => ({
        ...(req.body ?? {}),
        threadId: req.params.threadId,
        messageId: req.params.messageId,
      }),
    }),
  );
  r.post('/confirm', ...o.browserWrites, operationRoute(ctx, confirmPlan));
  return r;
}
