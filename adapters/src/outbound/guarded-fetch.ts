// A `fetch` for libraries that take one (the `openai` client): every call goes through the outbound
// client's `open`, so the address policy, the refusal of redirects, the time and size limits hold for
// them as for our own calls. The body is streamed, so server-sent events arrive as they are sent.
// Failures reject with the outbound client's `outbound.*` DomainError (or the abort signal's reason).
import { Readable } from 'node:stream';
import type { OutboundHttp } from './outbound-http.js';

export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

interface GuardedFetchOptions {
  /** The whole exchange, body included (default: the outbound client's). */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/** Statuses whose response may not carry a body (the Response constructor refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

export function guardedFetch(outbound: OutboundHttp, options: GuardedFetchOptions = {}): GuardedFetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : String(input);
    const headers = new Headers(request?.headers);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    const raw = init.body !== undefined ? init.body : request?.body ? await request.arrayBuffer() : null;
    const answer = await outbound.open(url, {
      method: init.method ?? request?.method ?? 'GET',
      headers: Object.fromEntries(headers.entries()),
      ...(raw !== null && raw !== undefined && { body: bodyBytes(raw) }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.maxResponseBytes !== undefined && { maxResponseBytes: options.maxResponseBytes }),
      ...((init.signal ?? request?.signal) && { signal: (init.signal ?? request?.signal)! }),
    });
    const noBody = NO_BODY.has(answer.status) || (init.method ?? request?.method) === 'HEAD';
    if (noBody) answer.body.resume();
    const response = new Response(
      noBody ? null : (Readable.toWeb(answer.body) as unknown as ReadableStream<Uint8Array>),
      { status: answer.status, headers: answer.headers() },
    );
    Object.defineProperty(response, 'url', { value: answer.url });
    return response;
  };
}

/** The body kinds a JSON API client sends; a stream or form body is refused rather than half-sent. */
function bodyBytes(body: NonNullable<RequestInit['body']> | ArrayBuffer): string | Buffer {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('guardedFetch sends string, byte and URL-encoded bodies only');
}
