// The admin area (grant and move the operator role) on the real pipeline over the in-memory log:
// validation, permission and domain codes beside the success cases in instance.unit.test.ts.
import type { Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount } from './given-when-then.js';

function tokenOf(account: UnitAccount, scopes: readonly string[]): Principal {
  return { kind: 'token', jti: 'j', accountId: account.accountId, agentId: account.agentId, scopes };
}

describe('svc.admin.grant_controller', () => {
  test('given the operator, when they name the account by its id, then instance.controller_granted for it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const result = (
      await t.when('svc.admin.grant_controller', { account: bob.accountId }, ada.principal)
    ).thenEvents([
      {
        type: 'instance.controller_granted',
        stream: 'instance',
        data: { accountId: bob.accountId, agentId: bob.agentId, reason: 'admin' },
      },
    ]);
    assert.deepEqual(result, { accountId: bob.accountId, controller: true });
  });

  test('given the new operator, when they grant the role in turn, then it is theirs to grant', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const cyd = await t.signUp('cyd');
    await t.when('svc.admin.grant_controller', { account: 'bob' }, ada.principal);
    (await t.when('svc.admin.grant_controller', { account: 'cyd' }, bob.principal)).thenEvents([
      { type: 'instance.controller_granted', data: { accountId: cyd.accountId } },
    ]);
    assert.deepEqual((await t.services.instance.read.get())?.controllers, [
      ada.accountId,
      bob.accountId,
      cyd.accountId,
    ]);
  });

  test('given input outside the schema (empty, longer than 254, an unknown member, missing), then input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await t.signUp('bob');
    for (const input of [{ account: '' }, { account: 'b'.repeat(255) }, { account: 'bob', extra: 1 }, {}])
      (await t.when('svc.admin.grant_controller', input, ada.principal)).thenError('input.invalid');
  });

  test('given the operator on a token, then svc.admin is the scope it needs: auth.insufficient_scope without it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (
      await t.when('svc.admin.grant_controller', { account: 'bob' }, tokenOf(ada, ['svc.profile.read']))
    ).thenError('auth.insufficient_scope');
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, tokenOf(ada, ['svc.admin']))).thenEvents([
      { type: 'instance.controller_granted', data: { accountId: bob.accountId } },
    ]);
  });

  test('given a non-operator with the svc.admin scope, then auth.controller_only; anonymous, auth.required; a static key, auth.controller_only', async () => {
    const t = await unitInstance();
    await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, tokenOf(bob, ['svc.admin']))).thenError(
      'auth.controller_only',
    );
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, { kind: 'anonymous' })).thenError(
      'auth.required',
    );
    const staticKey: Principal = { kind: 'static', agentId: t.primaryAgentId, scopes: ['svc.admin'] };
    // A static key has no account, so it is never an operator, whatever its scopes.
    for (const surface of ['http', 'mcp'] as const)
      (await t.when('svc.admin.grant_controller', { account: 'bob' }, staticKey, { surface })).thenError(
        'auth.controller_only',
      );
  });
});

describe('svc.admin.move_controller', () => {
  test('given the operator, when they move the role by account ids, then the result names both and the instance has only the new operator', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const result = (
      await t.when('svc.admin.move_controller', { from: ada.accountId, to: bob.accountId }, ada.principal)
    ).thenEvents([
      {
        type: 'instance.controller_granted',
        data: { accountId: bob.accountId, agentId: bob.agentId, reason: 'admin' },
      },
      { type: 'instance.controller_revoked', data: { accountId: ada.accountId } },
    ]);
    assert.deepEqual(result, { from: ada.accountId, to: bob.accountId });
    (await t.when('svc.admin.grant_controller', { account: 'ada' }, bob.principal)).thenEvents([
      { type: 'instance.controller_granted', data: { accountId: ada.accountId } },
    ]);
  });

  test("given two operators, when one moves the other's role to a third, then only that one is replaced", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const cyd = await t.signUp('cyd');
    await t.when('svc.admin.grant_controller', { account: 'bob' }, ada.principal);
    (await t.when('svc.admin.move_controller', { from: 'bob', to: 'cyd' }, ada.principal)).thenEvents([
      { type: 'instance.controller_granted', data: { accountId: cyd.accountId } },
      { type: 'instance.controller_revoked', data: { accountId: bob.accountId } },
    ]);
    assert.deepEqual((await t.services.instance.read.get())?.controllers, [ada.accountId, cyd.accountId]);
  });

  test('given a "to" that already operates, then instance.already_controller; a "from" that does not, instance.not_controller; both write nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await t.signUp('bob');
    await t.signUp('cyd');
    (await t.when('svc.admin.move_controller', { from: 'ada', to: 'ada' }, ada.principal)).thenError(
      'instance.already_controller',
    );
    (await t.when('svc.admin.move_controller', { from: 'bob', to: 'cyd' }, ada.principal)).thenError(
      'instance.not_controller',
    );
  });

  test('given an unknown account on either side, then account.not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await t.signUp('bob');
    (await t.when('svc.admin.move_controller', { from: 'nobody', to: 'bob' }, ada.principal)).thenError(
      'account.not_found',
    );
    (
      await t.when('svc.admin.move_controller', { from: 'ada', to: 'nobody@example.com' }, ada.principal)
    ).thenError('account.not_found');
  });

  test('given input outside the schema, then input.invalid; given a non-operator, auth.controller_only', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    for (const input of [
      { from: 'ada' },
      { from: '', to: 'bob' },
      { from: 'ada', to: 'b'.repeat(255) },
      { from: 'ada', to: 'bob', why: 'x' },
    ])
      (await t.when('svc.admin.move_controller', input, ada.principal)).thenError('input.invalid');
    (await t.when('svc.admin.move_controller', { from: 'ada', to: 'bob' }, bob.principal)).thenError(
      'auth.controller_only',
    );
  });
});

describe('svc.admin.disable_account and enable_account', () => {
  test('given an operator, when they disable an account, then account.disabled with the session it held ended; enabling writes account.enabled', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const result = (
      await t.when('svc.admin.disable_account', { account: 'bob', reason: 'spam' }, ada.principal)
    ).thenEvents([
      { type: 'account.disabled', stream: `account-${bob.accountId}`, data: { reason: 'spam' } },
      { type: 'session.ended', data: { reason: 'revoked' } },
      { type: 'sso.authority_revoked' },
    ]);
    assert.deepEqual(result, {
      accountId: bob.accountId,
      disabled: true,
      alreadyDisabled: false,
      sessionsEnded: 1,
      tokensRevoked: 0,
      grantsRevoked: 0,
    });
    (await t.when('svc.admin.disable_account', { account: 'bob' }, ada.principal)).thenEvents([]);
    (await t.when('svc.admin.enable_account', { account: 'bob' }, ada.principal)).thenEvents([
      { type: 'account.enabled', stream: `account-${bob.accountId}` },
    ]);
  });

  test('given refusals, then an operator’s account, an unknown one, a non-operator and a token without svc.admin get their codes', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.admin.disable_account', { account: 'ada' }, ada.principal)).thenError(
      'account.is_operator',
    );
    (await t.when('svc.admin.disable_account', { account: 'nobody' }, ada.principal)).thenError(
      'account.not_found',
    );
    (await t.when('svc.admin.disable_account', { account: 'ada' }, bob.principal)).thenError(
      'auth.controller_only',
    );
    (
      await t.when('svc.admin.disable_account', { account: 'bob' }, tokenOf(ada, ['svc.profile.read']))
    ).thenError('auth.insufficient_scope');
  });
});
