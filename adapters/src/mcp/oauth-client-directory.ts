// OAuth clients: registered ones come from their read model; a client_id that is an URL names a Client ID
// Metadata Document (draft-ietf-oauth-client-id-metadata-document), fetched here with
// - an SSRF guard outside development and test: https only, and every address the host resolves to must
//   be public (loopback, link-local and private ranges refused; the connection goes to the address that
//   was checked, so DNS rebinding cannot slip in between);
// - no redirects followed (the document must be served at its own URL), 200 and a JSON type only;
// - a size limit and a time limit for the whole exchange;
// - a cache per process, for as long as Cache-Control says within [60 s, 24 h] (5 min when it says
//   nothing). Invalid documents and failures are never cached.
// Nothing is written to the log: the document is the registration, and it can change.
import { isDomainError, oauthError } from '@tributary/domain';
import {
  checkClientIdUrl,
  clientFromMetadataDocument,
  isClientIdUrl,
  type Clock,
  type OAuthClientDirectory,
  type OAuthClientView,
} from '@tributary/services';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress, publicOnlyLookup, type Lookup } from '../federation/url-guard.js';

export interface ClientDirectoryOptions {
  /** The registered clients' read model. */
  registered(clientId: string): Promise<OAuthClientView | null>;
  clock: Clock;
  /** Refuse loopback, link-local and private addresses and plain http (production). */
  enforcePublicAddresses: boolean;
  /** The whole fetch, connection to last byte. */
  timeoutMs: number;
  maxBytes: number;
  lookup?: Lookup;
}

export const CLIENT_METADATA_CACHE_SECONDS = { min: 60, default: 300, max: 24 * 60 * 60 };
const MAX_CACHED = 1000;

/** Seconds to keep a document, from its Cache-Control, within our bounds. */
export function cacheSeconds(cacheControl: string | undefined): number {
  const { min, max } = CLIENT_METADATA_CACHE_SECONDS;
  const cc = (cacheControl ?? '').toLowerCase();
  // no-store / no-cache: as short as we go; a flow's few requests still see one document.
  if (/\b(no-store|no-cache)\b/.test(cc)) return min;
  const m = /\bmax-age\s*=\s*"?(\d+)/.exec(cc);
  const seconds = m ? Number(m[1]) : CLIENT_METADATA_CACHE_SECONDS.default;
  return Math.min(max, Math.max(min, seconds));
}

export function createOAuthClientDirectory(o: ClientDirectoryOptions): OAuthClientDirectory {
  const cache = new Map<string, { client: OAuthClientView; until: number }>();
  const inFlight = new Map<string, Promise<OAuthClientView>>();
  const lookup = o.enforcePublicAddresses ? publicOnlyLookup(o.lookup) : undefined;

  async function fetchClient(clientId: string): Promise<OAuthClientView> {
    const url = checkClientIdUrl(clientId, { allowLoopbackHttp: !o.enforcePublicAddresses });
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (o.enforcePublicAddresses && isIP(host) && !isPublicAddress(host))
      throw oauthError('invalid_client', 'the client_id URL must point at a public address');
    const fetched = await fetchJson(url, { lookup, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
    const now = o.clock.now();
    const client = clientFromMetadataDocument(clientId, fetched.body, now);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(clientId, { client, until: now.getTime() + cacheSeconds(fetched.cacheControl) * 1000 });
    return client;
  }

  return {
    async find(clientId) {
      if (!isClientIdUrl(clientId)) return o.registered(clientId);
      const hit = cache.get(clientId);
      if (hit && hit.until > o.clock.now().getTime()) return hit.client;
      if (hit) cache.delete(clientId);
      // Concurrent requests for one document share one fetch.
      let p = inFlight.get(clientId);
      if (!p) {
        p = fetchClient(clientId).finally(() => inFlight.delete(clientId));
        inFlight.set(clientId, p);
      }
      return p;
    },
  };
}

const refuse = (why: string) => oauthError('invalid_client', `client metadata document: ${why}`);

/** GET the URL as JSON: 200 only, no redirects, at most `maxBytes`, all within `timeoutMs`. */
function fetchJson(
  url: URL,
  o: { lookup: ReturnType<typeof publicOnlyLookup> | undefined; timeoutMs: number; maxBytes: number },
): Promise<{ body: unknown; cacheControl: string | undefined }> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? https.request : http.request;
    const req = get(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      ...(o.lookup && { lookup: o.lookup }),
    });
    // Exactly one outcome; whatever the socket does after it (resets, late data) is ignored.
    let settled = false;
    const settle = (e: Error | null, value?: { body: unknown; cacheControl: string | undefined }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e)
        reject(
          isDomainError(e) && e.code.startsWith('oauth.')
            ? e
            : refuse(isDomainError(e) ? e.message : `could not be fetched (${e.message})`),
        );
      else resolve(value!);
      req.destroy();
    };
    const timer = setTimeout(() => settle(refuse(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on('error', (e) => settle(e));
    req.on('response', (res) => {
      res.on('error', (e) => settle(e));
      const type = res.headers['content-type'] ?? '';
      if (res.statusCode !== 200)
        return settle(
          refuse(
            res.statusCode && res.statusCode >= 300 && res.statusCode < 400
              ? 'redirects are not followed; serve the document at its client_id URL'
              : `the server answered ${res.statusCode}`,
          ),
        );
      if (!/^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type))
        return settle(refuse(`served as ${type || 'no type'}, not JSON`));
      if (Number(res.headers['content-length'] ?? 0) > o.maxBytes)
        return settle(refuse(`larger than ${o.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBytes) return settle(refuse(`larger than ${o.maxBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (settled) return;
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        } catch {
          return settle(refuse('not valid JSON'));
        }
        settle(null, { body, cacheControl: res.headers['cache-control'] });
      });
    });
    req.end();
  });
}
