// Agents operations (personas and profiles) on the real pipeline over the in-memory log.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, UNIT_PASSWORD } from './given-when-then.js';

describe('svc.agent.create_persona', () => {
  test('given a person, when they create a persona with a handle, then the handle is claimed and the persona is created, owned by them', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const r = await t.when<{ agentId: string }>(
      'svc.agent.create_persona',
      { name: 'Ada the cook', handle: 'ada_cooks' },
      ada.principal,
    );
    const persona = r.thenEvents([
      { type: 'handle.claimed', stream: 'handle-ada_cooks', data: { handle: 'ada_cooks' } },
      {
        type: 'agent.created',
        data: { kind: 'persona', name: 'Ada the cook', handle: 'ada_cooks', ownerAgentId: ada.agentId },
      },
    ]);
    assert.equal(r.events[1]!.stream, `agent-${persona.agentId}`);
  });

  test('given a handle already claimed, when another persona asks for it, then agent.handle_taken and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.agent.create_persona', { name: 'First', handle: 'taken' }, ada.principal)).thenEvents([
      { type: 'handle.claimed' },
      { type: 'agent.created' },
    ]);
    (await t.when('svc.agent.create_persona', { name: 'Second', handle: 'taken' }, ada.principal)).thenError(
      'agent.handle_taken',
    );
  });

  test('given a persona, when it is asked to own a persona, then agent.persona_cannot_own', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    (
      await t.when(
        'svc.agent.create_persona',
        { targetAgentId: persona.agentId, name: 'Sous-chef' },
        ada.principal,
      )
    ).thenError('agent.persona_cannot_own');
  });

  test('given a name past the schema, then input.invalid and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.agent.create_persona', { name: 'x'.repeat(500) }, ada.principal)).thenError(
      'input.invalid',
    );
    (await t.when('svc.agent.create_persona', { name: 'Cook', extra: 1 }, ada.principal)).thenError(
      'input.invalid',
    );
  });

  test('given no credential, then auth.required; given a token without svc.agent.write, then auth.insufficient_scope', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.agent.create_persona', { name: 'Cook' }, { kind: 'anonymous' })).thenError(
      'auth.required',
    );
    (
      await t.when(
        'svc.agent.create_persona',
        { name: 'Cook' },
        {
          kind: 'token',
          jti: 'j',
          accountId: ada.accountId,
          agentId: ada.agentId,
          scopes: ['svc.profile.read'],
        },
      )
    ).thenError('auth.insufficient_scope');
  });

  test("given someone else's agent as target, then agent.not_found (it looks like an unknown one)", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (
      await t.when('svc.agent.create_persona', { targetAgentId: bob.agentId, name: 'Cook' }, ada.principal)
    ).thenError('agent.not_found');
  });
});

describe('svc.profile.update and svc.agent.delete_persona', () => {
  test('given a profile, when only the bio changes, then one agent.profile_updated with the bio; the same update again writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.profile.update', { bio: 'Cooks.' }, ada.principal)).thenEvents([
      { type: 'agent.profile_updated', stream: `agent-${ada.agentId}`, data: { bio: 'Cooks.' } },
    ]);
    (await t.when('svc.profile.update', { bio: 'Cooks.' }, ada.principal)).thenEvents([]);
  });

  test('given an avatar URL that is not http(s), then input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.profile.update', { avatarUrl: 'javascript:alert(1)' }, ada.principal)).thenError(
      'input.invalid',
    );
  });

  test('given a persona, when its owner deletes it with the password, then agent.deleted; acting as it afterwards is agent.not_found', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    (
      await t.when(
        'svc.agent.delete_persona',
        { targetAgentId: persona.agentId, password: UNIT_PASSWORD },
        ada.principal,
      )
    ).thenEvents([{ type: 'agent.deleted', stream: `agent-${persona.agentId}` }]);
    (
      await t.when('svc.profile.update', { targetAgentId: persona.agentId, bio: 'gone' }, ada.principal)
    ).thenError('agent.not_found');
  });

  test('given a wrong password, then auth.invalid_credentials; given a person as target, then agent.not_a_persona', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    (
      await t.when(
        'svc.agent.delete_persona',
        { targetAgentId: persona.agentId, password: 'not the password' },
        ada.principal,
      )
    ).thenError('auth.invalid_credentials');
    (
      await t.when(
        'svc.agent.delete_persona',
        { targetAgentId: ada.agentId, password: UNIT_PASSWORD },
        ada.principal,
      )
    ).thenError('agent.not_a_persona');
  });

  test('given given-events that already deleted the persona, when the owner lists personas, then it is not listed', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const kept = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Kept' }, ada.principal)
    ).result;
    const gone = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Gone' }, ada.principal)
    ).result;
    await t.given(gone.agentId, [{ stream: `agent-${gone.agentId}`, type: 'agent.deleted', data: {} }]);
    const listed = (
      await t.when<{ personas: { agentId: string }[] }>('svc.agent.list_personas', {}, ada.principal)
    ).thenEvents([]);
    assert.deepEqual(
      listed.personas.map((p) => p.agentId),
      [kept.agentId],
    );
  });
});
