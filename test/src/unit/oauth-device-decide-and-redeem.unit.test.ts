// The device flow after the request (RFC 8628 §3.3–3.5) on the real pipeline over the in-memory log:
// the person at the verification page finds the request by its user code and approves or denies it;
// the polling client is told to wait, refused, or — once — given the tokens.
import { isDomainError } from '@tributary/domain';
import { paceDevicePoll, pendingDeviceRequest, type Principal } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, type UnitInstance } from './given-when-then.js';
import {
  anonymous,
  DEVICE_GRANT,
  MCP_RESOURCE,
  registerClient,
  someScopes,
  type TokenResponse,
} from './oauth-helpers.js';

const REQUEST = 'svc.oauth.device.request';
const DECIDE = 'svc.oauth.device.decide';
const REDEEM = 'svc.oauth.token.device_code';

interface DeviceAnswer {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
}

/** A device client's pending request for `scopes`, with its device code's digest. */
async function requested(t: UnitInstance, scopes: readonly string[], clientId?: string) {
  clientId ??= await registerClient(t, { grant_types: [DEVICE_GRANT] });
  const answer = (await t.when<DeviceAnswer>(REQUEST, { clientId, scopes }, anonymous)).result;
  return { clientId, ...answer, deviceDigest: t.services.ids.sha256(answer.deviceCode) };
}

describe('svc.oauth.device.decide', () => {
  test('given a pending request, when the person approves, then oauth_device.approved for them with a new family; as a persona, for the persona', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const device = await requested(t, someScopes(t).slice(0, 1));
    const r = await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, ada.principal);
    assert.deepEqual(
      r.thenEvents([
        {
          type: 'oauth_device.approved',
          stream: `oauth-device-${device.deviceDigest}`,
          data: { deviceDigest: device.deviceDigest, accountId: ada.accountId, agentId: ada.agentId },
        },
      ]),
      { approved: true },
    );
    assert.equal(r.events[0]!.data.personaId, undefined);
    assert.ok(r.events[0]!.data.familyId, 'the grant gets its family now');

    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const other = await requested(t, [], device.clientId);
    (
      await t.when(
        DECIDE,
        { deviceDigest: other.deviceDigest, approve: true, targetAgentId: persona.agentId },
        ada.principal,
      )
    ).thenEvents([
      { type: 'oauth_device.approved', data: { agentId: ada.agentId, personaId: persona.agentId } },
    ]);
  });

  test('given a pending request, when the person denies it, then oauth_device.denied; a second decision, an expired request or an unknown one is oauth.expired_token', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const device = await requested(t, []);
    assert.deepEqual(
      (await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: false }, ada.principal)).thenEvents(
        [{ type: 'oauth_device.denied', data: { deviceDigest: device.deviceDigest } }],
      ),
      { approved: false },
    );
    (await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, ada.principal)).thenError(
      'oauth.expired_token',
    );
    (await t.when(DECIDE, { deviceDigest: 'no-such-device', approve: false }, ada.principal)).thenError(
      'oauth.expired_token',
    );
    const late = await requested(t, [], device.clientId);
    t.clock.advance(t.services.config.oauth.deviceCodeSeconds * 1000 + 1);
    (await t.when(DECIDE, { deviceDigest: late.deviceDigest, approve: false }, ada.principal)).thenError(
      'oauth.expired_token',
    );
  });

  test('given a request for svc.admin, then a person who is not the operator cannot approve it (oauth.invalid_scope) but may deny it; the operator may approve', async () => {
    const t = await unitInstance();
    const operator = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const device = await requested(t, ['svc.admin']);
    (await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, bob.principal)).thenError(
      'oauth.invalid_scope',
    );
    (
      await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, operator.principal)
    ).thenEvents([{ type: 'oauth_device.approved', data: { accountId: operator.accountId } }]);
    const another = await requested(t, ['svc.admin'], device.clientId);
    (await t.when(DECIDE, { deviceDigest: another.deviceDigest, approve: false }, bob.principal)).thenEvents([
      { type: 'oauth_device.denied' },
    ]);
  });

  test('given a principal that is not a signed-in person, then oauth.access_denied, or auth.required with none; input outside the schema, input.invalid', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const device = await requested(t, []);
    const token: Principal = {
      kind: 'token',
      jti: 'j',
      accountId: ada.accountId,
      agentId: ada.agentId,
      scopes: ['svc.profile.read'],
    };
    (await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, token)).thenError(
      'oauth.access_denied',
    );
    (await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, anonymous)).thenError(
      'auth.required',
    );
    for (const input of [
      { deviceDigest: device.deviceDigest },
      { deviceDigest: 'd'.repeat(101), approve: true },
      { deviceDigest: device.deviceDigest, approve: 'yes' },
      { deviceDigest: device.deviceDigest, approve: true, extra: 1 },
    ])
      (await t.when(DECIDE, input, ada.principal)).thenError('input.invalid');
  });
});

describe('svc.oauth.token.device_code', () => {
  test('given an approved request, when the client polls, then the request is redeemed and the tokens minted for the approver, once; before approval, oauth.authorization_pending', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const [a, b] = someScopes(t);
    const device = await requested(t, [b, a]);
    const poll = () =>
      t.when<TokenResponse>(REDEEM, { clientId: device.clientId, deviceCode: device.deviceCode }, anonymous);
    (await poll()).thenError('oauth.authorization_pending');
    const approval = await t.when(
      DECIDE,
      { deviceDigest: device.deviceDigest, approve: true },
      ada.principal,
    );
    const familyId = approval.events[0]!.data.familyId;
    const r = await poll();
    const answer = r.thenEvents([
      { type: 'oauth_device.redeemed', data: { deviceDigest: device.deviceDigest } },
      {
        type: 'mcp_token.issued',
        data: {
          accountId: ada.accountId,
          agentId: ada.agentId,
          scopes: [a, b],
          client: device.clientId,
          audience: MCP_RESOURCE,
        },
      },
      {
        type: 'oauth_refresh.issued',
        stream: `oauth-family-${String(familyId)}`,
        data: { familyId, scopes: [a, b] },
      },
    ]);
    assert.equal(answer.scope, `${a} ${b}`);
    const claims = await t.services.tokens.accessTokens!.verify(answer.access_token, t.clock.now());
    assert.equal(claims.sub, ada.accountId);
    assert.equal(r.events[2]!.data.refreshDigest, t.services.ids.sha256(answer.refresh_token));
    (await poll()).thenError('oauth.invalid_grant');
    // The device grant's refresh token rotates like any other.
    (
      await t.when(
        'svc.oauth.token.refresh_token',
        { clientId: device.clientId, refreshToken: answer.refresh_token },
        anonymous,
      )
    ).thenEvents([{ type: 'mcp_token.issued' }, { type: 'oauth_refresh.issued', data: { familyId } }]);
  });

  test('given a denied request, then oauth.access_denied; an expired one, oauth.expired_token; an unknown code or another client’s, oauth.invalid_grant; an unknown client, oauth.invalid_client', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const denied = await requested(t, []);
    await t.when(DECIDE, { deviceDigest: denied.deviceDigest, approve: false }, ada.principal);
    const redeem = (clientId: string, deviceCode: string) =>
      t.when(REDEEM, { clientId, deviceCode }, anonymous);
    (await redeem(denied.clientId, denied.deviceCode)).thenError('oauth.access_denied');
    (await redeem(denied.clientId, 'no-such-code')).thenError('oauth.invalid_grant');
    const otherClient = await registerClient(t, { grant_types: [DEVICE_GRANT] });
    const approved = await requested(t, [], denied.clientId);
    await t.when(DECIDE, { deviceDigest: approved.deviceDigest, approve: true }, ada.principal);
    (await redeem(otherClient, approved.deviceCode)).thenError('oauth.invalid_grant');
    (await redeem('no-such-client', approved.deviceCode)).thenError('oauth.invalid_client');
    (await t.when(REDEEM, { clientId: denied.clientId }, anonymous)).thenError('input.invalid');
    t.clock.advance(t.services.config.oauth.deviceCodeSeconds * 1000 + 1);
    (await redeem(approved.clientId, approved.deviceCode)).thenError('oauth.expired_token');
  });
});

describe('the verification page’s lookups', () => {
  test('given a user code as a person types it, then the pending request it names with its client; none once decided, expired, or for a code that is not one', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const device = await requested(t, []);
    const typed = ` ${device.userCode.toLowerCase().replace('-', ' ')} `;
    const found = await pendingDeviceRequest(t.services, typed);
    assert.ok(found && 'request' in found, 'the typed code names the request');
    assert.equal(found.userCode, device.userCode);
    assert.equal(found.deviceDigest, device.deviceDigest);
    assert.equal(found.client.clientId, device.clientId);
    assert.equal(await pendingDeviceRequest(t.services, 'BCDF-GHJK'), undefined, 'a code nobody was given');
    assert.equal(await pendingDeviceRequest(t.services, 'not a code'), undefined);
    assert.equal(await pendingDeviceRequest(t.services, undefined), undefined);
    await t.when(DECIDE, { deviceDigest: device.deviceDigest, approve: true }, ada.principal);
    assert.equal(await pendingDeviceRequest(t.services, device.userCode), undefined, 'decided already');
    const late = await requested(t, [], device.clientId);
    t.clock.advance(t.services.config.oauth.deviceCodeSeconds * 1000 + 1);
    assert.equal(await pendingDeviceRequest(t.services, late.userCode), undefined, 'expired');
  });

  test('given a run of polls faster than the interval, then oauth.slow_down naming the interval, which grows by five seconds once per run', async () => {
    const t = await unitInstance();
    const slowDown = async (interval: number) =>
      assert.rejects(paceDevicePoll(t.services, 'device-code', 5), (e) => {
        assert.ok(isDomainError(e));
        assert.equal(e.code, 'oauth.slow_down');
        assert.deepEqual(e.details, { interval });
        return true;
      });
    await paceDevicePoll(t.services, 'device-code', 5);
    await slowDown(10);
    t.clock.advance(5_000);
    // Still too fast for ten seconds, but the same run: the interval stays ten.
    await slowDown(10);
    await slowDown(10);
    t.clock.advance(10_000);
    await paceDevicePoll(t.services, 'device-code', 5);
    await paceDevicePoll(t.services, 'another-code', 5);
  });

  test('given polite polls after a slow_down, then the interval shrinks by five seconds each, never below the advertised one', async () => {
    const t = await unitInstance();
    await paceDevicePoll(t.services, 'device-code', 5);
    await assert.rejects(paceDevicePoll(t.services, 'device-code', 5), { code: 'oauth.slow_down' }); // 10 s
    t.clock.advance(10_000);
    await paceDevicePoll(t.services, 'device-code', 5); // polite: back to 5 s
    t.clock.advance(5_000);
    await paceDevicePoll(t.services, 'device-code', 5); // 5 s is enough now, and it stays 5 s
    t.clock.advance(5_000);
    await paceDevicePoll(t.services, 'device-code', 5);
    t.clock.advance(4_000);
    await assert.rejects(paceDevicePoll(t.services, 'device-code', 5), { code: 'oauth.slow_down' });
  });
});
