// GET /api/federation/status and /api/federation/node-status. Both are public summaries (no peer
// addresses, errors or cursors), limited per client address (RATE_LIMIT_STATUS) and cached a few
// seconds; the instance operator (a session or token that controls the instance) also gets a page of
// peers with their push and pull cursors in /status, as `tributary federation status`.
import { isDomainError } from '@tributary/domain';
import { composedFor, federationComposed, federationStatus } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { clientAddressKey, principalOf, type HttpContext, runOperation } from '../http/index.js';
import { browserProblems } from '../web/index.js';

/** At most this many peers in node-status's list; `peerCount` counts every unblocked one. */
export const NODE_STATUS_PEERS_MAX = 50;
/** A public summary may be kept this long by the client or a shared cache (the operator's never). */
export const CACHE_STATUS = 'public, max-age=5';

export function federationStatusRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { services } = ctx;
  const answer = browserProblems(ctx);

  /**
   * RATE_LIMIT_STATUS per client address for the public summaries (docs/operations.md#rate-limits):
   * false after answering 429 request.rate_limited with Retry-After (a page for a browser).
   */
  const allowed = (req: Request, res: Response): boolean => {
    const wait = ctx.limits.status.take(clientAddressKey(req));
    if (wait === 0) return true;
    res.setHeader('Retry-After', String(wait));
    answer(res, {
      status: 429,
      code: 'request.rate_limited',
      title: 'Too many requests from this address',
      retryAfter: wait,
    });
    return false;
  };

  r.get('/status', async (req, res) => {
    // The operator's detail first, a page of peers (?limit&after&state, docs/api.md#peers): it is behind
    // a credential and bounded by its page, so not counted. Anyone else gets the summary only (the query
    // is not read for them) and is counted, before the summary is read.
    const principal = await principalOf(ctx, req);
    let detail: Record<string, unknown> | null = null;
    if (principal.kind !== 'anonymous') {
      try {
        const { result } = await runOperation(ctx, federationStatus, req.query, principal);
        detail = { cursors: result.peers, lag: result.summary.lag, next: result.next };
      } catch (e) {
        if (!isDomainError(e) || (e.kind !== 'forbidden' && e.kind !== 'unauthenticated')) throw e;
      }
    }
    if (!detail && !allowed(req, res)) return;
    const fed = composedFor(services, federationComposed).federation;
    const [instance, summary, feed] = await Promise.all([
      services.instance.read.get(),
      fed.read.peerSummary(),
      services.store.readFeedPage({ since: 0, limit: 1 }),
    ]);
    const body: Record<string, unknown> = {
      instanceId: instance?.instanceId ?? null,
      role: instance?.role ?? null,
      name: instance?.name ?? null,
      baseUrl: ctx.baseUrl,
      feed: { head: feed.head },
      sync: fed.syncMode ?? 'off',
      // Counts only (one aggregate query): a thousand peers cost no more to summarise than ten.
      peers: {
        total: summary.total,
        blocked: summary.blocked,
        reachable: summary.reachable,
        failing: summary.failing,
        unknown: summary.unknown,
      },
      // docs/mail.md#configuration: `smtp` sends through SMTP_URL, `log` only logs each message.
      mail: { delivery: services.mail?.transport.mode ?? 'off' },
      ...detail,
    };
    if (detail && services.mail)
      body.mail = { ...(body.mail as object), requests: await services.mail.read.countsByStatus() };
    // The summary is the same for everyone without the operator's view: a client or a shared cache may
    // keep it a few seconds; a cookie or a token may change the answer, so caches key on them.
    res.setHeader('Cache-Control', detail ? 'private, no-store' : CACHE_STATUS);
    res.setHeader('Vary', 'Cookie, Authorization');
    res.json(body);
  });

  // Used by the post composer: is this node federating, and is its global instance reachable? Public,
  // so bounded whatever the number of peers: a list of at most NODE_STATUS_PEERS_MAX unblocked peers with
  // their count, from a page of the index and one count (docs/federation.md#get-apifederationnode-status-public).
  r.get('/node-status', async (req, res) => {
    if (!allowed(req, res)) return;
    const fed = composedFor(services, federationComposed).federation;
    const [instance, open] = await Promise.all([
      services.instance.read.get(),
      fed.read.nodeStatusPeers(NODE_STATUS_PEERS_MAX),
    ]);
    const role = instance?.role ?? null;
    const g = open.global;
    res.setHeader('Cache-Control', CACHE_STATUS);
    res.json({
      instanceId: instance?.instanceId ?? null,
      role,
      federating: (fed.syncMode ?? 'off') !== 'off' && open.count > 0,
      global:
        role === 'global'
          ? { self: true, state: 'reachable', lastContactAt: null }
          : g
            ? {
                self: false,
                peerId: g.peerId,
                baseUrl: g.baseUrl,
                state: g.state,
                lastContactAt: g.lastContactAt,
              }
            : null,
      peerCount: open.count,
      peers: open.peers.map((p) => ({
        peerId: p.peerId,
        role: p.role,
        state: p.state,
        lastContactAt: p.lastContactAt,
      })),
    });
  });
  return r;
}
