// The feed as a tool, and the operator's federation views (sync status, equivocation evidence), on the
// real pipeline over the in-memory log. Sync cursors move through the cursor store's own attempt, as the
// sync runner moves them; equivocation evidence is recorded as an import records it.
import { generateSigningKey, publicKeyBase64url } from '@tributary/infra';
import type { Equivocation, Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

const FEED = 'svc.federation.read_feed';
const STATUS = 'svc.federation.status';
const EQUIVOCATIONS = 'svc.federation.equivocations';

const tokenOf = (account: UnitAccount, scopes: readonly string[]): Principal => ({
  kind: 'token',
  jti: 'j',
  accountId: account.accountId,
  agentId: account.agentId,
  scopes,
});

interface FeedAnswer {
  events: { sequence: number; event: { id: string; type: string; sig: string } }[];
  head: number;
  hasMore: boolean;
}

async function registerPeer(t: UnitInstance, operator: UnitAccount, host: string): Promise<string> {
  const peerId = randomUUID();
  await t.when(
    'svc.federation.register_peer',
    {
      peerId,
      baseUrl: `https://${host}`,
      role: 'person',
      publicKey: publicKeyBase64url(generateSigningKey().publicKey),
    },
    operator.principal,
  );
  return peerId;
}

const evidence = (origin: string, n: number, detectedAt: Date): Equivocation => ({
  origin,
  stream: `agent-${origin}`,
  streamVersion: n,
  heldEventId: `held-${n}`,
  heldEnvelope: `{"held":${n}}`,
  refusedEventId: `refused-${origin}-${n}`,
  refusedEnvelope: `{"refused":${n}}`,
  detectedAt,
});

describe('svc.federation.read_feed', () => {
  test('given an instance with a person, then only federable public events, in sequence order, each the envelope exactly as stored; pages by since and limit', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    // The log: instance.initialized, the instance's agent.created, handle.claimed, ada's agent.created,
    // account.registered, instance.controller_granted, session.started; only 1, 2 and 4 are on the feed.
    const head = t.store.all().length;
    const all = (await t.when<FeedAnswer>(FEED, {}, ada.principal)).thenEvents([]);
    assert.deepEqual(
      all.events.map((e) => [e.sequence, e.event.type]),
      [
        [1, 'instance.initialized'],
        [2, 'agent.created'],
        [4, 'agent.created'],
      ],
    );
    assert.equal(all.head, head);
    assert.equal(all.hasMore, false);
    for (const e of all.events)
      assert.deepEqual(e.event, JSON.parse(t.store.all()[e.sequence - 1]!.text), 'the stored envelope');

    const first = (await t.when<FeedAnswer>(FEED, { limit: 2 }, ada.principal)).result;
    assert.deepEqual(
      first.events.map((e) => e.sequence),
      [1, 2],
    );
    assert.equal(first.hasMore, true);
    const rest = (await t.when<FeedAnswer>(FEED, { since: 2, limit: 2 }, ada.principal)).result;
    assert.deepEqual(
      rest.events.map((e) => e.sequence),
      [4],
    );
    assert.equal(rest.hasMore, false);
    const atHead = (await t.when<FeedAnswer>(FEED, { since: head }, ada.principal)).result;
    assert.deepEqual(atHead, { events: [], head, hasMore: false });
  });

  test('given since past the head, then feed.since_after_head; limit or since outside their bounds, input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const head = t.store.all().length;
    const past = await t.when(FEED, { since: head + 1 }, ada.principal);
    past.thenError('feed.since_after_head');
    for (const input of [{ limit: 0 }, { limit: 501 }, { since: -1 }, { since: 1.5 }, { from: 0 }])
      (await t.when(FEED, input, ada.principal)).thenError('input.invalid');
    // Query strings arrive as text: numbers are read from it.
    const coerced = (await t.when<FeedAnswer>(FEED, { since: '1', limit: '1' }, ada.principal)).result;
    assert.deepEqual(
      coerced.events.map((e) => e.sequence),
      [2],
    );
  });

  test('given a token, then it needs svc.federation.read; nobody, auth.required', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when(FEED, {}, tokenOf(ada, ['svc.profile.read']))).thenError('auth.insufficient_scope');
    (await t.when(FEED, {}, tokenOf(ada, ['svc.federation.read']))).thenEvents([]);
    (await t.when(FEED, {}, { kind: 'anonymous' })).thenError('auth.required');
  });
});

describe('svc.federation.status', () => {
  test('given no peers, then the sync mode and no peers; sync is off until the runner says otherwise', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    assert.deepEqual((await t.when(STATUS, {}, operator.principal)).thenEvents([]), {
      sync: 'off',
      relay: { following: { mode: 'all', origins: [] }, origins: [] },
      summary: {
        total: 0,
        reachable: 0,
        failing: 0,
        unknown: 0,
        blocked: 0,
        lag: { pushBehind: 0, pushMaxBehind: 0, pullBehind: 0, pullMaxBehind: 0 },
      },
      next: null,
      peers: [],
    });
  });

  test('given two peers, one with a push that answered, a pull that failed and two equivocations, then each peer with its cursors, backlog and evidence count; the other with none', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const one = await registerPeer(t, operator, 'one.example');
    const two = await registerPeer(t, operator, 'two.example');
    t.federation.syncMode = 'in-process';
    const at = new Date('2030-01-02T03:04:05.000Z');
    const later = new Date('2030-01-02T03:09:05.000Z');
    await t.federation.cursors.attempt(one, 'push', at, async () => ({
      kind: 'answered',
      contacted: true,
      position: 2,
      accepted: 2,
      duplicates: 0,
      rejected: 0,
      rejection: null,
      more: false,
      idleUntil: later,
    }));
    await t.federation.cursors.attempt(one, 'pull', at, async () => ({
      kind: 'failed',
      code: 'federation.peer_unreachable',
      message: 'connection refused',
      retryAt: later,
    }));
    await t.federation.store.recordEquivocations([
      evidence(one, 1, at),
      evidence(one, 2, later),
      evidence(two, 1, at),
    ]);
    await t.federation.store.recordEquivocations([evidence(two, 1, later)]); // the same refusal again
    const feedLength = (await t.when<FeedAnswer>(FEED, {}, operator.principal)).result.events.length;
    const status = (
      await t.when<{
        sync: string;
        peers: {
          peerId: string;
          state: string;
          push: Record<string, unknown> | null;
          pull: Record<string, unknown> | null;
          equivocations: unknown;
        }[];
        summary: { total: number; failing: number; unknown: number; reachable: number };
      }>(STATUS, {}, operator.principal)
    ).thenEvents([]);
    assert.equal(status.sync, 'in-process');
    // One failing (its pull is in backoff), the other never contacted: counted so, and each page row says so.
    assert.deepEqual(
      [status.summary.total, status.summary.failing, status.summary.unknown, status.summary.reachable],
      [2, 1, 1, 0],
    );
    assert.deepEqual(
      status.peers.map((p) => [p.peerId, p.state]).sort(),
      [
        [one, 'failing'],
        [two, 'unknown'],
      ].sort(),
    );
    // Every peer once; their order (registration time, then id) is not what this test is about.
    assert.deepEqual(status.peers.map((p) => p.peerId).sort(), [one, two].sort());
    const first = status.peers.find((p) => p.peerId === one);
    const second = status.peers.find((p) => p.peerId === two);
    assert.deepEqual(first!.push, {
      position: 2,
      backlog: feedLength - 2,
      peerHead: null,
      attempts: 0,
      nextAttemptAt: later.toISOString(),
      lastAttemptAt: at.toISOString(),
      lastSuccessAt: at.toISOString(),
      lastErrorCode: null,
      lastError: null,
      accepted: 2,
      duplicates: 0,
      rejected: 0,
      lastRejection: null,
      replayingHistory: false,
    });
    assert.deepEqual(first!.pull, {
      position: 0,
      backlog: null,
      peerHead: null,
      attempts: 1,
      nextAttemptAt: later.toISOString(),
      lastAttemptAt: at.toISOString(),
      lastSuccessAt: null,
      lastErrorCode: 'federation.peer_unreachable',
      lastError: 'connection refused',
      accepted: 0,
      duplicates: 0,
      rejected: 0,
      lastRejection: null,
      replayingHistory: false,
    });
    assert.deepEqual(first!.equivocations, { count: 2, lastDetectedAt: later.toISOString() });
    assert.equal(second!.push, null);
    assert.equal(second!.pull, null);
    assert.deepEqual(second!.equivocations, { count: 1, lastDetectedAt: at.toISOString() });
  });

  test('given someone who is not the operator, then auth.controller_only; input with members, input.invalid; no federation, federation.unavailable', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when(STATUS, {}, bob.principal)).thenError('auth.controller_only');
    (await t.when(STATUS, { verbose: true }, operator.principal)).thenError('input.invalid');
    t.services.federation = undefined;
    (await t.when(STATUS, {}, operator.principal)).thenError('federation.unavailable');
  });
});

describe('svc.federation.equivocations', () => {
  test('given evidence from two peers, then it is listed oldest first with both envelopes, by peer when asked, and paged by after and limit', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const at = new Date('2030-01-02T03:04:05.000Z');
    await t.federation.store.recordEquivocations([
      evidence('origin-a', 1, at),
      evidence('origin-b', 1, at),
      evidence('origin-a', 2, at),
    ]);
    type Page = {
      equivocations: { seq: number; origin: string; refusedEventId: string; detectedAt: string }[];
      next: number | null;
    };
    const all = (await t.when<Page>(EQUIVOCATIONS, {}, operator.principal)).thenEvents([]);
    assert.deepEqual(
      all.equivocations.map((r) => [r.origin, r.refusedEventId]),
      [
        ['origin-a', 'refused-origin-a-1'],
        ['origin-b', 'refused-origin-b-1'],
        ['origin-a', 'refused-origin-a-2'],
      ],
    );
    assert.deepEqual(all.equivocations[0], {
      ...evidence('origin-a', 1, at),
      seq: all.equivocations[0]!.seq,
      detectedAt: at.toISOString(),
    });
    assert.equal(all.next, null, 'a page that is not full is the last');

    const ofA = (await t.when<Page>(EQUIVOCATIONS, { peerId: 'origin-a', limit: 1 }, operator.principal))
      .result;
    assert.deepEqual(
      ofA.equivocations.map((r) => r.refusedEventId),
      ['refused-origin-a-1'],
    );
    assert.equal(ofA.next, ofA.equivocations[0]!.seq);
    const nextOfA = (
      await t.when<Page>(
        EQUIVOCATIONS,
        { peerId: 'origin-a', after: ofA.next!, limit: 1 },
        operator.principal,
      )
    ).result;
    assert.deepEqual(
      nextOfA.equivocations.map((r) => r.refusedEventId),
      ['refused-origin-a-2'],
    );
  });

  test('given a limit or after outside their bounds, then input.invalid; someone who is not the operator, auth.controller_only', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const bob = await t.signUp('bob');
    for (const input of [{ limit: 0 }, { limit: 101 }, { after: -1 }, { peerId: '' }, { origin: 'x' }])
      (await t.when(EQUIVOCATIONS, input, operator.principal)).thenError('input.invalid');
    (await t.when(EQUIVOCATIONS, {}, bob.principal)).thenError('auth.controller_only');
  });
});
