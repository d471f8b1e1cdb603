// OAuth clients: registered ones come from their read model; a client_id that is an URL names a Client ID
// Metadata Document (draft-ietf-oauth-client-id-metadata-document), fetched here through the outbound
// client (outbound/outbound-http.ts) with
// - its address policy: outside development and test every address the host resolves to must be public
//   (loopback, link-local and private ranges refused; the connection goes to the address that was
//   checked, so DNS rebinding cannot slip in between); https only outside development and test;
// - no redirects followed (the document must be served at its own URL), 200 and a JSON type only;
// - a size limit and a time limit for the whole exchange;
// - a cache per process, for as long as Cache-Control says within [60 s, 24 h] (5 min when it says
//   nothing). Invalid documents and failures are never cached.
// Every failure is OAuth's `invalid_client`, its description naming the outbound code.
// Nothing is written to the log: the document is the registration, and it can change.
import { isDomainError, oauthError } from '@tributary/domain';
import {
  checkClientIdUrl,
  clientFromMetadataDocument,
  isClientIdUrl,
  supportedScopes,
  type Clock,
  type OAuthClientDirectory,
  type OAuthClientView,
} from '@tributary/services';
import type { OutboundHttp } from '../outbound/index.js';

interface ClientDirectoryOptions {
  /** The registered clients' read model. */
  registered(clientId: string): Promise<OAuthClientView | null>;
  clock: Clock;
  /** Accept plain http on a loopback host (development and test). */
  allowLoopbackHttp: boolean;
  /** The one outbound client; its address policy decides which hosts may serve a document. */
  outbound: OutboundHttp;
  /** The whole fetch, connection to last byte. */
  timeoutMs: number;
  maxBytes: number;
}

const CLIENT_METADATA_CACHE_SECONDS = { min: 60, default: 300, max: 24 * 60 * 60 };
const MAX_CACHED = 1000;

/** Seconds to keep a document, from its Cache-Control, within our bounds. */
function cacheSeconds(cacheControl: string | undefined): number {
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

  async function fetchClient(clientId: string): Promise<OAuthClientView> {
    const url = checkClientIdUrl(clientId, { allowLoopbackHttp: o.allowLoopbackHttp });
    const fetched = await fetchJson(o.outbound, url, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes });
    const now = o.clock.now();
    const client = clientFromMetadataDocument(clientId, fetched.body, now, supportedScopes());
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

/** Why the outbound client refused, in the words of this endpoint's description. */
const OUTBOUND_REASONS: Record<string, string> = {
  'outbound.redirect_refused': 'redirects are not followed; serve the document at its client_id URL',
  'outbound.unsafe_url': 'the client_id URL must point at a public address',
};

/** GET the URL as JSON: 200 only, no redirects, at most `maxBytes`, all within `timeoutMs`. */
async function fetchJson(
  outbound: OutboundHttp,
  url: URL,
  o: { timeoutMs: number; maxBytes: number },
): Promise<{ body: unknown; cacheControl: string | undefined }> {
  let res;
  try {
    res = await outbound.request(url, {
      headers: { accept: 'application/json' },
      timeoutMs: o.timeoutMs,
      connectTimeoutMs: o.timeoutMs,
      maxResponseBytes: o.maxBytes,
    });
  } catch (e) {
    if (!isDomainError(e)) throw e;
    const why = OUTBOUND_REASONS[e.code] ?? e.message;
    throw refuse(`${why} (${e.code})`);
  }
  if (res.status !== 200) throw refuse(`the server answered ${res.status}`);
  const type = res.header('content-type') ?? '';
  if (!/^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type))
    throw refuse(`served as ${type || 'no type'}, not JSON`);
  let body: unknown;
  try {
    body = JSON.parse(res.text()) as unknown;
  } catch {
    throw refuse('not valid JSON');
  }
  return { body, cacheControl: res.header('cache-control') };
}
