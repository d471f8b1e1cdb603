// ctx.commit(streams, decide, { retries }): a command that lost the append to a concurrent one decides
// again on what the streams hold now, inside the pipeline; without retries the conflict is the answer.
import { conflict, isDomainError } from '@tributary/domain';
import { defineAssistantOperation, execute, proposePlan, type Services } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { z } from 'zod';
import { unitInstance } from './given-when-then.js';

/** Proposes a one-step plan, counting how often its decider ran. */
const proposeCounting = (retries: number | undefined, decided: { count: number }) =>
  defineAssistantOperation({
    name: 'test.commit.retries',
    title: 'Commit with retries (test)',
    description: 'test only',
    kind: 'command',
    scopes: [],
    enabledFor: [],
    input: z.object({}),
    async run(ctx) {
      const proposal = proposePlan(ctx, {
        threadId: 't-1',
        messageId: 'm-1',
        ownerAgentId: ctx.actor.agentId,
        actingAgentId: ctx.actor.agentId,
        steps: [{ tool: 'svc.agent.list_personas', args: {} }],
      });
      const { events } = await ctx.commit(
        [proposal.stream],
        (states) => {
          decided.count++;
          return proposal.decide(states);
        },
        retries === undefined ? undefined : { retries },
      );
      return { events: events.length };
    },
  });

/** The services with an event store whose first `failures` appends lose to a concurrent writer. */
function losingAppends(services: Services, failures: number): Services {
  let left = failures;
  const store = new Proxy(services.store, {
    get(target, prop) {
      if (prop === 'append')
        return async (...args: Parameters<Services['store']['append']>) => {
          if (left-- > 0) throw conflict('log.stream_conflict', 'the stream changed since it was read', {});
          return target.append(...args);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...services, store };
}

describe('ctx.commit retries', () => {
  test('given an append that loses twice, when the command allows three retries, then it decides three times and commits once', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const decided = { count: 0 };
    const { result, commit } = await execute(
      losingAppends(t.services, 2),
      proposeCounting(3, decided),
      {},
      ada.principal,
      'http',
    );
    assert.equal(decided.count, 3);
    assert.equal(result.events, 1);
    assert.equal(commit?.events.length, 1);
  });

  test('given an append that loses more often than the retries allow, then the conflict is the answer', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const decided = { count: 0 };
    const before = t.store.all().length;
    await assert.rejects(
      execute(losingAppends(t.services, 5), proposeCounting(1, decided), {}, ada.principal, 'http'),
      (e) => isDomainError(e) && e.code === 'log.stream_conflict',
    );
    assert.equal(decided.count, 2);
    assert.equal(t.store.all().length, before);
  });

  test('given no retries, when the append loses once, then the conflict is the answer after one decision', async () => {
    const t = await unitInstance();
    const ada = await t.signUp('ada');
    const decided = { count: 0 };
    await assert.rejects(
      execute(losingAppends(t.services, 1), proposeCounting(undefined, decided), {}, ada.principal, 'http'),
      (e) => isDomainError(e) && e.code === 'log.stream_conflict',
    );
    assert.equal(decided.count, 1);
  });
});
