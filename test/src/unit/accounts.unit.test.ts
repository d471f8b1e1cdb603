// Accounts operations (sign-up, sign-in) on the real pipeline over the in-memory log.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, UNIT_PASSWORD } from './given-when-then.js';

const anonymous = { kind: 'anonymous' } as const;

describe('svc.auth.sign_up', () => {
  test('given a new global instance, when the first person signs up, then they get a handle, an agent, an account, the operator role and a session', async () => {
    const t = await unitInstance();
    const r = await t.when<{ accountId: string; agentId: string; operator: boolean }>(
      'svc.auth.sign_up',
      { email: 'Ada@Example.org', handle: 'ada', password: UNIT_PASSWORD },
      anonymous,
    );
    const answer = r.thenEvents([
      { type: 'email.claimed' },
      { type: 'handle.claimed', stream: 'handle-ada' },
      { type: 'agent.created', data: { kind: 'person', name: 'ada', handle: 'ada' } },
      { type: 'account.registered', data: { email: 'ada@example.org', handle: 'ada' } },
      { type: 'instance.controller_granted', stream: 'instance', data: { reason: 'first_account' } },
      { type: 'session.started' },
    ]);
    assert.equal(answer.operator, true);
    assert.notEqual(r.events[3]!.data.passwordHash, UNIT_PASSWORD, 'the password is stored hashed');
  });

  test('given an operator already, when a second person signs up, then no operator role', async () => {
    const t = await unitInstance();
    await t.signUp('ada');
    (await t.when('svc.auth.sign_up', { handle: 'bob', password: UNIT_PASSWORD }, anonymous)).thenEvents([
      { type: 'handle.claimed' },
      { type: 'agent.created' },
      { type: 'account.registered' },
      { type: 'session.started' },
    ]);
  });

  test('given a person instance, when its first account signs up, then the primary agent becomes that person (renamed), not a new agent', async () => {
    const t = await unitInstance({ role: 'person' });
    const r = await t.when<{ agentId: string; instancePerson: boolean }>(
      'svc.auth.sign_up',
      { handle: 'ada', password: UNIT_PASSWORD, name: 'Ada' },
      anonymous,
    );
    const answer = r.thenEvents([
      { type: 'handle.claimed' },
      { type: 'agent.profile_updated', stream: `agent-${t.primaryAgentId}`, data: { name: 'Ada' } },
      { type: 'account.registered', data: { agentId: t.primaryAgentId } },
      { type: 'instance.controller_granted' },
      { type: 'session.started' },
    ]);
    assert.equal(answer.agentId, t.primaryAgentId);
    assert.equal(answer.instancePerson, true);
  });

  test('given a handle or an email already taken, then agent.handle_taken or account.email_taken and nothing is written', async () => {
    const t = await unitInstance();
    await t.when(
      'svc.auth.sign_up',
      { email: 'ada@example.org', handle: 'ada', password: UNIT_PASSWORD },
      anonymous,
    );
    (await t.when('svc.auth.sign_up', { handle: 'ada', password: UNIT_PASSWORD }, anonymous)).thenError(
      'agent.handle_taken',
    );
    (
      await t.when('svc.auth.sign_up', { email: 'ADA@example.org', password: UNIT_PASSWORD }, anonymous)
    ).thenError('account.email_taken');
  });

  test('given neither email nor handle, then account.identifier_required; given a short password, then input.invalid', async () => {
    const t = await unitInstance();
    (await t.when('svc.auth.sign_up', { password: UNIT_PASSWORD }, anonymous)).thenError(
      'account.identifier_required',
    );
    (await t.when('svc.auth.sign_up', { handle: 'ada', password: 'short' }, anonymous)).thenError(
      'input.invalid',
    );
  });
});

describe('svc.auth.sign_in', () => {
  test('given an account, when it signs in with its handle and password, then a session starts for it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.auth.sign_in', { identifier: 'ada', password: UNIT_PASSWORD }, anonymous)).thenEvents([
      { type: 'session.started', data: { accountId: ada.accountId } },
    ]);
  });

  test('given a wrong password or an unknown account, then the same auth.invalid_credentials and nothing is written', async () => {
    const t = await unitInstance();
    await t.signUp('ada');
    (
      await t.when('svc.auth.sign_in', { identifier: 'ada', password: 'wrong password' }, anonymous)
    ).thenError('auth.invalid_credentials');
    (
      await t.when('svc.auth.sign_in', { identifier: 'nobody', password: UNIT_PASSWORD }, anonymous)
    ).thenError('auth.invalid_credentials');
  });
});

describe('svc.account.set_discoverable', () => {
  test('given a person, when they opt out of discovery, then the choice is recorded once; the same choice again writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.account.set_discoverable', { discoverable: true }, ada.principal)).thenEvents([]);
    (await t.when('svc.account.set_discoverable', { discoverable: false }, ada.principal)).thenEvents([
      { type: 'account.discovery_set', stream: `account-${ada.accountId}`, data: { discoverable: false } },
    ]);
    (await t.when('svc.account.set_discoverable', { discoverable: false }, ada.principal)).thenEvents([]);
    (await t.when('svc.account.set_discoverable', { discoverable: 'no' }, ada.principal)).thenError(
      'input.invalid',
    );
  });
});

describe('svc.account.set_time_zone', () => {
  test('given a person, when they choose a zone, then it is recorded once; the same again writes nothing, and null hands it back to the browser', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.account.set_time_zone', { timeZone: null }, ada.principal)).thenEvents([]);
    (await t.when('svc.account.set_time_zone', { timeZone: 'Europe/Paris' }, ada.principal)).thenEvents([
      {
        type: 'account.time_zone_set',
        stream: `account-${ada.accountId}`,
        data: { timeZone: 'Europe/Paris' },
      },
    ]);
    (await t.when('svc.account.set_time_zone', { timeZone: 'Europe/Paris' }, ada.principal)).thenEvents([]);
    (await t.when('svc.account.set_time_zone', { timeZone: 'UTC' }, ada.principal)).thenEvents([
      { type: 'account.time_zone_set', data: { timeZone: 'UTC' } },
    ]);
    (await t.when('svc.account.set_time_zone', { timeZone: null }, ada.principal)).thenEvents([
      { type: 'account.time_zone_set', data: { timeZone: null } },
    ]);
  });

  test('given a person, when they name a zone that is not in the list (unknown, an alias, another spelling), then account.time_zone_unknown and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    for (const timeZone of ['Mars/Olympus', 'US/Pacific', 'utc', 'europe/paris', '', '+01:00'])
      (await t.when('svc.account.set_time_zone', { timeZone }, ada.principal)).thenError(
        'account.time_zone_unknown',
      );
    (await t.when('svc.account.set_time_zone', { timeZone: 3 }, ada.principal)).thenError('input.invalid');
    (await t.when('svc.account.set_time_zone', {}, ada.principal)).thenError('input.invalid');
  });

  test('given two people, when one chooses a zone, then only their own account holds it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bea = await t.signUp('bea');
    (await t.when('svc.account.set_time_zone', { timeZone: 'Asia/Tokyo' }, ada.principal)).thenEvents([
      { type: 'account.time_zone_set', stream: `account-${ada.accountId}` },
    ]);
    assert.equal((await t.services.accounts.read.accountById(ada.accountId))?.timeZone, 'Asia/Tokyo');
    assert.equal((await t.services.accounts.read.accountById(bea.accountId))?.timeZone, null);
  });
});
