import {
  decideIssueToken,
  decideRevokeToken,
  fold,
  initialMcpTokenState,
  isDomainError,
  mcpTokenStream,
  REDACTED,
  scopeGrantable,
  summarizeArguments,
  type IssueToken,
  type McpTokenState,
  type NewEvent,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const cmd: IssueToken = {
  jti: 'jti-1',
  accountId: 'acc-1',
  agentId: 'agent-1',
  scopes: ['svc.profile.read', 'svc.audit.read', 'svc.profile.read'],
  audience: 'https://i.example/api/mcp',
  label: 'my agent',
  expiresAt: '2030-01-01T00:00:00.000Z',
};
const person = { isInstanceController: false };
const asStored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(isDomainError(e));
    return e.code;
  }
  assert.fail('no error');
};

describe('scoped MCP tokens', () => {
  test('given grantable scopes, when a token is issued, then one private record event with sorted, distinct scopes', () => {
    const [event, ...rest] = decideIssueToken(cmd, initialMcpTokenState(), person);
    assert.equal(rest.length, 0);
    assert.equal(event!.stream, mcpTokenStream('jti-1'));
    assert.equal(event!.type, 'mcp_token.issued');
    assert.deepEqual((event!.data as { scopes: string[] }).scopes, ['svc.audit.read', 'svc.profile.read']);
    assert.equal((event!.data as { personaId?: string }).personaId, undefined);
  });

  test('given the legacy marker, svc.admin without operating the instance, or a malformed scope, then issue is refused', () => {
    assert.equal(
      code(() =>
        decideIssueToken({ ...cmd, scopes: ['svc.legacy.unscoped'] }, initialMcpTokenState(), person),
      ),
      'token.scope_not_grantable',
    );
    assert.equal(
      code(() => decideIssueToken({ ...cmd, scopes: ['svc.admin'] }, initialMcpTokenState(), person)),
      'token.scope_not_grantable',
    );
    assert.equal(
      decideIssueToken({ ...cmd, scopes: ['svc.admin'] }, initialMcpTokenState(), {
        isInstanceController: true,
      }).length,
      1,
    );
    assert.equal(
      code(() => decideIssueToken({ ...cmd, scopes: ['svc.*'] }, initialMcpTokenState(), person)),
      'token.scope_invalid',
    );
    for (const s of ['svc.wallet.read', 'svc.wallet.spend', 'svc.account.export', 'svc.builder.write'])
      assert.ok(scopeGrantable(s, person), s);
  });

  test('given an issued token, when its owner revokes it, then one revocation; twice is a no-op; anyone else gets not_found', () => {
    const state = fold<McpTokenState>(
      mcpTokenStream('jti-1'),
      asStored(decideIssueToken(cmd, initialMcpTokenState(), person)),
    );
    assert.deepEqual(state, { exists: true, revoked: false, accountId: 'acc-1' });
    const revoked = decideRevokeToken({ jti: 'jti-1', accountId: 'acc-1', reason: 'owner' }, state);
    assert.deepEqual(
      revoked.map((e) => e.type),
      ['mcp_token.revoked'],
    );
    const after = fold<McpTokenState>(
      mcpTokenStream('jti-1'),
      asStored([...decideIssueToken(cmd, initialMcpTokenState(), person), ...revoked]),
    );
    assert.equal(after.revoked, true);
    assert.deepEqual(decideRevokeToken({ jti: 'jti-1', accountId: 'acc-1', reason: 'owner' }, after), []);
    assert.equal(
      code(() => decideRevokeToken({ jti: 'jti-1', accountId: 'acc-2', reason: 'owner' }, state)),
      'token.not_found',
    );
    assert.equal(
      code(() =>
        decideRevokeToken({ jti: 'nope', accountId: 'acc-1', reason: 'owner' }, initialMcpTokenState()),
      ),
      'token.not_found',
    );
  });
});

describe('provenance argument summaries', () => {
  test('given secrets by key name or by shape, then they are redacted at any depth', () => {
    const jwt = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    assert.deepEqual(
      summarizeArguments({
        password: 'hunter2',
        newPassword: 'x',
        nested: { apiKey: 'k', client_secret: 's', Authorization: 'Bearer abc', list: [jwt, 'fine'] },
        note: 'Bearer abc.def',
        jti: 'kept',
      }),
      {
        password: REDACTED,
        newPassword: REDACTED,
        nested: {
          apiKey: REDACTED,
          client_secret: REDACTED,
          Authorization: REDACTED,
          list: [REDACTED, 'fine'],
        },
        note: REDACTED,
        jti: 'kept',
      },
    );
  });

  test('given long or deep values, then strings, arrays and depth are cut with a marker', () => {
    const s = summarizeArguments({
      bio: 'a'.repeat(250),
      items: Array.from({ length: 25 }, (_, i) => i),
      deep: { a: { b: { c: { d: 1 } } } },
    });
    assert.equal(s.bio, `${'a'.repeat(200)}…[+50 chars]`);
    assert.equal((s.items as unknown[]).length, 21);
    assert.equal((s.items as unknown[])[20], '[+5 items]');
    assert.deepEqual(s.deep, { a: { b: { c: '[…]' } } });
    assert.deepEqual(summarizeArguments(undefined), {});
    assert.deepEqual(summarizeArguments('just text'), { value: 'just text' });
  });
});
