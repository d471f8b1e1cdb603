// The federation routes: the peer registry (operators), the public agent registry,
// and the peer-signed event export and import. The feed (GET /events) lives in feed-routes.ts.
import { IMPORT_MAX_BYTES, invalid, notFound, unauthenticated, UUID_V1_TO_V5 } from '@tributary/domain';
import {
  exportEvents,
  exportQuery,
  heldQuery,
  composedFor,
  federationComposed,
  listPeers,
  pushedRangeOf,
  receivePush,
  receivePeerFollowing,
  registerPeer,
  relayFilterFor,
  servedOriginManifest,
  updatePeer,
} from '@tributary/services';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { peerAuthentication } from './peer-authentication.js';
import { type HttpContext, jsonBodyParser, publicDocument, operationRoute } from '../http/index.js';

interface FederationRouteOptions {
  /** Same-origin and JSON checks plus the JSON body parser, as for every cookie-authenticated write. */
  browserWrites: RequestHandler[];
  /** Body limit of the export request (a small JSON query). */
  maxBodyBytes: number;
}

/** Registry lookups are capped per request. */
const REGISTRY_MAX_LIMIT = 200;

export const registryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(REGISTRY_MAX_LIMIT).default(50),
  after: z.string().max(64).optional(),
  origin: z.string().max(200).optional(),
});
export const registryLookup = z.strictObject({
  agentIds: z.array(z.string().max(64)).min(1).max(REGISTRY_MAX_LIMIT),
});

export function federationRoutes(ctx: HttpContext, o: FederationRouteOptions): Router {
  const r = Router();
  const { services } = ctx;

  // Peer registry: the instance operator (a session that controls the instance) registers, rotates and
  // blocks peers; the catalogue operations enforce controllerOnly and svc.admin.
  r.post('/peers', ...o.browserWrites, operationRoute(ctx, registerPeer, { status: 201 }));
  r.patch('/peers', ...o.browserWrites, operationRoute(ctx, updatePeer));
  // ?limit&after&state: a page of peers (docs/api.md#peers).
  r.get('/peers', operationRoute(ctx, listPeers, { input: (req) => req.query }));

  // The public registry of agents known here (local and materialized remote), public fields only.
  const cors = publicDocument(ctx, { limit: 'feed', methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] });
  const corsOne = publicDocument(ctx, { limit: 'feed' });
  r.options('/registry', cors);
  r.options('/registry/:agentId', corsOne);
  r.get('/registry', cors, async (req, res) => {
    const q = registryQuery.safeParse(req.query);
    if (!q.success) throw invalid('registry.bad_query', `limit 1–${REGISTRY_MAX_LIMIT}, after, origin`);
    const agents = await composedFor(services, federationComposed).federation.read.registryAgents(q.data);
    res.json({ agents, next: agents.length === q.data.limit ? agents[agents.length - 1]!.agentId : null });
  });
  r.post('/registry', cors, jsonBodyParser({ limit: 64 * 1024 }), async (req, res) => {
    const q = registryLookup.safeParse(req.body);
    if (!q.success) throw invalid('registry.bad_query', `agentIds: 1–${REGISTRY_MAX_LIMIT} agent ids`);
    res.json({
      agents: await composedFor(services, federationComposed).federation.read.registryAgentsByIds(
        q.data.agentIds,
      ),
    });
  });
  r.get('/registry/:agentId', corsOne, async (req, res) => {
    const agentId = String(req.params.agentId);
    if (!UUID_V1_TO_V5.test(agentId))
      throw invalid('registry.bad_agent_id', 'agentId must be a UUID (versions 1 to 5)');
    const [agent] = await composedFor(services, federationComposed).federation.read.registryAgentsByIds([
      agentId,
    ]);
    if (!agent) throw notFound('registry.not_found', 'no such agent here');
    res.json({ agent });
  });

  // Peer-signed routes: the verified signature is the principal (peer-authentication.ts).
  r.post(
    '/events/import',
    peerAuthentication({
      services,
      baseUrl: ctx.baseUrl,
      maxBodyBytes: IMPORT_MAX_BYTES,
      tooLargeCode: 'federation.batch_too_large',
    }),
    async (req, res) => {
      const principal = req.principal;
      if (principal?.kind !== 'peer')
        throw unauthenticated('federation.signature_required', 'sign the request');
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(req.rawBody);
      } catch {
        throw invalid('federation.bad_batch', 'the batch is not UTF-8');
      }
      const range = pushedRangeOf(req.query as Record<string, unknown>);
      res.json(await receivePush(composedFor(services, federationComposed), principal.peerId, text, range));
    },
  );
  r.post(
    '/events/export',
    peerAuthentication({ services, baseUrl: ctx.baseUrl, maxBodyBytes: o.maxBodyBytes }),
    async (req, res) => {
      let body: unknown = {};
      const raw = req.rawBody?.toString('utf8') ?? '';
      if (raw.trim() !== '')
        try {
          body = JSON.parse(raw);
        } catch {
          throw invalid('request.malformed_json', 'the request body is not valid JSON');
        }
      const q = exportQuery.safeParse(body);
      if (!q.success) throw invalid('feed.bad_query', 'since must be a sequence number ≥ 0 and limit 1–500');
      const principal = req.principal;
      if (principal?.kind !== 'peer')
        throw unauthenticated('federation.signature_required', 'sign the request');
      const fed = composedFor(services, federationComposed);
      const page = await exportEvents(fed, q.data, await relayFilterFor(fed, principal.peerId));
      // Each event goes out as the exact text we signed and stored; only the frame is serialized here.
      const events = page.events.map((e) => `{"sequence":${e.sequence},"event":${e.text}}`).join(',');
      res
        .type('application/json')
        .send(`{"events":[${events}],"head":${page.head},"hasMore":${page.hasMore}}`);
    },
  );
  // What we hold of the signing peer's own events: a peer restored from a backup asks for what it lost
  // (docs/operations.md#backup-and-restore). Its own events only, as the exact texts it signed.
  r.post(
    '/events/held',
    peerAuthentication({ services, baseUrl: ctx.baseUrl, maxBodyBytes: o.maxBodyBytes }),
    async (req, res) => {
      let body: unknown = {};
      const raw = req.rawBody?.toString('utf8') ?? '';
      if (raw.trim() !== '')
        try {
          body = JSON.parse(raw);
        } catch {
          throw invalid('request.malformed_json', 'the request body is not valid JSON');
        }
      const q = heldQuery.safeParse(body);
      if (!q.success) throw invalid('feed.bad_query', 'after must be a position ≥ 0 and limit 1–500');
      const principal = req.principal;
      if (principal?.kind !== 'peer')
        throw unauthenticated('federation.signature_required', 'sign the request');
      const held = await composedFor(services, federationComposed).federation.read.heldFrom(
        principal.peerId,
        q.data.after,
        q.data.limit,
      );
      const last = held.events.at(-1)?.position ?? q.data.after;
      res
        .type('application/json')
        .send(
          `{"events":[${held.events.map((e) => e.text).join(',')}],"next":${held.events.length === q.data.limit ? last : 'null'},"pulledUpTo":${held.pulledUpTo}}`,
        );
    },
  );
  // The relay's copy of an origin's signed manifest: public, as the origin's own manifest is.
  r.options('/origins/:origin/manifest', (_req, res) => {
    res.set(PUBLIC_CORS).sendStatus(204);
  });
  r.get('/origins/:origin/manifest', async (req, res) => {
    const origin = req.params.origin;
    if (!UUID_V1_TO_V5.test(origin)) throw notFound('federation.origin_unknown', 'no such origin here');
    res
      .set(PUBLIC_CORS)
      .set('cache-control', 'public, max-age=300')
      .type('application/json')
      .send(await servedOriginManifest(composedFor(services, federationComposed), origin));
  });
  // A peer tells the relay which origins' events it takes.
  r.post(
    '/relay/following',
    peerAuthentication({ services, baseUrl: ctx.baseUrl, maxBodyBytes: 64 * 1024 }),
    async (req, res) => {
      const principal = req.principal;
      if (principal?.kind !== 'peer')
        throw unauthenticated('federation.signature_required', 'sign the request');
      let body: unknown;
      try {
        body = JSON.parse(req.rawBody?.toString('utf8') ?? '');
      } catch {
        throw invalid('request.malformed_json', 'the request body is not valid JSON');
      }
      res.json({
        following: await receivePeerFollowing(
          composedFor(services, federationComposed),
          principal.peerId,
          body,
        ),
      });
    },
  );
  return r;
}

const PUBLIC_CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
