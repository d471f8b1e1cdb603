// proposePlan: tool calls become a plan exactly as it will run, hashed, and committed as one event.
import { fold, planStream, type PlanState } from '@tributary/domain';
import { defineAssistantOperation, execute, planHash, proposePlan } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { z } from 'zod';
import { unitInstance } from './given-when-then.js';

/** The way the chat turn loop commits a plan, without a model: proposePlan, then one commit. */
const proposeForTest = defineAssistantOperation({
  name: 'test.assistant.propose',
  title: 'Propose a plan (test)',
  description: 'test only',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  input: z.object({
    steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
  }),
  async run(ctx, input) {
    const proposal = proposePlan(ctx, {
      threadId: 't-1',
      messageId: 'm-1',
      ownerAgentId: ctx.actor.agentId,
      actingAgentId: ctx.actor.agentId,
      steps: input.steps,
    });
    await ctx.commit([proposal.stream], proposal.decide);
    return proposal;
  },
});

describe('proposePlan', () => {
  test('given two tool calls, when a plan is proposed, then its steps carry the acting agent, whether they write, and the hash of exactly what runs', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const { result } = await execute(
      t.services,
      proposeForTest,
      {
        steps: [
          { tool: 'svc.agent.list_personas', args: {} },
          { tool: 'svc.agent.create_persona', args: { name: 'Cook', targetAgentId: 'the model chose this' } },
        ],
      },
      ada.principal,
      'http',
    );
    assert.deepEqual(
      result.steps.map((s) => [s.step, s.tool, s.writes, s.args.targetAgentId]),
      [
        [1, 'svc.agent.list_personas', false, ada.agentId],
        [2, 'svc.agent.create_persona', true, ada.agentId],
      ],
    );
    const state = fold<PlanState>(result.stream, await t.store.readStream(planStream(result.planId)));
    assert.equal(state.hash, result.hash);
    assert.equal(
      planHash({ ...(state as Required<PlanState>), steps: state.steps }),
      result.hash,
      'the logged plan hashes to its hash',
    );
    assert.deepEqual([...state.status.values()], ['pending', 'pending']);
  });

  test('given an unknown tool or arguments that do not fit, when a plan is proposed, then the code names it and nothing is written', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    for (const [steps, code] of [
      [[{ tool: 'svc.nope', args: {} }], 'assistant.unknown_tool'],
      [[{ tool: 'svc.agent.create_persona', args: { nom: 'x' } }], 'assistant.malformed_tool_call'],
      [[], 'input.invalid'],
    ] as const) {
      const before = (await t.store.readAll({ since: 0, limit: 100_000 })).head;
      await assert.rejects(
        execute(t.services, proposeForTest, { steps }, ada.principal, 'http'),
        (e: { code?: string }) => e.code === code,
      );
      assert.equal((await t.store.readAll({ since: 0, limit: 100_000 })).head, before);
    }
  });
});
