// POST /api/autobot/chat (docs/assistant.md#chat): svc.assistant.chat on the REST surface, for a
// session. The answer is `{ result }` as one JSON body, or server-sent events when the body says
// `stream: true` or the request accepts `text/event-stream`:
//   event: delta    data: {"text": "…"}           the model's text as it arrives
//   event: message  data: {"result": {…}}         the recorded reply and its plan (the JSON answer's body)
//   event: error    data: {problem}               the turn failed; nothing was recorded
//   : keep-alive                                  a comment every few seconds while the model thinks
// The event stream opens with the first delta (or the first keep-alive): a turn refused before that
// (bad input, another person's thread, no model) answers an ordinary problem+json with its status.
// The whole request is bounded by ASSISTANT_CHAT_TIMEOUT_MS, and a client that goes away cancels the
// model call; either way nothing is recorded.
import { domainError } from '@tributary/domain';
import { chat, observeTurn, type ChatOutput } from '@tributary/services';
import { Router, type RequestHandler, type Response } from 'express';
import { principalOf, problemJson, problemOf, runOperation, type HttpContext } from '../http/index.js';

export interface ChatRouteOptions {
  /** Same-origin check, JSON only, the JSON body parser. */
  browserWrites: RequestHandler[];
  /** ASSISTANT_CHAT_TIMEOUT_MS. */
  timeoutMs: number;
  /** A keep-alive comment this often while nothing else is sent. */
  heartbeatMs?: number;
}

const HEARTBEAT_MS = 10_000;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** An event stream opened lazily, so an early refusal can still be an ordinary HTTP answer. */
function eventStream(res: Response) {
  let open = false;
  const ensureOpen = () => {
    if (open || res.destroyed) return;
    open = true;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    // Proxies that buffer (nginx) would hold the deltas back.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
  };
  return {
    get open() {
      return open;
    },
    send(event: string, data: unknown) {
      ensureOpen();
      if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    keepAlive() {
      ensureOpen();
      if (!res.destroyed) res.write(': keep-alive\n\n');
    },
  };
}

export function chatRoutes(ctx: HttpContext, o: ChatRouteOptions): Router {
  const r = Router();
  r.post('/chat', ...o.browserWrites, async (req, res) => {
    const body: Record<string, unknown> = isRecord(req.body) ? req.body : {};
    const { stream, ...input } = body;
    if (stream !== undefined && typeof stream !== 'boolean')
      throw domainError('input.invalid', 'invalid', '`stream` must be true or false');
    const wantsStream =
      stream === true || (stream === undefined && (req.get('accept') ?? '').includes('text/event-stream'));
    const principal = await principalOf(ctx, req);

    const cancel = new AbortController();
    const timer = setTimeout(() => cancel.abort(), o.timeoutMs);
    // The client went away before the answer was sent: stop the model (nothing will be recorded).
    const onClose = () => {
      if (!res.writableEnded) cancel.abort();
    };
    res.on('close', onClose);
    const run = (onTextDelta?: (delta: string) => void) =>
      observeTurn({ signal: cancel.signal, ...(onTextDelta && { onTextDelta }) }, () =>
        runOperation(ctx, chat, input, principal, req),
      );

    if (!wantsStream) {
      try {
        const { result } = await run();
        res.status(200).json({ result } satisfies { result: ChatOutput });
      } finally {
        clearTimeout(timer);
      }
      return;
    }

    const events = eventStream(res);
    const heartbeat = setInterval(() => events.keepAlive(), o.heartbeatMs ?? HEARTBEAT_MS);
    try {
      const { result } = await run((text) => events.send('delta', { text }));
      events.send('message', { result } satisfies { result: ChatOutput });
    } catch (e) {
      // Refused before anything was streamed: an ordinary problem+json answer.
      if (!events.open) throw e;
      // problemOf logs what is not a domain error.
      events.send(
        'error',
        problemJson(problemOf(e, req.log), { instance: req.originalUrl, requestId: req.id }),
      );
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timer);
    }
    if (!res.destroyed) res.end();
  });
  return r;
}
