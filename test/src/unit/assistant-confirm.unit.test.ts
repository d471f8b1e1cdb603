// Confirming a plan on the real pipeline over the in-memory log: steps run once, in order, as confirmed;
// a failure stops the plan; refusals write nothing.
import { proposeTestPlan } from '@tributary/test';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { unitInstance } from './given-when-then.js';

const personas = (names: string[]) =>
  names.map((name) => ({ tool: 'svc.agent.create_persona', args: { name, handle: name.toLowerCase() } }));

describe('svc.assistant.confirm_plan', () => {
  test('given a proposed plan, when its owner confirms it, then every step runs once, the plan records each with its own events, and confirming again is refused', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, {
      text: 'make two personas',
      steps: personas(['Cook', 'Baker']),
    });
    const r = await t.when<{
      status: string;
      steps: { status: string; events: { type: string; id: string }[] }[];
    }>('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal);
    const result = r.result;
    assert.equal(result.status, 'completed');
    assert.deepEqual(
      result.steps.map((s) => s.status),
      ['ran', 'ran'],
    );
    assert.deepEqual(
      r.events.map((e) => e.type),
      [
        'assistant.plan_confirmed',
        'handle.claimed',
        'agent.created',
        'assistant.plan_step_finished',
        'handle.claimed',
        'agent.created',
        'assistant.plan_step_finished',
      ],
    );
    // The plan's record names the step's own events of the same append.
    const created = r.events.filter((e) => e.type === 'agent.created').map((e) => e.envelope.id);
    assert.deepEqual(
      result.steps.map((s) => s.events.find((e) => e.type === 'agent.created')?.id),
      created,
    );
    (await t.when('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal)).thenError(
      'assistant.plan_already_confirmed',
    );
  });

  test('given a plan of a write then a read, when it is confirmed, then the read step carries what it found, and a retried confirmation does not', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, {
      text: 'make a persona and list them',
      steps: [...personas(['Cook']), { tool: 'svc.agent.list_personas', args: {} }],
    });
    type Report = { steps: { status: string; result?: { personas: { name: string }[] } }[] };
    const r = await t.when<Report>('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal);
    assert.equal(r.result.steps[0]!.result, undefined, 'a write carries no result');
    assert.deepEqual(
      r.result.steps[1]!.result?.personas.map((p) => p.name),
      ['Cook'],
    );
    const read = await t.when<{ steps: { result?: unknown }[] }>(
      'svc.assistant.read_plan',
      { planHash: plan.hash },
      ada.principal,
    );
    assert.ok(
      read.result.steps.every((s) => s.result === undefined),
      'what a read showed is not kept',
    );
  });

  test('given a plan whose second step fails, when it is confirmed, then the first ran, the second failed with its code and the third was skipped', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const steps = [...personas(['Cook', 'Cook']), ...personas(['Baker'])];
    const plan = await proposeTestPlan(t.services, ada, { text: 'three personas', steps });
    const r = await t.when<{ status: string; steps: { status: string; errorCode: string | null }[] }>(
      'svc.assistant.confirm_plan',
      { planHash: plan.hash },
      ada.principal,
    );
    assert.equal(r.result.status, 'failed');
    assert.deepEqual(
      r.result.steps.map((s) => [s.status, s.errorCode]),
      [
        ['ran', null],
        ['failed', 'agent.handle_taken'],
        ['skipped', null],
      ],
    );
    assert.equal(r.events.filter((e) => e.type === 'agent.created').length, 1);
  });

  test('given a plan, when someone else, a wrong hash, a cancelled or an expired plan is confirmed, then the codes say so and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const bob = await t.signUp('bob');
    const plan = await proposeTestPlan(t.services, ada, { text: 'one', steps: personas(['Cook']) });
    (await t.when('svc.assistant.confirm_plan', { planHash: plan.hash }, bob.principal)).thenError(
      'assistant.plan_not_found',
    );
    (await t.when('svc.assistant.confirm_plan', { planHash: 'f'.repeat(64) }, ada.principal)).thenError(
      'assistant.plan_not_found',
    );
    (
      await t.when(
        'svc.assistant.decide_actions',
        { threadId: plan.threadId, messageId: plan.messageId, decision: 'confirm', planHash: 'a'.repeat(64) },
        ada.principal,
      )
    ).thenError('assistant.plan_altered');
    (
      await t.when(
        'svc.assistant.decide_actions',
        { threadId: plan.threadId, messageId: plan.messageId, decision: 'cancel' },
        bob.principal,
      )
    ).thenError('assistant.thread_not_found');
    (
      await t.when(
        'svc.assistant.decide_actions',
        { threadId: plan.threadId, messageId: plan.messageId, decision: 'cancel' },
        ada.principal,
      )
    ).thenEvents([{ type: 'assistant.plan_cancelled', data: { steps: [1] } }]);
    (await t.when('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal)).thenError(
      'assistant.plan_cancelled',
    );
    const later = await proposeTestPlan(t.services, ada, {
      text: 'two',
      steps: personas(['Late']),
      ttlSeconds: 60,
    });
    t.clock.advance(61_000);
    (await t.when('svc.assistant.confirm_plan', { planHash: later.hash }, ada.principal)).thenError(
      'assistant.plan_expired',
    );
  });

  test('given a token without the scope of a step, when it confirms the plan, then assistant.scope_not_covered and nothing runs', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, { text: 'one', steps: personas(['Cook']) });
    const token = {
      kind: 'token' as const,
      jti: 'j',
      accountId: ada.accountId,
      agentId: ada.agentId,
      scopes: ['svc.assistant.write', 'svc.assistant.read'],
    };
    (
      await t.when('svc.assistant.confirm_plan', { planHash: plan.hash }, token, { surface: 'mcp' })
    ).thenError('assistant.scope_not_covered');
    const r = await t.when<{ status: string }>(
      'svc.assistant.confirm_plan',
      { planHash: plan.hash },
      { ...token, scopes: [...token.scopes, 'svc.agent.write'] },
      { surface: 'mcp' },
    );
    assert.equal(r.result.status, 'completed');
    assert.equal(r.events[0]!.data.via, 'mcp');
  });
});

describe('confirming, under races, time limits and tampering', () => {
  test('given two confirmations of one plan at once, when both run, then one confirms, each answers every step done (the loser joins it or is told it was confirmed, with the plan’s state) and every step ran once', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, { text: 'two', steps: personas(['Cook', 'Baker']) });
    const [a, b] = await Promise.all([
      t.when<{ status: string }>('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal),
      t.when<{ status: string }>('svc.assistant.confirm_plan', { planHash: plan.hash }, ada.principal),
    ]);
    for (const o of [a, b]) {
      const e = o.error as { code: string; details?: { plan?: { status: string } } } | undefined;
      if (e) assert.equal(e.code, 'assistant.plan_already_confirmed');
      // Whichever request ran the steps, the answer is what is now done.
      assert.equal(e ? e.details?.plan?.status : o.result.status, 'completed');
    }
    assert.ok(!a.error || !b.error, 'the confirmation that won answers its outcome');
    const all = (await t.store.readAll({ since: 0, limit: 100_000 })).events;
    assert.equal(
      all.filter((e) => e.type === 'agent.created' && e.data.ownerAgentId === ada.agentId).length,
      2,
      'each step ran once',
    );
    assert.equal(all.filter((e) => e.type === 'assistant.plan_step_finished').length, 2);
  });

  test('given a confirmation whose time allowance is spent, when it is confirmed, then no step starts, the answer says incomplete, and confirming again resumes and runs them', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, { text: 'two', steps: personas(['Cook', 'Baker']) });
    t.services.assistantPlans = { confirmTimeoutMs: -1, planTtlSeconds: 900 };
    const first = await t.when<{ incomplete: boolean; status: string; ranNow: number[] }>(
      'svc.assistant.confirm_plan',
      { planHash: plan.hash },
      ada.principal,
    );
    assert.deepEqual(
      [first.result.incomplete, first.result.status, first.result.ranNow],
      [true, 'confirmed', []],
    );
    assert.deepEqual(
      first.events.map((e) => e.type),
      ['assistant.plan_confirmed'],
    );
    t.services.assistantPlans = { confirmTimeoutMs: 60_000, planTtlSeconds: 900 };
    const second = await t.when<{ resumed: boolean; status: string; ranNow: number[] }>(
      'svc.assistant.confirm_plan',
      { planHash: plan.hash },
      ada.principal,
    );
    assert.deepEqual(
      [second.result.resumed, second.result.status, second.result.ranNow],
      [true, 'completed', [1, 2]],
    );
    // Naming other steps than those confirmed is a second confirmation, refused.
    (
      await t.when('svc.assistant.confirm_plan', { planHash: plan.hash, steps: [1] }, ada.principal)
    ).thenError('assistant.plan_already_confirmed');
  });

  test('given a plan on the log whose steps do not hash to its hash, when it is confirmed by that hash, then assistant.plan_altered and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const plan = await proposeTestPlan(t.services, ada, { text: 'one', steps: personas(['Cook']) });
    // The same plan as logged, with a step's arguments changed and the hash kept: a tampered plan.
    const planId = t.services.ids.entityId();
    const steps = [{ ...plan.steps[0]!, args: { ...plan.steps[0]!.args, name: 'Mallory' } }];
    const hash = 'c'.repeat(64);
    await t.given(ada.agentId, [
      {
        stream: `aplan-${planId}`,
        type: 'assistant.plan_proposed',
        data: {
          planId,
          threadId: plan.threadId,
          messageId: 'm-tampered',
          ownerAgentId: ada.agentId,
          actingAgentId: ada.agentId,
          steps,
          hash,
          expiresAt: plan.expiresAt,
        },
      },
    ]);
    (await t.when('svc.assistant.confirm_plan', { planHash: hash }, ada.principal)).thenError(
      'assistant.plan_altered',
    );
  });
});
