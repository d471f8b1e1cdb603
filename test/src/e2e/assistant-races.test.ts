// Races on a plan answer truthfully (docs/assistant.md#races): confirms and cancels of one plan sent at
// once, over HTTP. Whichever request wins, every answer is the plan's true state — a confirm that lost
// to a cancel is `assistant.plan_cancelled`, a cancel that lost to a confirm
// `assistant.plan_already_confirmed`, never a bare `log.stream_conflict` — every confirm answered 200
// shows each step's outcome whichever request ran it, each step runs once, and the provenance log holds
// one entry per step that ran and none for an attempt that lost.
import { proposeTestPlan, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { signUp, type Loose, type Person } from './mcp-helpers.js';

describe('confirms and cancels of one plan at once', () => {
  let instance: TestInstance;
  let ada: Person;
  let round = 0;

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  /** A three-persona plan, proposed as the chat turn loop commits one. */
  async function threePersonas() {
    round++;
    return proposeTestPlan(instance.instance.services, ada, {
      text: 'make three personas',
      steps: ['a', 'b', 'c'].map((x) => ({
        tool: 'svc.agent.create_persona',
        args: { name: `Racer ${round}${x}`, handle: `racer${round}${x}` },
      })),
    });
  }

  /** The plan's entries in the provenance log (from the events: nothing projected is waited for). */
  async function provenanceOf(planId: string): Promise<Loose[]> {
    const { rows } = await instance.instance.pool.query(
      `SELECT envelope FROM events WHERE type = 'provenance.recorded'`,
    );
    return rows
      .map((r) => JSON.parse(r.envelope as string).data as Loose)
      .filter((d) => d.plan?.planId === planId);
  }

  async function personasOfRound(n: number): Promise<string[]> {
    const r = await ada.browser.post('/api/ops/svc.agent.list_personas', {});
    return (r.json.result.personas as Loose[])
      .map((p) => p.name as string)
      .filter((name) => name.startsWith(`Racer ${n}`))
      .sort();
  }

  /** Sends `confirms` confirms and `cancels` cancels of the plan at once, interleaved. */
  async function race(plan: Awaited<ReturnType<typeof threePersonas>>, confirms: number, cancels: number) {
    const requests: Promise<{ kind: 'confirm' | 'cancel'; status: number; json: Loose }>[] = [];
    for (let i = 0; i < Math.max(confirms, cancels); i++) {
      if (i < confirms)
        requests.push(
          ada.browser
            .call('POST', '/api/autobot/confirm', { planHash: plan.hash })
            .then((r) => ({ kind: 'confirm' as const, status: r.status, json: r.json as Loose })),
        );
      if (i < cancels)
        requests.push(
          ada.browser
            .call('PATCH', `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`, {
              decision: 'cancel',
              planHash: plan.hash,
            })
            .then((r) => ({ kind: 'cancel' as const, status: r.status, json: r.json as Loose })),
        );
    }
    return Promise.all(requests);
  }

  test('given a proposed plan, when 10 confirms and 10 cancels arrive at once, then every answer is the plan’s true state with a clear code, and what ran ran once with one provenance entry per step', async () => {
    const outcomes = new Set<string>();
    // A few rounds, so both a winning confirm and a winning cancel are likely seen.
    for (let i = 0; i < 4; i++) {
      const plan = await threePersonas();
      const answers = await race(plan, 10, 10);
      const read = await ada.browser.call('POST', '/api/ops/svc.assistant.read_plan', {
        planId: plan.planId,
      });
      assert.equal(read.status, 200, read.text);
      const final = read.json.result.status as string;
      outcomes.add(final);
      assert.ok(final === 'completed' || final === 'cancelled', `final status ${final}`);
      for (const a of answers) {
        assert.ok(a.status === 200 || a.status === 409, `${a.kind}: ${a.status} ${JSON.stringify(a.json)}`);
        if (a.status === 409) {
          // The code names what happened to the plan, and the details carry its state as the log holds it.
          const expected: string =
            final === 'completed' ? 'assistant.plan_already_confirmed' : 'assistant.plan_cancelled';
          assert.equal(a.json.code, expected, `${a.kind} in a ${final} plan: ${JSON.stringify(a.json)}`);
          assert.equal(a.json.plan?.status ?? a.json.details?.plan?.status, final, JSON.stringify(a.json));
        } else if (a.kind === 'confirm') {
          assert.equal(final, 'completed');
          // Whoever ran the steps, the confirm that answered 200 shows every step done.
          assert.equal(a.json.result.status, 'completed', JSON.stringify(a.json.result));
          assert.deepEqual(
            (a.json.result.steps as Loose[]).map((s) => s.status),
            ['ran', 'ran', 'ran'],
          );
        } else {
          assert.equal(final, 'cancelled');
          assert.equal(a.json.result.status, 'cancelled');
        }
      }
      const cancelled200 = answers.filter((a) => a.kind === 'cancel' && a.status === 200).length;
      const confirmed200 = answers.filter((a) => a.kind === 'confirm' && a.status === 200).length;
      const provenance = await provenanceOf(plan.planId);
      if (final === 'completed') {
        assert.equal(cancelled200, 0);
        assert.ok(confirmed200 >= 1, 'at least the confirmation that won answered 200');
        assert.deepEqual(await personasOfRound(round), [
          `Racer ${round}a`,
          `Racer ${round}b`,
          `Racer ${round}c`,
        ]);
        // One entry per step, each the call that ran: none for an attempt that lost.
        assert.deepEqual(provenance.map((p) => [p.plan.step, p.outcome]).sort(), [
          [1, 'ok'],
          [2, 'ok'],
          [3, 'ok'],
        ]);
      } else {
        assert.equal(cancelled200, 1, 'one cancel won; the others were told the plan is cancelled');
        assert.equal(confirmed200, 0);
        assert.deepEqual(await personasOfRound(round), []);
        assert.deepEqual(provenance, []);
      }
    }
    assert.ok(outcomes.size >= 1);
  });

  test('given a proposed plan, when 10 confirms arrive at once, then each answers every step done (or that it was already confirmed, with the steps done), each step ran once', async () => {
    const plan = await threePersonas();
    const answers = await race(plan, 10, 0);
    for (const a of answers) {
      const state = a.status === 200 ? a.json.result : (a.json.plan ?? a.json.details?.plan);
      if (a.status === 409) assert.equal(a.json.code, 'assistant.plan_already_confirmed');
      else assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.equal(state.status, 'completed', JSON.stringify(a.json));
      assert.deepEqual(
        (state.steps as Loose[]).map((s) => s.status),
        ['ran', 'ran', 'ran'],
      );
    }
    // What each request says it ran adds up to the plan, each step once.
    const ranNow = answers.filter((a) => a.status === 200).flatMap((a) => a.json.result.ranNow as number[]);
    assert.deepEqual(ranNow.sort(), [1, 2, 3]);
    assert.deepEqual(await personasOfRound(round), [`Racer ${round}a`, `Racer ${round}b`, `Racer ${round}c`]);
    const provenance = await provenanceOf(plan.planId);
    assert.deepEqual(provenance.map((p) => [p.plan.step, p.outcome]).sort(), [
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
    ]);
  });
});
