// The connected assistant account's operations on the real pipeline over the in-memory log, with a
// scripted provider and an in-memory vault: what the live provider in the e2e suite cannot easily be
// made to do — no provider configured, a provider that cannot be reached or answers garbage, a refresh
// it refuses, no revocation endpoint, a provider that refuses to revoke, and a new sign-in replacing the
// account (the old grant revoked).
import { domainError } from '@tributary/domain';
import { accountModelIds, accountStateOf } from '@tributary/services';
import type {
  AccountTokens,
  AssistantAccountVault,
  AssistantProviderClient,
  PendingSignIn,
  ProviderDevicePoll,
} from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance, type UnitAccount, type UnitInstance } from './given-when-then.js';

/** Secrets kept in maps: the unit tier checks the operations, the e2e tier the encryption. */
function memoryVault(): AssistantAccountVault & { tokens: Map<string, AccountTokens> } {
  const pending = new Map<string, PendingSignIn>();
  const tokens = new Map<string, AccountTokens>();
  return {
    tokens,
    async savePending(p) {
      for (const [id, q] of pending) if (q.agentId === p.agentId) pending.delete(id);
      pending.set(p.signInId, { ...p });
    },
    async loadPending(agentId, signInId) {
      const p = pending.get(signInId);
      return p?.agentId === agentId ? { ...p } : undefined;
    },
    async updatePending(signInId, pacing) {
      const p = pending.get(signInId);
      if (p) pending.set(signInId, { ...p, ...pacing });
    },
    async deletePending(signInId) {
      pending.delete(signInId);
    },
    async saveTokens(agentId, t) {
      tokens.set(agentId, { ...t });
    },
    async loadTokens(agentId) {
      return tokens.get(agentId);
    },
    async updateTokens(agentId, update) {
      const current = tokens.get(agentId);
      if (!current) return undefined;
      const next = await update(current);
      if (next) tokens.set(agentId, next);
      return next ?? current;
    },
    async deleteTokens(agentId) {
      tokens.delete(agentId);
    },
  };
}

/** A provider whose every answer the test scripts; it records what it was asked. */
function scriptedProvider(o: { revokes?: boolean } = {}) {
  let n = 0;
  const calls: string[] = [];
  const script = {
    polls: [] as ProviderDevicePoll[],
    refresh: undefined as undefined | (() => never),
    revoke: undefined as undefined | (() => never),
    start: undefined as undefined | (() => never),
  };
  const provider: AssistantProviderClient = {
    name: 'scripted',
    revokes: o.revokes ?? true,
    listsModels: true,
    async startDeviceAuthorization() {
      calls.push('start');
      script.start?.();
      n++;
      return {
        deviceCode: `device-${n}`,
        userCode: 'BCDF-GHJK',
        verificationUri: 'https://provider.example/device',
        expiresInSeconds: 600,
        intervalSeconds: 5,
      };
    },
    async pollDeviceToken(deviceCode) {
      calls.push(`poll ${deviceCode}`);
      return script.polls.shift() ?? { kind: 'pending' };
    },
    async refresh(refreshToken) {
      calls.push(`refresh ${refreshToken}`);
      script.refresh?.();
      return {
        accessToken: `${refreshToken}-access2`,
        refreshToken: `${refreshToken}-2`,
        expiresInSeconds: 3600,
        scopes: [],
      };
    },
    async revoke(token, hint) {
      calls.push(`revoke ${hint} ${token}`);
      script.revoke?.();
    },
    async listModels(accessToken) {
      calls.push(`models ${accessToken}`);
      return [{ id: 'm1' }];
    },
  };
  return { provider, calls, script };
}

const tokens = (name: string): ProviderDevicePoll => ({
  kind: 'tokens',
  tokens: {
    accessToken: `${name}-access`,
    refreshToken: `${name}-refresh`,
    expiresInSeconds: 3600,
    scopes: ['b', 'a'],
  },
});

async function setUp(o: { revokes?: boolean } = {}) {
  const t = await unitInstance();
  const ada = await t.signUp('ada');
  const p = scriptedProvider(o);
  const vault = memoryVault();
  t.services.assistantAccount = { provider: p.provider, vault, refreshMarginSeconds: 120 };
  return { t, ada, vault, ...p };
}

async function connect(
  t: UnitInstance,
  who: UnitAccount,
  script: { polls: ProviderDevicePoll[] },
  name: string,
) {
  const started = await t.when<{ signInId: string }>(
    'svc.assistant.account.start_sign_in',
    {},
    who.principal,
  );
  script.polls.push(tokens(name));
  t.clock.advance(5_000);
  const r = await t.when<{ status: string }>(
    'svc.assistant.account.poll_sign_in',
    { signInId: started.result.signInId },
    who.principal,
  );
  assert.equal(r.result.status, 'connected');
}

describe('connected assistant account (unit)', () => {
  test('given no provider configured, then starting a sign-in is assistant.provider_not_configured, and the account reads as not connected', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.assistant.account.start_sign_in', {}, ada.principal)).thenError(
      'assistant.provider_not_configured',
    );
    const read = await t.when<{ connected: boolean; provider: string | null }>(
      'svc.assistant.account.read',
      {},
      ada.principal,
    );
    assert.deepEqual([read.result.connected, read.result.provider], [false, null]);
  });

  test('given a provider that cannot be reached, then assistant.provider_error and nothing written', async () => {
    const { t, ada, script } = await setUp();
    script.start = () => {
      throw domainError('assistant.provider_error', 'unavailable', 'down', {
        reason: 'outbound.unreachable',
      });
    };
    (await t.when('svc.assistant.account.start_sign_in', {}, ada.principal)).thenError(
      'assistant.provider_error',
    );
  });

  test('given a sign-in, when polled, then the start and the connection are the only events, with no secret in them', async () => {
    const { t, ada, script, vault } = await setUp();
    const started = await t.when<{ signInId: string }>(
      'svc.assistant.account.start_sign_in',
      {},
      ada.principal,
    );
    started.thenEvents([{ type: 'assistant.account_sign_in_started' }]);
    script.polls.push({ kind: 'pending' }, tokens('one'));
    t.clock.advance(5_000);
    (
      await t.when('svc.assistant.account.poll_sign_in', { signInId: started.result.signInId }, ada.principal)
    ).thenEvents([]);
    t.clock.advance(5_000);
    const done = await t.when(
      'svc.assistant.account.poll_sign_in',
      { signInId: started.result.signInId },
      ada.principal,
    );
    done.thenEvents([
      { type: 'assistant.account_connected', data: { scopes: ['a', 'b'], provider: 'scripted' } },
    ]);
    assert.ok(!JSON.stringify([started.events, done.events]).includes('one-access'));
    assert.equal(vault.tokens.get(ada.agentId)?.refreshToken, 'one-refresh');
  });

  test('given a refresh the provider refuses, when the models are listed, then assistant.account_reconnect_needed and nothing written', async () => {
    const { t, ada, script } = await setUp();
    await connect(t, ada, script, 'one');
    t.clock.advance(3_600_000);
    script.refresh = () => {
      throw domainError('assistant.account_reconnect_needed', 'conflict', 'refused');
    };
    (await t.when('svc.assistant.account.list_models', {}, ada.principal)).thenError(
      'assistant.account_reconnect_needed',
    );
  });

  test('given an access token about to expire, when the models are listed, then it is refreshed once and the refresh recorded', async () => {
    const { t, ada, script, calls } = await setUp();
    await connect(t, ada, script, 'one');
    t.clock.advance(3_500_000); // within the 120 s margin of the hour
    (await t.when('svc.assistant.account.list_models', {}, ada.principal)).thenEvents([
      { type: 'assistant.account_refreshed' },
    ]);
    (await t.when('svc.assistant.account.list_models', {}, ada.principal)).thenEvents([]);
    assert.deepEqual(
      calls.filter((c) => c.startsWith('refresh') || c.startsWith('models')),
      ['refresh one-refresh', 'models one-refresh-access2', 'models one-refresh-access2'],
    );
  });

  test('given each stage, then the state the status route shows and the models settings may choose follow it', async () => {
    const { t, ada, script } = await setUp();
    assert.equal(await accountStateOf(t.services, ada.agentId), 'not_connected');
    assert.equal(await accountModelIds(t.services, ada.agentId), null);
    await t.when('svc.assistant.account.start_sign_in', {}, ada.principal);
    assert.equal(await accountStateOf(t.services, ada.agentId), 'sign_in_pending');
    t.clock.advance(601_000);
    assert.equal(await accountStateOf(t.services, ada.agentId), 'not_connected');
    await connect(t, ada, script, 'one');
    assert.equal(await accountStateOf(t.services, ada.agentId), 'connected');
    assert.deepEqual(await accountModelIds(t.services, ada.agentId), ['m1']);
    t.services.assistantAccount = undefined;
    assert.equal(await accountModelIds(t.services, ada.agentId), null);
  });

  test('given a second sign-in while connected, when it connects, then the earlier grant is revoked at the provider', async () => {
    const { t, ada, script, calls } = await setUp();
    await connect(t, ada, script, 'one');
    await connect(t, ada, script, 'two');
    assert.ok(calls.includes('revoke refresh_token one-refresh'), calls.join('\n'));
    assert.ok(!calls.some((c) => c.includes('two-refresh') && c.startsWith('revoke')));
  });

  test('given no revocation endpoint, or a provider refusing to revoke, when disconnecting, then the account goes all the same and the answer says so', async () => {
    const a = await setUp({ revokes: false });
    await connect(a.t, a.ada, a.script, 'one');
    const plain = await a.t.when<{ revocation: string }>(
      'svc.assistant.account.disconnect',
      {},
      a.ada.principal,
    );
    plain.thenEvents([{ type: 'assistant.account_disconnected', data: { revocation: 'not_offered' } }]);
    assert.equal(a.vault.tokens.size, 0);
    assert.ok(!a.calls.some((c) => c.startsWith('revoke')));

    const b = await setUp();
    await connect(b.t, b.ada, b.script, 'one');
    b.script.revoke = () => {
      throw domainError('assistant.provider_error', 'unavailable', 'down');
    };
    const failed = await b.t.when('svc.assistant.account.disconnect', {}, b.ada.principal);
    failed.thenEvents([{ type: 'assistant.account_disconnected', data: { revocation: 'failed' } }]);
    assert.equal(b.vault.tokens.size, 0);
    (await b.t.when('svc.assistant.account.disconnect', {}, b.ada.principal)).thenError(
      'assistant.account_not_connected',
    );
  });
});
