// The operator's view of federation: every peer counted by state with how far sync lags, and a page of
// peers (peer-page.ts) each with its push and pull cursors — where each stands, how far behind, the last
// error and when the next attempt comes — and how often it equivocated (GET /api/federation/status for
// the operator, `tributary federation status`).
import { RELAY_FOLLOW_MODES } from '@tributary/domain';
import { z } from 'zod';
import { defineFederationOperation } from './federation-operation.js';
import { PEER_STATES, pageOfPeers, peerPageInput, peerPageQuery, peerSummaryOutput } from './peer-page.js';
import type { SyncCursor } from './ports/federation.js';

const cursorOutput = z.object({
  position: z.number(),
  backlog: z.number().nullable().describe('push: our feed events past the cursor'),
  peerHead: z.number().nullable().describe('pull: the peer’s head when it last answered'),
  attempts: z.number().describe('consecutive failures'),
  nextAttemptAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastErrorCode: z.string().nullable(),
  lastError: z.string().nullable(),
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.number(),
  lastRejection: z.string().nullable(),
  replayingHistory: z.boolean(),
});

const gapOutput = z.object({
  stream: z.string(),
  fromVersion: z.number(),
  toVersion: z.number(),
  state: z.enum(['open', 'filled', 'not_public']),
  detectedAt: z.string(),
  resolvedAt: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
});

/** At most this many gaps are listed per origin. */
const STATUS_GAPS = 20;

export const federationStatusOutput = z.object({
  sync: z.enum(['bullmq', 'in-process', 'off']),
  relay: z
    .object({
      following: z.object({
        mode: z.enum(RELAY_FOLLOW_MODES),
        origins: z.array(z.string()).describe('list: the origins listed; people: the origins followed here'),
      }),
      origins: z.array(
        z.object({
          origin: z.string(),
          name: z.string(),
          baseUrl: z.string(),
          keys: z.array(
            z.object({
              keyId: z.string(),
              source: z.string(),
              validUntil: z.string().nullable(),
              pinnedAt: z.string(),
            }),
          ),
          equivocations: z
            .object({ count: z.number(), lastDetectedAt: z.string().nullable() })
            .describe(
              'times the origin signed two different events at one version (svc.federation.equivocations)',
            ),
          gaps: z
            .object({
              open: z.number(),
              filled: z.number(),
              notPublic: z.number(),
              recent: z.array(gapOutput),
            })
            .describe(
              'runs of the origin’s stream versions a relay skipped, and what the origin said of them',
            ),
        }),
      ),
    })
    .describe('origins known only through a relay: their pinned keys and the gaps in their chains'),
  summary: peerSummaryOutput,
  next: z.string().nullable().describe('give it as `after` for the next page of peers; null on the last'),
  peers: z.array(
    z.object({
      peerId: z.string(),
      name: z.string(),
      baseUrl: z.string(),
      role: z.string(),
      blocked: z.boolean(),
      state: z.enum(PEER_STATES),
      push: cursorOutput.nullable(),
      pull: cursorOutput.nullable(),
      equivocations: z
        .object({ count: z.number(), lastDetectedAt: z.string().nullable() })
        .describe(
          'times the peer signed two different events at one version of a stream (svc.federation.equivocations)',
        ),
    }),
  ),
});

const view = (c: SyncCursor | undefined) =>
  c
    ? {
        position: c.position,
        backlog: c.backlog ?? null,
        peerHead: c.peerHead,
        attempts: c.attempts,
        nextAttemptAt: c.nextAttemptAt.toISOString(),
        lastAttemptAt: c.lastAttemptAt?.toISOString() ?? null,
        lastSuccessAt: c.lastSuccessAt?.toISOString() ?? null,
        lastErrorCode: c.lastErrorCode,
        lastError: c.lastError,
        accepted: c.accepted,
        duplicates: c.duplicates,
        rejected: c.rejected,
        lastRejection: c.lastRejection,
        replayingHistory: c.replayingHistory,
      }
    : null;

export const federationStatus = defineFederationOperation({
  name: 'svc.federation.status',
  title: 'Federation status',
  description:
    'Every peer counted by state with the sync lag, and a page of peers with their push and pull sync cursors: position, backlog, last success, last error, next attempt.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject(peerPageInput),
  output: federationStatusOutput,
  async run(ctx, input) {
    const fed = ctx.services.federation;
    const q = peerPageQuery(input);
    const [rows, summary] = await Promise.all([
      fed.read.peerPage({ ...q, limit: q.limit + 1 }),
      fed.read.peerSummary(),
    ]);
    const { page: peers, next } = pageOfPeers(rows, q.limit);
    const [cursors, equivocations, following, origins, gaps] = await Promise.all([
      fed.cursors?.listFor(peers.map((p) => p.peerId)) ?? [],
      fed.store.equivocationCounts(),
      fed.read.relayFollowing(),
      fed.read.relayOrigins(),
      fed.store.gaps({ limit: 10_000 }),
    ]);
    const gapsOf = (origin: string) => {
      const mine = gaps.filter((g) => g.origin === origin);
      const count = (state: string) => mine.filter((g) => g.state === state).length;
      return {
        open: count('open'),
        filled: count('filled'),
        notPublic: count('not_public'),
        recent: mine.slice(-STATUS_GAPS).map((g) => ({
          stream: g.stream,
          fromVersion: g.fromVersion,
          toVersion: g.toVersion,
          state: g.state,
          detectedAt: g.detectedAt.toISOString(),
          resolvedAt: g.resolvedAt?.toISOString() ?? null,
          attempts: g.attempts,
          lastError: g.lastError,
        })),
      };
    };
    const of = (peerId: string, direction: string) =>
      cursors.find((c) => c.peerId === peerId && c.direction === direction);
    return {
      sync: fed.syncMode ?? 'off',
      relay: {
        following:
          following.following.mode === 'people'
            ? { mode: 'people' as const, origins: await fed.read.followedOrigins() }
            : following.following,
        origins: origins.map((o) => ({
          origin: o.origin,
          name: o.name,
          baseUrl: o.baseUrl,
          keys: o.keys.map((k) => ({
            keyId: k.keyId,
            source: k.source,
            validUntil: k.validUntil,
            pinnedAt: k.pinnedAt,
          })),
          equivocations: {
            count: equivocations.get(o.origin)?.count ?? 0,
            lastDetectedAt: equivocations.get(o.origin)?.lastDetectedAt.toISOString() ?? null,
          },
          gaps: gapsOf(o.origin),
        })),
      },
      summary,
      next,
      peers: peers.map((p) => ({
        peerId: p.peerId,
        name: p.name,
        baseUrl: p.baseUrl,
        role: p.role,
        blocked: p.blocked,
        state: p.state,
        push: view(of(p.peerId, 'push')),
        pull: view(of(p.peerId, 'pull')),
        equivocations: {
          count: equivocations.get(p.peerId)?.count ?? 0,
          lastDetectedAt: equivocations.get(p.peerId)?.lastDetectedAt.toISOString() ?? null,
        },
      })),
    };
  },
});
