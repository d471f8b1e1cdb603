// Refresh-token rotation and revocation on the real pipeline over the in-memory log: each refresh token
// works once, a rotated-away one presented again revokes the whole family, scopes only narrow, a family
// ends at its idle and absolute lifetimes, and a grant is revoked by its owner (connected apps) or by
// its client (RFC 7009) with every access token it minted.
import type { OAuthGrantView } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { UNIT_PASSWORD, unitInstance } from './given-when-then.js';
import { anonymous, granted, registerClient, someScopes, type TokenResponse } from './oauth-helpers.js';

const REFRESH = 'svc.oauth.token.refresh_token';
const REVOKE_GRANT = 'svc.oauth.grant.revoke';
const REVOKE_TOKEN = 'svc.oauth.token.revoke';
const DAY = 86_400_000;

async function withGrant(scopes?: (all: [string, string, string]) => string[]) {
  const t = await unitInstance();
  const ada = await t.signUp('ada');
  const clientId = await registerClient(t);
  const all = someScopes(t);
  const { tokens, familyId } = await granted(t, ada, clientId, scopes ? scopes(all) : [all[0], all[1]]);
  const jtiOf = async (accessToken: string) =>
    (await t.services.tokens.accessTokens!.verify(accessToken, t.clock.now())).jti;
  return { t, ada, clientId, scopes: all, tokens, familyId, jtiOf };
}

describe('svc.oauth.token.refresh_token', () => {
  test('given the current refresh token, then a new access token and the family’s next refresh token, granted at the same time as the first', async () => {
    const { t, clientId, scopes, tokens, familyId } = await withGrant();
    const first = t.store.all().at(-1)!.data;
    t.clock.advance(DAY);
    const r = await t.when<TokenResponse>(
      REFRESH,
      { clientId, refreshToken: tokens.refresh_token },
      anonymous,
    );
    const answer = r.thenEvents([
      { type: 'mcp_token.issued', data: { client: clientId, scopes: [scopes[0], scopes[1]] } },
      {
        type: 'oauth_refresh.issued',
        stream: `oauth-family-${familyId}`,
        data: { familyId, grantedAt: first.grantedAt, scopes: [scopes[0], scopes[1]] },
      },
    ]);
    assert.notEqual(answer.refresh_token, tokens.refresh_token);
    assert.equal(r.events[1]!.data.refreshDigest, t.services.ids.sha256(answer.refresh_token));
    assert.equal(r.events[1]!.data.accessJti, r.events[0]!.data.jti);
  });

  test('given a narrower scope, then the new tokens carry only it; a scope that was not granted is oauth.invalid_scope', async () => {
    const { t, clientId, scopes, tokens } = await withGrant();
    (
      await t.when(
        REFRESH,
        { clientId, refreshToken: tokens.refresh_token, scopes: [scopes[0], scopes[2]] },
        anonymous,
      )
    ).thenError('oauth.invalid_scope');
    const narrowed = (
      await t.when<TokenResponse>(
        REFRESH,
        { clientId, refreshToken: tokens.refresh_token, scopes: [scopes[1]] },
        anonymous,
      )
    ).thenEvents([
      { type: 'mcp_token.issued', data: { scopes: [scopes[1]] } },
      { type: 'oauth_refresh.issued', data: { scopes: [scopes[1]] } },
    ]);
    assert.equal(narrowed.scope, scopes[1]);
  });

  test('given a refresh token that was already rotated away, then oauth.invalid_grant and the whole family is revoked with both access tokens; the current one is refused after', async () => {
    const { t, clientId, tokens, familyId, jtiOf } = await withGrant();
    const next = (
      await t.when<TokenResponse>(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)
    ).result;
    const jtis = [await jtiOf(tokens.access_token), await jtiOf(next.access_token)];
    (await t.when(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)).thenErrorAfter(
      'oauth.invalid_grant',
      [
        { type: 'oauth_family.revoked', data: { familyId, reason: 'refresh_reuse' } },
        { type: 'mcp_token.revoked', data: { jti: jtis[0] } },
        { type: 'mcp_token.revoked', data: { jti: jtis[1] } },
      ],
    );
    (await t.when(REFRESH, { clientId, refreshToken: next.refresh_token }, anonymous)).thenError(
      'oauth.invalid_grant',
    );
  });

  test('given a refresh token idle past its lifetime, then oauth.invalid_grant', async () => {
    const { t, clientId, tokens } = await withGrant();
    t.clock.advance(t.services.config.oauth.refreshTokenSeconds * 1000 + 1000);
    (await t.when(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)).thenError(
      'oauth.invalid_grant',
    );
  });

  test('given a family refreshed within its idle lifetime, then rotation still ends at the absolute lifetime counted from the grant', async () => {
    const { t, clientId, tokens } = await withGrant();
    const { refreshTokenSeconds, refreshAbsoluteSeconds } = t.services.config.oauth;
    const step = refreshTokenSeconds * 1000 - DAY;
    let refreshToken = tokens.refresh_token;
    let elapsed = 0;
    while (elapsed + step < refreshAbsoluteSeconds * 1000) {
      t.clock.advance(step);
      elapsed += step;
      refreshToken = (await t.when<TokenResponse>(REFRESH, { clientId, refreshToken }, anonymous)).result
        .refresh_token;
    }
    const last = t.store.all().at(-1)!;
    assert.ok(
      Date.parse(String(last.data.expiresAt)) <=
        Date.parse(String(last.data.grantedAt)) + refreshAbsoluteSeconds * 1000,
      'no refresh token outlives its family',
    );
    t.clock.advance(refreshAbsoluteSeconds * 1000 - elapsed + 1000);
    (await t.when(REFRESH, { clientId, refreshToken }, anonymous)).thenError('oauth.invalid_grant');
  });

  test('given a grant for a persona deleted since, then oauth.invalid_grant', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const clientId = await registerClient(t);
    const { tokens } = await granted(t, ada, clientId, [], { targetAgentId: persona.agentId });
    (
      await t.when(
        'svc.agent.delete_persona',
        { targetAgentId: persona.agentId, password: UNIT_PASSWORD },
        ada.principal,
      )
    ).thenEvents([{ type: 'agent.deleted' }]);
    (await t.when(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)).thenError(
      'oauth.invalid_grant',
    );
  });

  test('given an unknown client, an unknown token, another client’s token or another resource, then its OAuth code and nothing written', async () => {
    const { t, clientId, tokens } = await withGrant();
    const otherClient = await registerClient(t);
    const valid = { clientId, refreshToken: tokens.refresh_token };
    const cases: [Record<string, unknown>, string][] = [
      [{ clientId: 'no-such-client' }, 'oauth.invalid_client'],
      [{ refreshToken: 'no-such-token' }, 'oauth.invalid_grant'],
      [{ clientId: otherClient }, 'oauth.invalid_grant'],
      [{ resource: 'https://elsewhere.example/api/mcp' }, 'oauth.invalid_target'],
      [{ scopes: ['not a scope'] }, 'input.invalid'],
      [{ refreshToken: 'r'.repeat(201) }, 'input.invalid'],
    ];
    for (const [change, code] of cases)
      (await t.when(REFRESH, { ...valid, ...change }, anonymous)).thenError(code);
    (await t.when(REFRESH, valid, anonymous)).thenEvents([
      { type: 'mcp_token.issued' },
      { type: 'oauth_refresh.issued' },
    ]);
  });
});

describe('svc.oauth.grant.revoke', () => {
  test('given their own grant, when its owner revokes it, then the family and every access token it minted are revoked; connected apps show it revoked; its refresh token is refused', async () => {
    const { t, ada, clientId, tokens, familyId, jtiOf } = await withGrant();
    const next = (
      await t.when<TokenResponse>(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)
    ).result;
    const jtis = [await jtiOf(tokens.access_token), await jtiOf(next.access_token)];
    const grants = (): Promise<OAuthGrantView[]> => t.services.oauth.read.oauthGrantsOf(ada.accountId);
    assert.deepEqual(
      (await grants()).map((g) => [g.familyId, g.clientName, g.revokedAt]),
      [[familyId, 'Notes', null]],
    );
    const result = (await t.when(REVOKE_GRANT, { familyId }, ada.principal)).thenEvents([
      { type: 'oauth_family.revoked', data: { familyId, reason: 'owner' } },
      { type: 'mcp_token.revoked', data: { jti: jtis[0], reason: 'owner' } },
      { type: 'mcp_token.revoked', data: { jti: jtis[1], reason: 'owner' } },
    ]);
    assert.deepEqual(result, { familyId, revoked: true });
    assert.ok((await grants())[0]!.revokedAt, 'connected apps show the grant revoked');
    (await t.when(REFRESH, { clientId, refreshToken: next.refresh_token }, anonymous)).thenError(
      'oauth.invalid_grant',
    );
    // Revoking again finds nothing left to revoke.
    (await t.when(REVOKE_GRANT, { familyId }, ada.principal)).thenEvents([]);
  });

  test('given someone else’s grant or no grant, then oauth.grant_not_found; a principal that is not a session, the same; input outside the schema, input.invalid', async () => {
    const { t, ada, familyId } = await withGrant();
    const bob = await t.signUp('bob');
    (await t.when(REVOKE_GRANT, { familyId }, bob.principal)).thenError('oauth.grant_not_found');
    (await t.when(REVOKE_GRANT, { familyId: 'no-such-family' }, ada.principal)).thenError(
      'oauth.grant_not_found',
    );
    (
      await t.when(
        REVOKE_GRANT,
        { familyId },
        { kind: 'token', jti: 'j', accountId: ada.accountId, agentId: ada.agentId, scopes: [] },
      )
    ).thenError('oauth.grant_not_found');
    (await t.when(REVOKE_GRANT, { familyId, extra: 1 }, ada.principal)).thenError('input.invalid');
    (await t.when(REVOKE_GRANT, { familyId: 'f'.repeat(101) }, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.oauth.token.revoke', () => {
  test('given the client’s refresh token, then the whole family is revoked with its access token', async () => {
    const { t, clientId, tokens, familyId, jtiOf } = await withGrant();
    const jti = await jtiOf(tokens.access_token);
    const result = (
      await t.when(REVOKE_TOKEN, { clientId, token: tokens.refresh_token }, anonymous)
    ).thenEvents([
      { type: 'oauth_family.revoked', data: { familyId, reason: 'owner' } },
      { type: 'mcp_token.revoked', data: { jti } },
    ]);
    assert.deepEqual(result, { revoked: true });
    // Revoked is no longer valid, which is not an error (RFC 7009 §2.2).
    assert.deepEqual(
      (await t.when(REVOKE_TOKEN, { clientId, token: tokens.refresh_token }, anonymous)).thenEvents([]),
      { revoked: false },
    );
  });

  test('given the client’s access token, then only that token is revoked: the family still refreshes', async () => {
    const { t, clientId, tokens, jtiOf } = await withGrant();
    const jti = await jtiOf(tokens.access_token);
    assert.deepEqual(
      (await t.when(REVOKE_TOKEN, { clientId, token: tokens.access_token }, anonymous)).thenEvents([
        { type: 'mcp_token.revoked', data: { jti, reason: 'owner' } },
      ]),
      { revoked: true },
    );
    assert.deepEqual(
      (await t.when(REVOKE_TOKEN, { clientId, token: tokens.access_token }, anonymous)).thenEvents([]),
      { revoked: false },
    );
    (await t.when(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)).thenEvents([
      { type: 'mcp_token.issued' },
      { type: 'oauth_refresh.issued' },
    ]);
  });

  test('given a token that means nothing here, then { revoked: false } and nothing written; another client’s live token, oauth.invalid_grant and it stays valid; an unknown client, oauth.invalid_client', async () => {
    const { t, clientId, tokens } = await withGrant();
    const otherClient = await registerClient(t);
    assert.deepEqual(
      (await t.when(REVOKE_TOKEN, { clientId, token: 'no-such-token' }, anonymous)).thenEvents([]),
      { revoked: false },
    );
    for (const token of [tokens.refresh_token, tokens.access_token])
      (await t.when(REVOKE_TOKEN, { clientId: otherClient, token }, anonymous)).thenError(
        'oauth.invalid_grant',
      );
    (
      await t.when(REVOKE_TOKEN, { clientId: 'no-such-client', token: tokens.refresh_token }, anonymous)
    ).thenError('oauth.invalid_client');
    (await t.when(REVOKE_TOKEN, { clientId, token: 't'.repeat(4097) }, anonymous)).thenError('input.invalid');
    (await t.when(REFRESH, { clientId, refreshToken: tokens.refresh_token }, anonymous)).thenEvents([
      { type: 'mcp_token.issued' },
      { type: 'oauth_refresh.issued' },
    ]);
  });
});
