import {
  decideCancelPlan,
  decideConfirmPlan,
  decideFinishStep,
  decideProposePlan,
  confirmedStep,
  fold,
  planHashInput,
  planStatus,
  type NewEvent,
  type PlanState,
  type PlanStep,
  type StoredEventLike,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const owner = 'agent-owner';
const now = new Date('2026-11-25T12:00:00Z');
const steps: PlanStep[] = [
  {
    step: 1,
    tool: 'svc.agent.create_persona',
    title: 'Create a persona',
    args: { handle: 'ada' },
    writes: true,
    untrusted: [],
  },
  { step: 2, tool: 'svc.builder.publish', title: 'Publish your site', args: {}, writes: true, untrusted: [] },
  {
    step: 3,
    tool: 'svc.agent.list_personas',
    title: 'List personas',
    args: {},
    writes: false,
    untrusted: [],
  },
];
const hash = 'a'.repeat(64);
const proposal = {
  planId: 'p1',
  threadId: 't1',
  messageId: 'm1',
  ownerAgentId: owner,
  actingAgentId: owner,
  steps,
  hash,
  expiresAt: '2026-11-25T12:30:00Z',
};

/** The plan after these decisions, as the log would fold it. */
function given(...decisions: ((s: PlanState) => NewEvent[])[]): PlanState {
  const log: StoredEventLike[] = [];
  for (const d of decisions) {
    const state = fold<PlanState>('aplan-p1', log);
    for (const e of d(state)) log.push({ type: e.type, data: e.data, streamVersion: log.length + 1 });
  }
  return fold<PlanState>('aplan-p1', log);
}
const propose = (s: PlanState) => decideProposePlan(s, proposal);
const confirm =
  (extra: Partial<Parameters<typeof decideConfirmPlan>[1]> = {}) =>
  (s: PlanState) =>
    decideConfirmPlan(s, {
      ownerAgentId: owner,
      hash,
      now,
      confirmedByAgentId: owner,
      via: 'http',
      ...extra,
    });
const finish =
  (step: number, status: 'ran' | 'failed' | 'skipped' = 'ran') =>
  (s: PlanState) =>
    decideFinishStep(s, { ownerAgentId: owner, step, status, summary: 'done', events: [] });

describe('a plan', () => {
  test('given a proposed plan, when the person confirms it, then every step is confirmed and runs in order', () => {
    const state = given(propose, confirm());
    assert.equal(planStatus(state, now), 'confirmed');
    assert.deepEqual([...state.status.values()], ['confirmed', 'confirmed', 'confirmed']);
    assert.equal(confirmedStep(state, owner, 1).tool, 'svc.agent.create_persona');
  });

  test('given a confirmed plan, when it is confirmed again, then it is refused', () => {
    assert.equal(
      codeOf(() => confirm()(given(propose, confirm()))),
      'assistant.plan_already_confirmed',
    );
  });

  test('given a plan, when confirmed with another hash, then it is refused as altered', () => {
    assert.equal(
      codeOf(() => confirm({ hash: 'b'.repeat(64) })(given(propose))),
      'assistant.plan_altered',
    );
  });

  test('given a plan, when someone else confirms it, then it does not exist for them', () => {
    assert.equal(
      codeOf(() => confirm({ ownerAgentId: 'other' })(given(propose))),
      'assistant.plan_not_found',
    );
  });

  test('given a plan past its expiry, when confirmed, then it is refused as expired', () => {
    const late = new Date('2026-11-25T12:30:00Z');
    assert.equal(
      codeOf(() => confirm({ now: late })(given(propose))),
      'assistant.plan_expired',
    );
    assert.equal(planStatus(given(propose), late), 'expired');
  });

  test('given a cancelled plan, when confirmed, then it is refused as cancelled', () => {
    const cancelled = given(propose, (s) => decideCancelPlan(s, { ownerAgentId: owner, now }));
    assert.equal(planStatus(cancelled, now), 'cancelled');
    assert.equal(
      codeOf(() => confirm()(cancelled)),
      'assistant.plan_cancelled',
    );
  });

  test('given some steps cancelled, when the rest are confirmed, then only those run', () => {
    const state = given(
      propose,
      (s) => decideCancelPlan(s, { ownerAgentId: owner, now, steps: [2] }),
      confirm({ steps: [1] }),
    );
    assert.deepEqual(
      [...state.status.entries()],
      [
        [1, 'confirmed'],
        [2, 'cancelled'],
        [3, 'cancelled'],
      ],
    );
    assert.equal(
      codeOf(() => confirmedStep(state, owner, 2)),
      'assistant.step_not_confirmed',
    );
  });

  test('given chosen steps naming an unknown or cancelled step, then it is refused', () => {
    assert.equal(
      codeOf(() => confirm({ steps: [9] })(given(propose))),
      'assistant.step_unknown',
    );
    const cancelled = given(propose, (s) => decideCancelPlan(s, { ownerAgentId: owner, now, steps: [2] }));
    assert.equal(
      codeOf(() => confirm({ steps: [2] })(cancelled)),
      'assistant.plan_cancelled',
    );
  });

  test('given a step that ran, when it is finished again, then it is refused: a step runs at most once', () => {
    const state = given(propose, confirm(), finish(1));
    assert.equal(
      codeOf(() => finish(1)(state)),
      'assistant.step_already_finished',
    );
    assert.equal(
      codeOf(() => confirmedStep(state, owner, 1)),
      'assistant.step_already_finished',
    );
  });

  test('given a failed middle step and the rest skipped, then the plan reads as failed', () => {
    const state = given(propose, confirm(), finish(1), finish(2, 'failed'), finish(3, 'skipped'));
    assert.equal(planStatus(state, now), 'failed');
  });

  test('given every step ran, then the plan is completed', () => {
    assert.equal(planStatus(given(propose, confirm(), finish(1), finish(2), finish(3)), now), 'completed');
  });

  test('given an unconfirmed plan, when a step is finished, then it is refused', () => {
    assert.equal(
      codeOf(() => finish(1)(given(propose))),
      'assistant.step_not_confirmed',
    );
  });

  test('the hash input covers what decides what runs, as whom, and nothing shown only as text', () => {
    const input = planHashInput(proposal);
    assert.deepEqual(Object.keys(input), [
      'planId',
      'threadId',
      'messageId',
      'actingAgentId',
      'expiresAt',
      'steps',
    ]);
    assert.deepEqual(input.steps[0], { step: 1, tool: 'svc.agent.create_persona', args: { handle: 'ada' } });
  });

  test('steps must be numbered 1, 2, 3 in order', () => {
    const bad = { ...proposal, steps: [{ ...steps[0]!, step: 2 }] };
    assert.equal(
      codeOf(() => decideProposePlan(fold<PlanState>('aplan-p1', []), bad)),
      'input.invalid',
    );
  });
});
