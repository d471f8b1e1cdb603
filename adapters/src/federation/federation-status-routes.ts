// GET /api/federation/status and /api/federation/node-status. Both are public summaries (no peer
// addresses, errors or cursors); the instance operator (a session or token that controls the
// instance) also gets every peer's push and pull cursor in /status, as `tributary federation status`.
import { isDomainError } from '@tributary/domain';
import { composedFor, federationComposed, federationStatus, type SyncCursor } from '@tributary/services';
import { Router } from 'express';
import { principalOf, type HttpContext, runOperation } from '../http/index.js';

export function federationStatusRoutes(ctx: HttpContext): Router {
  const r = Router();
  const { services } = ctx;

  const summary = async () => {
    const fed = composedFor(services, federationComposed).federation;
    const [instance, peers, cursors, feed] = await Promise.all([
      services.instance.read.get(),
      fed.read.peers(),
      fed.cursors?.list() ?? Promise.resolve([] as SyncCursor[]),
      services.store.readFeedPage({ since: 0, limit: 1 }),
    ]);
    const active = peers.filter((p) => !p.blocked);
    const health = (peerId: string) => {
      const mine = cursors.filter((c) => c.peerId === peerId);
      if (mine.some((c) => c.attempts > 0)) return 'failing';
      if (mine.some((c) => c.lastSuccessAt)) return 'reachable';
      return 'unknown';
    };
    const lastContact = (peerId: string) =>
      cursors
        .filter((c) => c.peerId === peerId && c.lastSuccessAt)
        .map((c) => c.lastSuccessAt!.toISOString())
        .sort()
        .at(-1) ?? null;
    return { instance, fed, peers, active, health, lastContact, feedHead: feed.head };
  };

  r.get('/status', async (req, res) => {
    const s = await summary();
    const states = s.active.map((p) => s.health(p.peerId));
    const body: Record<string, unknown> = {
      instanceId: s.instance?.instanceId ?? null,
      role: s.instance?.role ?? null,
      name: s.instance?.name ?? null,
      baseUrl: ctx.baseUrl,
      feed: { head: s.feedHead },
      sync: s.fed.syncMode ?? 'off',
      peers: {
        total: s.peers.length,
        blocked: s.peers.length - s.active.length,
        reachable: states.filter((x) => x === 'reachable').length,
        failing: states.filter((x) => x === 'failing').length,
      },
      // docs/mail.md#configuration: `smtp` sends through SMTP_URL, `log` only logs each message.
      mail: { delivery: services.mail?.transport.mode ?? 'off' },
    };
    // The operator's detail; anyone else gets the summary only.
    const principal = await principalOf(ctx, req);
    if (principal.kind !== 'anonymous') {
      try {
        const { result } = await runOperation(ctx, federationStatus, {}, principal);
        body.cursors = result.peers;
        if (services.mail)
          body.mail = { ...(body.mail as object), requests: await services.mail.read.countsByStatus() };
      } catch (e) {
        if (!isDomainError(e) || (e.kind !== 'forbidden' && e.kind !== 'unauthenticated')) throw e;
      }
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });

  // Used by the post composer: is this node federating, and is its global instance reachable?
  r.get('/node-status', async (_req, res) => {
    const s = await summary();
    const role = s.instance?.role ?? null;
    const global = s.active.find((p) => p.role === 'global');
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      instanceId: s.instance?.instanceId ?? null,
      role,
      federating: (s.fed.syncMode ?? 'off') !== 'off' && s.active.length > 0,
      global:
        role === 'global'
          ? { self: true, state: 'reachable', lastContactAt: null }
          : global
            ? {
                self: false,
                peerId: global.peerId,
                baseUrl: global.baseUrl,
                state: s.health(global.peerId),
                lastContactAt: s.lastContact(global.peerId),
              }
            : null,
      peers: s.active.map((p) => ({
        peerId: p.peerId,
        role: p.role,
        state: s.health(p.peerId),
        lastContactAt: s.lastContact(p.peerId),
      })),
    });
  });
  return r;
}
