// Agent access operations (scoped MCP tokens) on the real pipeline over the in-memory log.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

describe('svc.tokens.issue, list and revoke', () => {
  test('given a person, when they issue a token for a persona, then mcp_token.issued bound to it with the scopes sorted and deduplicated', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const r = await t.when<{ jti: string; token: string }>(
      'svc.tokens.issue',
      {
        targetAgentId: persona.agentId,
        label: 'kitchen bot',
        scopes: ['svc.profile.write', 'svc.profile.read', 'svc.profile.read'],
      },
      ada.principal,
    );
    const issued = r.thenEvents([
      {
        type: 'mcp_token.issued',
        data: {
          accountId: ada.accountId,
          agentId: ada.agentId,
          personaId: persona.agentId,
          scopes: ['svc.profile.read', 'svc.profile.write'],
          label: 'kitchen bot',
        },
      },
    ]);
    assert.equal(r.events[0]!.data.jti, issued.jti);
    const verified = await t.services.tokens.accessTokens!.verify(issued.token, t.clock.now());
    assert.equal(verified.jti, issued.jti);
    assert.equal(verified.sub, ada.accountId);
  });

  test('given a person who is not an operator, when they ask for svc.admin, then token.scope_not_grantable; the operator may', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const bob = await t.signUp('bob');
    (await t.when('svc.tokens.issue', { label: 'x', scopes: ['svc.admin'] }, bob.principal)).thenError(
      'token.scope_not_grantable',
    );
    (await t.when('svc.tokens.issue', { label: 'x', scopes: ['svc.admin'] }, operator.principal)).thenEvents([
      { type: 'mcp_token.issued', data: { scopes: ['svc.admin'] } },
    ]);
  });

  test('given no scopes at all, when a person asks for a token, then token.scopes_required and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.tokens.issue', { label: 'does nothing', scopes: [] }, ada.principal)).thenError(
      'token.scopes_required',
    );
  });

  test('given a token principal, when it asks to issue a token, then token.session_required', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (
      await t.when(
        'svc.tokens.issue',
        { label: 'x', scopes: ['svc.profile.read'] },
        {
          kind: 'token',
          jti: 'j',
          accountId: ada.accountId,
          agentId: ada.agentId,
          scopes: ['svc.tokens.write'],
        },
      )
    ).thenError('token.session_required');
  });

  test('given an issued token, when its owner revokes it, then mcp_token.revoked once; again writes nothing; the list shows it revoked', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { jti } = (
      await t.when<{ jti: string }>(
        'svc.tokens.issue',
        { label: 'x', scopes: ['svc.profile.read'] },
        ada.principal,
      )
    ).result;
    (await t.when('svc.tokens.revoke', { jti }, ada.principal)).thenEvents([
      { type: 'mcp_token.revoked', data: { jti, reason: 'owner' } },
    ]);
    const again = (
      await t.when<{ alreadyRevoked: boolean }>('svc.tokens.revoke', { jti }, ada.principal)
    ).thenEvents([]);
    assert.equal(again.alreadyRevoked, true);
    const list = (
      await t.when<{ tokens: { jti: string; status: string }[] }>('svc.tokens.list', {}, ada.principal)
    ).thenEvents([]);
    assert.deepEqual(
      list.tokens.map((x) => [x.jti, x.status]),
      [[jti, 'revoked']],
    );
  });

  test("given someone else's token, when revoked, then token.not_found, as for a jti that does not exist", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const { jti } = (
      await t.when<{ jti: string }>(
        'svc.tokens.issue',
        { label: 'x', scopes: ['svc.profile.read'] },
        ada.principal,
      )
    ).result;
    (await t.when('svc.tokens.revoke', { jti }, bob.principal)).thenError('token.not_found');
    (await t.when('svc.tokens.revoke', { jti: crypto.randomUUID() }, bob.principal)).thenError(
      'token.not_found',
    );
    (await t.when('svc.tokens.revoke', { jti: 'not-a-uuid' }, bob.principal)).thenError('input.invalid');
  });
});
