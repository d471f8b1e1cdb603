// Instance and operator operations on the real pipeline over the in-memory log.
import { initializeInstance } from '@tributary/services';
import { publicKeyBase64url } from '@tributary/infra';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

describe('instance', () => {
  test('given a new log, when initialized, then instance.initialized and the primary agent; initializing again changes nothing', async () => {
    const t = await unitInstance({ role: 'group' });
    assert.deepEqual(
      t.store.all().map((e) => [e.type, e.stream]),
      [
        ['instance.initialized', 'instance'],
        ['agent.created', `agent-${t.primaryAgentId}`],
      ],
    );
    const instance = await t.services.instance.read.get();
    assert.equal(instance?.role, 'group');
    assert.equal(instance?.instanceId, t.services.signer.origin);
    const again = await initializeInstance(t.services, {
      role: 'group',
      name: 'Unit',
      baseUrl: 'https://unit.tributary.test',
      publicKey: publicKeyBase64url(t.key.publicKey),
    });
    assert.equal(again.created, false);
    assert.equal(t.store.all().length, 2);
  });

  test('given an initialized instance, when started with another role, then instance.role_mismatch', async () => {
    const t = await unitInstance({ role: 'group' });
    await assert.rejects(
      initializeInstance(t.services, {
        role: 'person',
        name: 'Unit',
        baseUrl: 'https://unit.tributary.test',
        publicKey: publicKeyBase64url(t.key.publicKey),
      }),
      (e: { code?: string }) => e.code === 'instance.role_mismatch',
    );
  });

  test('given the operator, when they read the instance context, then it names the instance and writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const context = (
      await t.when<Record<string, unknown>>('svc.instance.context', {}, ada.principal)
    ).thenEvents([]);
    assert.ok(JSON.stringify(context).includes(t.services.signer.origin));
  });
});

describe('svc.admin.grant_controller and move_controller', () => {
  test('given the operator, when they grant the role to another account by handle, then instance.controller_granted for it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, ada.principal)).thenEvents([
      {
        type: 'instance.controller_granted',
        stream: 'instance',
        data: { accountId: bob.accountId, agentId: bob.agentId, reason: 'admin' },
      },
    ]);
    assert.deepEqual((await t.services.instance.read.get())?.controllers, [ada.accountId, bob.accountId]);
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, ada.principal)).thenError(
      'instance.already_controller',
    );
  });

  test('given an account that is not an operator, then auth.controller_only; given an unknown account, then account.not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.admin.grant_controller', { account: 'bob' }, bob.principal)).thenError(
      'auth.controller_only',
    );
    (await t.when('svc.admin.grant_controller', { account: 'nobody' }, ada.principal)).thenError(
      'account.not_found',
    );
  });

  test('given the operator, when they move the role to another account, then granted and revoked in one commit, and the former operator may no longer run it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.admin.move_controller', { from: 'ada', to: 'bob' }, ada.principal)).thenEvents([
      { type: 'instance.controller_granted', data: { accountId: bob.accountId } },
      { type: 'instance.controller_revoked', data: { accountId: ada.accountId } },
    ]);
    assert.deepEqual((await t.services.instance.read.get())?.controllers, [bob.accountId]);
    (await t.when('svc.admin.move_controller', { from: 'bob', to: 'ada' }, ada.principal)).thenError(
      'auth.controller_only',
    );
  });
});
