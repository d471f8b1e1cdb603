// The connected assistant account's stream: sign-ins start, end or connect once; refresh and disconnect
// need a connected account; the fold keeps what the log says and no secret (none is in the events).
import {
  connectedAccountStream,
  decideConnect,
  decideDisconnect,
  decideEndSignIn,
  decideRefresh,
  decideStartSignIn,
  eventDefinition,
  fold,
  type AssistantAccountState,
  type NewEvent,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const agentId = '0b1c2d3e-4f50-4617-a8b9-cadbecfd0e1f';
const stream = connectedAccountStream(agentId);
const signInId = '11111111-2222-4333-8444-555555555555';
const stateOf = (events: NewEvent[]): AssistantAccountState =>
  fold(
    stream,
    events.map((e, i): StoredEventLike => ({ type: e.type, data: e.data, streamVersion: i + 1 })),
  );
const started = decideStartSignIn({
  agentId,
  signInId,
  provider: 'provider',
  expiresAt: '2026-01-01T00:10:00.000Z',
});
const connect = {
  agentId,
  signInId,
  provider: 'provider',
  scopes: ['svc.profile.read'],
  expiresAt: '2026-01-01T01:00:00.000Z',
  connectedAt: '2026-01-01T00:00:00.000Z',
};

describe('assistant account stream', () => {
  test('given a started sign-in, when it connects, then the account is there and the sign-in is no longer pending', () => {
    const s0 = stateOf(started);
    assert.deepEqual(Object.keys(s0.pending), [signInId]);
    const connected = decideConnect(connect, s0);
    assert.deepEqual(
      connected.map((e) => [e.stream, e.type]),
      [[stream, 'assistant.account_connected']],
    );
    const s1 = stateOf([...started, ...connected]);
    assert.equal(s1.account?.provider, 'provider');
    assert.deepEqual(s1.pending, {});
    // Connecting the same sign-in twice, or one never started, is refused.
    assert.equal(
      codeOf(() => decideConnect(connect, s1)),
      'assistant.sign_in_not_found',
    );
    assert.equal(
      codeOf(() => decideConnect(connect, stateOf([]))),
      'assistant.sign_in_not_found',
    );
  });

  test('given a pending sign-in, when it is denied or expires, then it ends once', () => {
    const ended = decideEndSignIn({ agentId, signInId, outcome: 'denied' }, stateOf(started));
    assert.equal(ended[0]!.type, 'assistant.account_sign_in_ended');
    const s = stateOf([...started, ...ended]);
    assert.deepEqual(s.pending, {});
    assert.equal(
      codeOf(() => decideEndSignIn({ agentId, signInId, outcome: 'expired' }, s)),
      'assistant.sign_in_not_found',
    );
  });

  test('given no account, when refreshed or disconnected, then refused; given one, then recorded', () => {
    const none = stateOf(started);
    assert.equal(
      codeOf(() => decideDisconnect({ agentId, revocation: 'revoked' }, none)),
      'assistant.account_not_connected',
    );
    assert.equal(
      codeOf(() => decideRefresh({ agentId, refreshedAt: '2026-01-01T00:30:00.000Z' }, none)),
      'assistant.account_reconnect_needed',
    );
    const events = [...started, ...decideConnect(connect, none)];
    const refreshed = decideRefresh(
      { agentId, expiresAt: '2026-01-01T02:00:00.000Z', refreshedAt: '2026-01-01T00:59:00.000Z' },
      stateOf(events),
    );
    const s = stateOf([...events, ...refreshed]);
    assert.equal(s.account?.expiresAt, '2026-01-01T02:00:00.000Z');
    assert.equal(s.account?.refreshedAt, '2026-01-01T00:59:00.000Z');
    const gone = decideDisconnect({ agentId, revocation: 'not_offered' }, s);
    assert.equal(stateOf([...events, ...refreshed, ...gone]).account, undefined);
  });

  test('given the event schemas, then none has room for a token and none is federable or public', () => {
    for (const type of [
      'assistant.account_sign_in_started',
      'assistant.account_sign_in_ended',
      'assistant.account_connected',
      'assistant.account_refreshed',
      'assistant.account_disconnected',
    ]) {
      const d = eventDefinition(type)!;
      assert.ok(d, type);
      assert.equal(d.federable, false);
      assert.equal(d.public, false);
    }
    // Strict schemas: an extra field (a token smuggled in) is refused.
    const connected = eventDefinition('assistant.account_connected')!;
    const { agentId: _a, ...data } = connect;
    assert.equal(connected.data.safeParse(data).success, true);
    assert.equal(connected.data.safeParse({ ...data, accessToken: 'x' }).success, false);
  });
});
