import {
  decideEndSession,
  decideRegisterAccount,
  decideStartSession,
  fold,
  initialAccountState,
  initialClaimState,
  initialInstanceState,
  type InstanceState,
  type NewEvent,
  type RegisterAccount,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const asStored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const instanceOf = (
  role: InstanceState['role'],
  controllers: InstanceState['controllers'] = [],
): InstanceState => ({
  ...initialInstanceState(),
  initialized: true,
  instanceId: 'i-1',
  role,
  primaryAgentId: 'primary',
  controllers,
});
const cmd: RegisterAccount = {
  accountId: 'acc-1',
  newAgentId: 'agent-1',
  name: 'Ada',
  email: 'ada@example.org',
  emailDigest: 'd1',
  handle: 'ada',
  passwordHash: '$2b$hash',
};
const fresh = (instance: InstanceState) => ({
  instance,
  account: initialAccountState(),
  emailClaim: initialClaimState(),
  handleClaim: initialClaimState(),
});

describe('registering an account', () => {
  test('given a fresh group instance, when the first account registers, then it gets a person agent and becomes controller', () => {
    const events = decideRegisterAccount(cmd, fresh(instanceOf('group')));
    assert.deepEqual(
      events.map((e) => [e.stream, e.type]),
      [
        ['email-d1', 'email.claimed'],
        ['handle-ada', 'handle.claimed'],
        ['agent-agent-1', 'agent.created'],
        ['account-acc-1', 'account.registered'],
        ['instance', 'instance.controller_granted'],
      ],
    );
    assert.deepEqual(events.at(-1)!.data, {
      accountId: 'acc-1',
      agentId: 'agent-1',
      reason: 'first_account',
    });
  });

  test('given a fresh person instance, when the first account registers, then it takes the primary agent as its own', () => {
    const events = decideRegisterAccount(cmd, fresh(instanceOf('person')));
    assert.ok(!events.some((e) => e.type === 'agent.created'));
    const profile = events.find((e) => e.type === 'agent.profile_updated')!;
    assert.equal(profile.stream, 'agent-primary');
    assert.deepEqual(profile.data, { name: 'Ada', handle: 'ada' });
    assert.equal(
      (events.find((e) => e.type === 'account.registered')!.data as { agentId: string }).agentId,
      'primary',
    );
  });

  test('given an instance with a controller, when another account registers, then it is not granted control', () => {
    const events = decideRegisterAccount(
      cmd,
      fresh(instanceOf('person', [{ accountId: 'x', agentId: 'primary' }])),
    );
    assert.ok(!events.some((e) => e.type === 'instance.controller_granted'));
    assert.ok(events.some((e) => e.type === 'agent.created'));
  });

  test('given a claimed email or handle, when registering with it, then account.email_taken / agent.handle_taken', () => {
    const s = fresh(instanceOf('group'));
    assert.equal(
      codeOf(() => decideRegisterAccount(cmd, { ...s, emailClaim: { claimed: true } })),
      'account.email_taken',
    );
    assert.equal(
      codeOf(() => decideRegisterAccount(cmd, { ...s, handleClaim: { claimed: true } })),
      'agent.handle_taken',
    );
  });

  test('given neither email nor handle, then account.identifier_required', () => {
    const s = fresh(instanceOf('group'));
    assert.equal(
      codeOf(() => decideRegisterAccount({ ...cmd, email: undefined, handle: undefined }, s)),
      'account.identifier_required',
    );
  });

  test('given an uninitialized instance, then instance.not_initialized', () => {
    assert.equal(
      codeOf(() => decideRegisterAccount(cmd, fresh(initialInstanceState()))),
      'instance.not_initialized',
    );
  });
});

describe('sessions', () => {
  const account = fold<ReturnType<typeof initialAccountState>>(
    'account-acc-1',
    asStored([
      {
        stream: 'account-acc-1',
        type: 'account.registered',
        data: { accountId: 'acc-1', agentId: 'a', passwordHash: 'h' },
      },
    ]),
  );
  const start = {
    sessionId: 's1',
    tokenHash: 'th',
    expiresAt: '2030-01-01T00:00:00Z',
    passwordMatches: true,
  };

  test('given a registered account and a matching password, when starting a session, then session.started', () => {
    const [e] = decideStartSession(start, account);
    assert.equal(e!.type, 'session.started');
    assert.equal(e!.stream, 'session-s1');
  });

  test('given a wrong password or an unknown account, then the same auth.invalid_credentials', () => {
    assert.equal(
      codeOf(() => decideStartSession({ ...start, passwordMatches: false }, account)),
      'auth.invalid_credentials',
    );
    assert.equal(
      codeOf(() => decideStartSession(start, initialAccountState())),
      'auth.invalid_credentials',
    );
  });

  test('given an ended session, when ending it again, then nothing happens', () => {
    const ended = fold<{ exists: boolean; ended: boolean }>(
      'session-s1',
      asStored([
        {
          stream: 'session-s1',
          type: 'session.started',
          data: { sessionId: 's1', accountId: 'acc-1', tokenHash: 'x', expiresAt: 'y' },
        },
        { stream: 'session-s1', type: 'session.ended', data: { reason: 'sign_out' } },
      ]),
    );
    assert.deepEqual(decideEndSession('s1', 'sign_out', { ...ended }), []);
  });
});
