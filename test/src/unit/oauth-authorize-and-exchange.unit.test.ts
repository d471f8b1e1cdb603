// OAuth consent and the authorization_code grant on the real pipeline over the in-memory log: the
// single-use code (only its digest kept), PKCE, the tokens an exchange mints, and the theft responses —
// a code presented twice revokes what it minted, wrong verifiers lock the code.
import { OAUTH_CODE_MAX_WRONG_VERIFIERS } from '@tributary/domain';
import type { Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';
import {
  anonymous,
  consent,
  granted,
  MCP_RESOURCE,
  pkce,
  REDIRECT,
  registerClient,
  someScopes,
  type TokenResponse,
} from './oauth-helpers.js';

const AUTHORIZE = 'svc.oauth.authorize';
const EXCHANGE = 'svc.oauth.token.authorization_code';

describe('svc.oauth.authorize', () => {
  test('given a signed-in person, when they approve a registered client, then oauth_code.issued for them, the scopes sorted once each, the MCP endpoint as resource, expiring after the code lifetime; only the code’s digest is kept', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const [a, b] = someScopes(t);
    const { challenge } = pkce();
    const before = t.clock.now().getTime();
    const r = await t.when<{ code: string }>(
      AUTHORIZE,
      {
        clientId,
        redirectUri: REDIRECT,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
        scopes: [b, a, b],
        resource: MCP_RESOURCE,
      },
      ada.principal,
    );
    const { code } = r.thenEvents([
      {
        type: 'oauth_code.issued',
        data: {
          clientId,
          accountId: ada.accountId,
          agentId: ada.agentId,
          redirectUri: REDIRECT,
          codeChallenge: challenge,
          scopes: [a, b],
          resource: MCP_RESOURCE,
        },
      },
    ]);
    const event = r.events[0]!;
    assert.equal(event.stream, `oauth-code-${t.services.ids.sha256(code)}`);
    assert.equal(event.data.codeDigest, t.services.ids.sha256(code));
    assert.equal(event.data.personaId, undefined, 'acting as themselves');
    assert.ok(!JSON.stringify(event.data).includes(code), 'the code itself is not kept');
    const expiresAt = Date.parse(String(event.data.expiresAt));
    const lifetimeMs = t.services.config.oauth.codeSeconds * 1000;
    assert.ok(expiresAt >= before + lifetimeMs && expiresAt <= t.clock.now().getTime() + lifetimeMs);
  });

  test('given a persona of theirs as target, then the code carries the persona; a loopback redirect may use any port', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const clientId = await registerClient(t, { redirect_uris: ['http://127.0.0.1:8000/cb'] });
    (
      await t.when(
        AUTHORIZE,
        {
          clientId,
          redirectUri: 'http://127.0.0.1:53124/cb',
          codeChallenge: pkce().challenge,
          codeChallengeMethod: 'S256',
          scopes: [],
          targetAgentId: persona.agentId,
        },
        ada.principal,
      )
    ).thenEvents([
      {
        type: 'oauth_code.issued',
        data: { agentId: ada.agentId, personaId: persona.agentId, redirectUri: 'http://127.0.0.1:53124/cb' },
      },
    ]);
  });

  test('given a request that breaks a rule, then its OAuth code and nothing written: unknown client, unregistered redirect, plain PKCE or a bad challenge, another resource, a scope outside the client’s, svc.admin from a non-operator', async () => {
    const t = await unitInstance();
    await t.signUp('ada');
    const bob = await t.signUp('bob');
    const [a, b, c] = someScopes(t);
    const clientId = await registerClient(t, { scope: `${a} ${b} svc.admin` });
    const valid = {
      clientId,
      redirectUri: REDIRECT,
      codeChallenge: pkce().challenge,
      codeChallengeMethod: 'S256',
      scopes: [a],
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ clientId: 'no-such-client' }, 'oauth.invalid_client'],
      [{ redirectUri: 'https://notes.example/other' }, 'oauth.invalid_redirect_uri'],
      [{ redirectUri: 'http://127.0.0.1:9/callback' }, 'oauth.invalid_redirect_uri'],
      [{ codeChallengeMethod: 'plain' }, 'oauth.invalid_request'],
      [{ codeChallenge: 'short' }, 'oauth.invalid_request'],
      [{ resource: 'https://elsewhere.example/api/mcp' }, 'oauth.invalid_target'],
      [{ scopes: [a, c] }, 'oauth.invalid_scope'],
      [{ scopes: ['svc.admin'] }, 'oauth.invalid_scope'],
    ];
    for (const [change, code] of cases)
      (await t.when(AUTHORIZE, { ...valid, ...change }, bob.principal)).thenError(code);
    (await t.when(AUTHORIZE, valid, bob.principal)).thenEvents([{ type: 'oauth_code.issued' }]);
  });

  test('given the operator, then svc.admin may be granted; given a process that mints no tokens, oauth.temporarily_unavailable', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const input = {
      clientId,
      redirectUri: REDIRECT,
      codeChallenge: pkce().challenge,
      codeChallengeMethod: 'S256',
      scopes: ['svc.admin'],
    };
    (await t.when(AUTHORIZE, input, ada.principal)).thenEvents([
      { type: 'oauth_code.issued', data: { scopes: ['svc.admin'] } },
    ]);
    t.services.tokens.accessTokens = undefined;
    (await t.when(AUTHORIZE, input, ada.principal)).thenError('oauth.temporarily_unavailable');
  });

  test('given a principal that is not a signed-in person, then oauth.access_denied, or auth.required when there is none; input outside the schema, input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const input = {
      clientId,
      redirectUri: REDIRECT,
      codeChallenge: pkce().challenge,
      codeChallengeMethod: 'S256',
      scopes: [],
    };
    const token: Principal = {
      kind: 'token',
      jti: 'j',
      accountId: ada.accountId,
      agentId: ada.agentId,
      scopes: ['svc.profile.read'],
    };
    (await t.when(AUTHORIZE, input, token)).thenError('oauth.access_denied');
    (await t.when(AUTHORIZE, input, anonymous)).thenError('auth.required');
    for (const bad of [
      { ...input, scopes: Array.from({ length: 65 }, () => 'svc.profile.read') },
      { ...input, scopes: ['not a scope'] },
      { ...input, redirectUri: `https://notes.example/${'x'.repeat(2000)}` },
      { ...input, extra: 1 },
      { clientId },
    ])
      (await t.when(AUTHORIZE, bad, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.oauth.token.authorization_code', () => {
  test('given a fresh code and its verifier, then the code is redeemed, an access token recorded for the client and the family’s first refresh token issued; the answer is the RFC 6749 token response', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const [a, b] = someScopes(t);
    const { code, verifier } = await consent(t, ada, clientId, [b, a]);
    const codeEvent = t.store.all().at(-1)!;
    const r = await t.when<TokenResponse>(
      EXCHANGE,
      { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier, resource: MCP_RESOURCE },
      anonymous,
    );
    const familyId = codeEvent.data.familyId;
    const answer = r.thenEvents([
      { type: 'oauth_code.redeemed', stream: codeEvent.stream, data: { familyId } },
      {
        type: 'mcp_token.issued',
        data: {
          accountId: ada.accountId,
          agentId: ada.agentId,
          scopes: [a, b],
          audience: MCP_RESOURCE,
          label: 'OAuth: Notes',
          client: clientId,
        },
      },
      {
        type: 'oauth_refresh.issued',
        stream: `oauth-family-${String(familyId)}`,
        data: { familyId, clientId, accountId: ada.accountId, scopes: [a, b], resource: MCP_RESOURCE },
      },
    ]);
    assert.equal(answer.token_type, 'Bearer');
    assert.equal(answer.expires_in, t.services.config.oauth.accessTokenSeconds);
    assert.equal(answer.scope, `${a} ${b}`);
    const claims = await t.services.tokens.accessTokens!.verify(answer.access_token, t.clock.now());
    assert.equal(claims.sub, ada.accountId);
    assert.equal(claims.jti, r.events[1]!.data.jti);
    const refresh = r.events[2]!.data;
    assert.equal(refresh.accessJti, claims.jti);
    assert.equal(refresh.refreshDigest, t.services.ids.sha256(answer.refresh_token));
    assert.ok(!JSON.stringify(r.events.map((e) => e.data)).includes(answer.refresh_token));
    // The family is granted now: its absolute lifetime counts from here, however often it rotates.
    assert.ok(Math.abs(Date.parse(String(refresh.grantedAt)) - claims.iat * 1000) < 1000);
    assert.equal(
      refresh.expiresAt,
      new Date((claims.iat + t.services.config.oauth.refreshTokenSeconds) * 1000).toISOString(),
      'the refresh token lives its idle lifetime from now',
    );
    const record = await t.services.tokens.read.tokenByJti(claims.jti);
    assert.equal(record?.client, clientId);
  });

  test('given a code already redeemed, when it is presented again, then oauth.invalid_grant and the family is revoked with every access token it minted', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const { code, verifier } = await consent(t, ada, clientId, someScopes(t).slice(0, 1));
    const first = await t.when<TokenResponse>(
      EXCHANGE,
      { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier },
      anonymous,
    );
    const jti = String(first.events[1]!.data.jti);
    const familyId = first.events[2]!.data.familyId;
    (
      await t.when(EXCHANGE, { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier }, anonymous)
    ).thenErrorAfter('oauth.invalid_grant', [
      { type: 'oauth_family.revoked', data: { familyId, reason: 'code_reuse' } },
      { type: 'mcp_token.revoked', data: { jti, reason: 'owner' } },
    ]);
    assert.ok((await t.services.tokens.read.tokenByJti(jti))?.revokedAt, 'the access token is revoked');
    // A third time there is nothing left to revoke.
    (
      await t.when(EXCHANGE, { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier }, anonymous)
    ).thenError('oauth.invalid_grant');
  });

  test(`given wrong verifiers, then each is recorded and refused with oauth.invalid_grant; after ${OAUTH_CODE_MAX_WRONG_VERIFIERS} the code is locked, even for the right one`, async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const { code, verifier } = await consent(t, ada, clientId, []);
    const digest = t.services.ids.sha256(code);
    for (let attempt = 1; attempt <= OAUTH_CODE_MAX_WRONG_VERIFIERS; attempt++)
      (
        await t.when(
          EXCHANGE,
          { clientId, code, redirectUri: REDIRECT, codeVerifier: pkce().verifier },
          anonymous,
        )
      ).thenErrorAfter('oauth.invalid_grant', [
        { type: 'oauth_code.verifier_refused', data: { codeDigest: digest, attempt } },
      ]);
    (
      await t.when(EXCHANGE, { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier }, anonymous)
    ).thenError('oauth.invalid_grant');
  });

  test('given a code past its lifetime, another redirect URI, no verifier, another resource, another client or an unknown code, then its OAuth code and nothing written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const clientId = await registerClient(t);
    const otherClient = await registerClient(t);
    const { code, verifier } = await consent(t, ada, clientId, []);
    const valid = { clientId, code, redirectUri: REDIRECT, codeVerifier: verifier };
    const cases: [Record<string, unknown>, string][] = [
      [{ clientId: 'no-such-client' }, 'oauth.invalid_client'],
      [{ clientId: otherClient }, 'oauth.invalid_grant'],
      [{ code: 'no-such-code' }, 'oauth.invalid_grant'],
      [{ redirectUri: 'https://notes.example/other' }, 'oauth.invalid_grant'],
      [{ codeVerifier: undefined }, 'oauth.invalid_request'],
      [{ resource: 'https://elsewhere.example/api/mcp' }, 'oauth.invalid_target'],
    ];
    for (const [change, errorCode] of cases)
      (await t.when(EXCHANGE, { ...valid, ...change }, anonymous)).thenError(errorCode);
    for (const bad of [
      { ...valid, code: 'c'.repeat(201) },
      { clientId, redirectUri: REDIRECT },
    ])
      (await t.when(EXCHANGE, bad, anonymous)).thenError('input.invalid');
    t.clock.advance(t.services.config.oauth.codeSeconds * 1000 + 1);
    (await t.when(EXCHANGE, valid, anonymous)).thenError('oauth.invalid_grant');
  });

  test('given a code for a persona, then the access token is bound to it and the refresh token carries it', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const clientId = await registerClient(t);
    const { tokens } = await granted(t, ada, clientId, [], { targetAgentId: persona.agentId });
    const claims = await t.services.tokens.accessTokens!.verify(tokens.access_token, t.clock.now());
    assert.equal((await t.services.tokens.read.tokenByJti(claims.jti))?.personaId, persona.agentId);
  });
});
