// Reads and records of one's own activity (profile, sign-out, own events, provenance) on the real
// pipeline over the in-memory log.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

describe('svc.profile.read and svc.auth.sign_out', () => {
  test('given a persona, when its owner reads its profile, then it answers the persona and writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    const profile = (
      await t.when<{ agentId: string; name: string; kind: string }>(
        'svc.profile.read',
        { targetAgentId: persona.agentId },
        ada.principal,
      )
    ).thenEvents([]);
    assert.deepEqual([profile.agentId, profile.name, profile.kind], [persona.agentId, 'Cook', 'persona']);
  });

  test('given a session, when it signs out, then session.ended once; signing out again writes nothing', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    (await t.when('svc.auth.sign_out', {}, ada.principal)).thenEvents([
      { type: 'session.ended', stream: `session-${ada.principal.sessionId}`, data: { reason: 'sign_out' } },
    ]);
    (await t.when('svc.auth.sign_out', {}, ada.principal)).thenEvents([]);
  });
});

describe('svc.log.read_mine and svc.audit.recent', () => {
  test("given events by a person and their persona, when they read their own events, then both are there, the password hash redacted, and nobody else's", async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const persona = (
      await t.when<{ agentId: string }>('svc.agent.create_persona', { name: 'Cook' }, ada.principal)
    ).result;
    await t.when('svc.profile.update', { targetAgentId: persona.agentId, bio: 'stews' }, ada.principal);
    await t.when('svc.profile.update', { bio: 'bob' }, bob.principal);
    const mine = (
      await t.when<{ events: { event: { type: string; actorId: string; data: Record<string, unknown> } }[] }>(
        'svc.log.read_mine',
        {},
        ada.principal,
      )
    ).thenEvents([]);
    const actors = new Set(mine.events.map((e) => e.event.actorId));
    assert.deepEqual([...actors].sort(), [ada.agentId, persona.agentId].sort());
    const registered = mine.events.find((e) => e.event.type === 'account.registered');
    assert.equal(registered?.event.data.passwordHash, '[redacted]');
    assert.ok(
      mine.events.some(
        (e) => e.event.type === 'agent.profile_updated' && e.event.actorId === persona.agentId,
      ),
    );
  });

  test('given recorded calls, one refused, when the caller reads recent calls, then newest first with outcome and error code', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    await t.when('svc.profile.update', { bio: 'one' }, ada.principal, { recorded: true });
    (await t.when('svc.profile.update', { bio: 'x', extra: 1 }, ada.principal, { recorded: true })).thenError(
      'input.invalid',
    );
    const { entries } = (
      await t.when<{ entries: { tool: string; outcome: string; errorCode: string | null }[] }>(
        'svc.audit.recent',
        {},
        ada.principal,
      )
    ).thenEvents([]);
    assert.deepEqual(
      entries.map((e) => [e.tool, e.outcome, e.errorCode]),
      [
        ['svc.profile.update', 'error', 'input.invalid'],
        ['svc.profile.update', 'ok', null],
      ],
    );
  });
});
