// The one way this instance calls out over HTTP (peers, peer manifests, OAuth client metadata
// documents; later DNS-over-HTTPS, mail, model and payment APIs). Every call, and every redirect hop a
// caller opts into:
// - http(s) only, no user info in the URL;
// - the host resolved once, every address checked against the address policy (address-policy.ts), and
//   the connection made to an address that was checked: the agents' `lookup` is the check, so nothing
//   can re-resolve the name in between (DNS rebinding). An IP-literal host is checked before connecting;
// - redirects not followed unless the caller asks (then at most `maxRedirects` hops, GET/HEAD without
//   a body only, each hop checked again, credentials and signatures dropped when the origin changes);
// - a connect timeout and a total timeout (first byte sent to last byte read), and a response size limit
//   enforced while streaming — also when the caller reads the body as a stream (`open`, and `guardedFetch`
//   over it for libraries that take a `fetch`), where a limit broken mid-body errors the stream.
// Failures are DomainErrors with stable `outbound.*` codes and messages that never quote what a refused
// or redirected-to address answered; callers map them to their surface.
import { domainError, isDomainError } from '@tributary/domain';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { bareHost, createAddressPolicy, type AddressPolicy } from './address-policy.js';

type Resolve = (host: string) => Promise<string[]>;

interface OutboundHttpOptions {
  /** Addresses reachable besides public ones (`10.0.0.0/8`, `::1`); see OUTBOUND_ALLOWED_ADDRESSES. */
  allowedAddresses?: string | readonly string[];
  /** Until the TCP connection is up. */
  connectTimeoutMs?: number;
  /** The whole exchange, redirects included; a request may ask for less or more. */
  timeoutMs?: number;
  /** The response body; a request may ask for less or more. */
  maxResponseBytes?: number;
  /** Name resolution (default: the system resolver, every address). */
  resolve?: Resolve;
}

interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  maxResponseBytes?: number;
  /** How many redirects to follow (GET/HEAD without a body only). Default 0: a redirect is refused. */
  maxRedirects?: number;
  /** Abandons the call (the body too, when streamed); the promise or stream fails with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2); only such a
   * request is sent again when a pooled connection fails before any answer. Default: by method (GET,
   * HEAD, OPTIONS, PUT, DELETE are; POST and PATCH are not, so a model or payment call is never re-sent).
   */
  idempotent?: boolean;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export interface OutboundResponse {
  /** The URL that answered (after any redirects the caller allowed). */
  url: string;
  status: number;
  /** A response header (lower-case name), several values joined with `, `. */
  header(name: string): string | undefined;
  body: Buffer;
  text(): string;
}

/** An answer whose body is read as it arrives; the time and size limits still hold until its end. */
export interface OutboundStreamResponse {
  url: string;
  status: number;
  header(name: string): string | undefined;
  /** Every response header (lower-case names), several values joined with `, `. */
  headers(): Record<string, string>;
  /** Errors with the `outbound.*` DomainError (or the abort reason) when a limit breaks mid-body. */
  body: Readable;
}

export interface OutboundHttp {
  request(url: string | URL, request?: OutboundRequest): Promise<OutboundResponse>;
  /** As `request`, the body streamed (server-sent events, long answers). */
  open(url: string | URL, request?: OutboundRequest): Promise<OutboundStreamResponse>;
  /** The URL checks without connecting: scheme, user info, and every address the host resolves to. */
  checkUrl(url: string | URL): Promise<URL>;
  readonly policy: AddressPolicy;
}

const OUTBOUND_DEFAULTS = {
  connectTimeoutMs: 5_000,
  timeoutMs: 30_000,
  maxResponseBytes: 16 * 1024 * 1024,
};

/** Headers that speak for us to one origin only: never carried across a redirect to another. */
const ORIGIN_BOUND_HEADERS = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'signature',
  'signature-input',
];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const fail = domainError;

const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export function createOutboundHttp(o: OutboundHttpOptions = {}): OutboundHttp {
  const policy = createAddressPolicy(o.allowedAddresses ?? []);
  const resolve = o.resolve ?? systemResolve;
  const defaults = {
    connectTimeoutMs: o.connectTimeoutMs ?? OUTBOUND_DEFAULTS.connectTimeoutMs,
    timeoutMs: o.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs,
    maxResponseBytes: o.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes,
  };

  /** Every address of the host, all allowed, or a refusal. */
  async function addressesOf(host: string): Promise<string[]> {
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = await resolve(host);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0)
        throw fail('outbound.unresolvable_host', 'unavailable', `the host ${host} does not resolve`, {
          host,
        });
    }
    // One refused address refuses the name: which one a connection would pick is not ours to choose.
    if (addresses.some((a) => !policy.allows(a)))
      throw fail('outbound.unsafe_url', 'invalid', `${host} is not a public address`, { host });
    return addresses;
  }

  // The check is the lookup: the socket connects to what was just checked.
  const lookup = ((hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    addressesOf(hostname).then(
      (addresses) => {
        if (options.all)
          return callback(
            null,
            addresses.map((address) => ({ address, family: isIP(address) })),
          );
        callback(null, addresses[0]!, isIP(addresses[0]!));
      },
      (e: Error) => callback(e, '', 0),
    );
  }) as unknown as LookupFunction;
  // Pooled connections were all made through `lookup`, so reusing one is as safe as making one.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, lookup }),
    'https:': new https.Agent({ keepAlive: true, lookup }),
  };
  // A pooled connection the server closed as idle, just as we picked it, fails before any answer (Node
  // honours the server's Keep-Alive hint, but a busy event loop can pick the connection late): an
  // idempotent request is sent again once on a connection of its own.
  const freshAgents = {
    'http:': new http.Agent({ keepAlive: false, lookup }),
    'https:': new https.Agent({ keepAlive: false, lookup }),
  };

  function parse(raw: string | URL): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw fail('outbound.bad_url', 'invalid', 'not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw fail('outbound.bad_url', 'invalid', 'only http and https URLs are called');
    if (url.username || url.password)
      throw fail('outbound.bad_url', 'invalid', 'a URL may not carry credentials');
    return url;
  }

  async function checkUrl(raw: string | URL): Promise<URL> {
    const url = parse(raw);
    await addressesOf(bareHost(url.hostname));
    return url;
  }

  async function request(raw: string | URL, r: OutboundRequest = {}): Promise<OutboundResponse> {
    const answer = await open(raw, r);
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    return {
      url: answer.url,
      status: answer.status,
      header: answer.header,
      body: bytes,
      text: () => bytes.toString('utf8'),
    };
  }

  async function open(raw: string | URL, r: OutboundRequest = {}): Promise<OutboundStreamResponse> {
    const timeoutMs = r.timeoutMs ?? defaults.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const maxRedirects = r.maxRedirects ?? 0;
    let url = parse(raw);
    let headers = { ...r.headers };
    for (let hop = 0; ; hop++) {
      const host = bareHost(url.hostname);
      // Node connects to an IP literal without calling `lookup`: check it here.
      if (isIP(host)) await addressesOf(host);
      const attempt = (fresh: boolean) =>
        exchange(url, {
          method: r.method ?? 'GET',
          headers,
          body: r.body,
          connectTimeoutMs: r.connectTimeoutMs ?? defaults.connectTimeoutMs,
          remainingMs: deadline - Date.now(),
          timeoutMs,
          maxResponseBytes: r.maxResponseBytes ?? defaults.maxResponseBytes,
          signal: r.signal,
          fresh,
        });
      const idempotent = r.idempotent ?? IDEMPOTENT_METHODS.has((r.method ?? 'GET').toUpperCase());
      const answer = await attempt(false).catch((e: unknown) => {
        if (e instanceof StaleConnection) {
          if (idempotent) return attempt(true);
          throw e.cause;
        }
        throw e;
      });
      if (!('redirect' in answer)) return answer;
      const { status, location } = answer.redirect;
      const refuse = (why: string) =>
        fail('outbound.redirect_refused', 'unavailable', `${url.origin} answered ${status}: ${why}`, {
          remoteStatus: status,
        });
      if (maxRedirects === 0) throw refuse('redirects are not followed');
      if (hop >= maxRedirects)
        throw fail('outbound.too_many_redirects', 'unavailable', `more than ${maxRedirects} redirects`);
      const method = (r.method ?? 'GET').toUpperCase();
      // A body (a signed one, above all) is sent to the URL it was meant for, never on.
      if (r.body !== undefined || (method !== 'GET' && method !== 'HEAD'))
        throw refuse('a request with a body is not redirected');
      if (!location) throw refuse('a redirect without a Location');
      let next: URL;
      try {
        next = parse(new URL(location, url));
      } catch (e) {
        throw refuse(isDomainError(e) ? e.message : 'a redirect to a bad URL');
      }
      if (url.protocol === 'https:' && next.protocol === 'http:')
        throw refuse('a redirect from https to http');
      if (next.origin !== url.origin)
        headers = Object.fromEntries(
          Object.entries(headers).filter(([k]) => !ORIGIN_BOUND_HEADERS.includes(k.toLowerCase())),
        );
      url = next;
    }
  }

  function exchange(
    url: URL,
    o: {
      method: string;
      headers: Record<string, string>;
      body: string | Buffer | undefined;
      connectTimeoutMs: number;
      remainingMs: number;
      timeoutMs: number;
      maxResponseBytes: number;
      signal: AbortSignal | undefined;
      /** On a connection of its own, not a pooled one. */
      fresh: boolean;
    },
  ): Promise<OutboundStreamResponse | { redirect: { status: number; location: string | undefined } }> {
    return new Promise((resolve, reject) => {
      if (o.signal?.aborted) return reject(abortReason(o.signal));
      const body = o.body === undefined ? undefined : Buffer.from(o.body);
      const send = url.protocol === 'https:' ? https.request : http.request;
      const req = send(url, {
        method: o.method,
        headers: { ...o.headers, ...(body && { 'content-length': String(body.length) }) },
        agent: (o.fresh ? freshAgents : agents)[url.protocol as 'http:' | 'https:'],
      });
      // Exactly one outcome for the promise; after it, a broken limit or an abort errors the body stream,
      // and whatever the socket does after that (resets, late data) is ignored.
      let settled = false;
      let done = false;
      let stream: PassThrough | undefined;
      const finish = () => {
        done = true;
        clearTimeout(total);
        clearTimeout(connect);
        o.signal?.removeEventListener('abort', onAbort);
      };
      const settle = (e: Error | null, value?: Awaited<ReturnType<typeof exchange>>) => {
        if (done) return;
        if (settled) {
          // The head was handed over already: only the body stream can fail now.
          if (e) {
            finish();
            req.destroy();
            stream?.destroy(e);
          }
          return;
        }
        settled = true;
        if (e) {
          finish();
          req.destroy();
          reject(e);
        } else resolve(value!);
      };
      const total = setTimeout(
        () => settle(fail('outbound.timeout', 'unavailable', `no answer within ${o.timeoutMs} ms`)),
        Math.max(0, o.remainingMs),
      );
      const onAbort = () => settle(abortReason(o.signal!));
      o.signal?.addEventListener('abort', onAbort, { once: true });
      let connect: NodeJS.Timeout | undefined;
      req.on('socket', (socket) => {
        if (!socket.connecting) return; // a pooled connection, already up
        connect = setTimeout(
          () =>
            settle(
              fail('outbound.timeout', 'unavailable', `could not connect within ${o.connectTimeoutMs} ms`),
            ),
          o.connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(connect));
      });
      const unreachable = (e: Error & { code?: string }) =>
        fail('outbound.unreachable', 'unavailable', `${url.origin}: ${e.code ?? e.message}`, {
          reason: e.code ?? e.message,
        });
      let answered = false;
      req.on('error', (e: Error & { code?: string }) => {
        const stale = !o.fresh && !answered && req.reusedSocket && STALE_SOCKET_CODES.has(e.code ?? '');
        settle(isDomainError(e) ? e : stale ? new StaleConnection(unreachable(e)) : unreachable(e));
      });
      req.on('response', (res) => {
        answered = true;
        res.on('error', (e: Error & { code?: string }) => settle(unreachable(e)));
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.resume();
          settle(null, { redirect: { status, location: res.headers.location } });
          return finish();
        }
        const tooLarge = () =>
          fail('outbound.too_large', 'unavailable', `the answer is larger than ${o.maxResponseBytes} bytes`, {
            maxBytes: o.maxResponseBytes,
          });
        if (Number(res.headers['content-length'] ?? 0) > o.maxResponseBytes) return settle(tooLarge());
        const body = new PassThrough();
        stream = body;
        // The reader gets the error through its own listener or iterator; this one only keeps an unread,
        // failed body from being an uncaught 'error' event.
        body.on('error', () => undefined);
        // A reader that stops reading early (or destroys the stream) ends the exchange.
        body.on('close', () => {
          if (!done) {
            finish();
            req.destroy();
          }
        });
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > o.maxResponseBytes) return settle(tooLarge());
          if (!body.write(chunk)) {
            res.pause();
            body.once('drain', () => res.resume());
          }
        });
        res.on('end', () => {
          if (done) return;
          finish();
          body.end();
        });
        const headerOf = (name: string) => {
          const v = res.headers[name.toLowerCase()];
          return Array.isArray(v) ? v.join(', ') : v;
        };
        settle(null, {
          url: url.href,
          status,
          header: headerOf,
          headers: () => Object.fromEntries(Object.keys(res.headers).map((k) => [k, headerOf(k) ?? ''])),
          body,
        });
      });
      req.end(body);
    });
  }

  return { request, open, checkUrl, policy };
}

const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** A pooled connection that failed before any answer; `cause` is what to report if the retry fails too. */
class StaleConnection extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new DOMException('the call was abandoned', 'AbortError');

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;
