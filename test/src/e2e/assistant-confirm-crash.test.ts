// A confirm interrupted by a crash between two steps resumes without running any step twice: the
// instance runs as a real process (`tributary start`) with a failpoint that SIGKILLs it right after the
// first step of a confirmed plan is on the log. Started again, the same confirm is sent again: it runs
// only the steps that had not run, and answers the plan's true state. The log is the witness: each
// step's record, its persona and its provenance entry exist exactly once.
import { browser, proposeTestPlan, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ready, startProcess, type StartedProcess } from './start-helpers.js';

describe('a confirm interrupted by a crash between steps', () => {
  let setup: TestInstance; // in-process, to sign up and propose the plan; stopped before the real process runs
  let proc: StartedProcess | undefined;
  beforeAll(async () => {
    setup = await startTestInstance();
  });
  afterAll(async () => {
    proc?.child.kill('SIGKILL');
    await setup?.destroy();
  });

  test('given a process killed after the first of three confirmed steps, when it starts again and the confirm is retried, then no step ran twice and the answer is the plan’s true state', async () => {
    const url = setup.url;
    const port = new URL(url).port;
    const ada = browser(url);
    const signup = await ada.post('/api/auth/signup', {
      handle: 'ada',
      password: 'correct horse battery staple',
    });
    assert.equal(signup.status, 201, signup.text);
    const person = { accountId: signup.json.accountId as string, agentId: signup.json.agentId as string };
    const plan = await proposeTestPlan(setup.instance.services, person, {
      text: 'three personas',
      steps: ['Alpha', 'Bravo', 'Charlie'].map((name) => ({
        tool: 'svc.agent.create_persona',
        args: { name, handle: name.toLowerCase() },
      })),
    });
    await setup.stop();

    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: setup.databaseUrl,
      TRIBUTARY_DATA_DIR: setup.dataDir,
      PORT: port,
      BASE_URL: url,
      LOG_LEVEL: 'warn',
      FEDERATION_SYNC: 'off',
    };
    proc = startProcess({ ...env, TRIBUTARY_FAILPOINTS: 'assistant.confirm.after-first-step' });
    await ready(Number(port), proc);
    // The request dies with the process: the client never hears how the plan went.
    const interrupted = await ada
      .post('/api/autobot/confirm', { planHash: plan.hash })
      .catch((e: Error) => e);
    assert.ok(
      interrupted instanceof Error,
      `the confirm should not have been answered: ${JSON.stringify(interrupted)}`,
    );
    await proc.exited;
    assert.equal(proc.child.signalCode, 'SIGKILL', proc.output());

    const log = async () => {
      const client = new pg.Client({ connectionString: setup.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ type: string; data: Record<string, unknown> }>(
          `SELECT type, envelope::jsonb -> 'data' AS data FROM events
            WHERE stream = $1
               OR (type = 'agent.created' AND envelope::jsonb -> 'data' ->> 'ownerAgentId' = $2)
               OR (type = 'provenance.recorded' AND envelope::jsonb -> 'data' -> 'plan' ->> 'planId' = $3)
            ORDER BY position`,
          [`aplan-${plan.planId}`, person.agentId, plan.planId],
        );
        return rows;
      } finally {
        await client.end();
      }
    };
    const afterCrash = await log();
    assert.deepEqual(
      afterCrash.filter((r) => r.type.startsWith('assistant.')).map((r) => [r.type, r.data.step ?? null]),
      [
        ['assistant.plan_proposed', null],
        ['assistant.plan_confirmed', null],
        ['assistant.plan_step_finished', 1],
      ],
      'the confirmation and the first step are on the log, nothing more',
    );
    assert.deepEqual(
      afterCrash.filter((r) => r.type === 'agent.created').map((r) => r.data.name),
      ['Alpha'],
    );

    // Started again without the failpoint; the same confirm is retried.
    proc = startProcess(env);
    await ready(Number(port), proc);
    const retried = await ada.post('/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(retried.status, 200, retried.text);
    const result = retried.json.result;
    assert.equal(result.resumed, true);
    assert.deepEqual(result.ranNow, [2, 3], 'only the steps that had not run');
    assert.equal(result.status, 'completed');
    assert.deepEqual(
      (result.steps as { status: string }[]).map((s) => s.status),
      ['ran', 'ran', 'ran'],
    );

    const afterRetry = await log();
    const finished = afterRetry
      .filter((r) => r.type === 'assistant.plan_step_finished')
      .map((r) => r.data.step);
    assert.deepEqual(finished, [1, 2, 3], 'each step recorded once');
    assert.deepEqual(
      afterRetry.filter((r) => r.type === 'agent.created').map((r) => r.data.name),
      ['Alpha', 'Bravo', 'Charlie'],
      'each persona created once',
    );
    const provenance = afterRetry
      .filter((r) => r.type === 'provenance.recorded' && (r.data.plan as { step: number }).step > 0)
      .map((r) => [(r.data.plan as { step: number }).step, r.data.outcome]);
    assert.deepEqual(
      provenance,
      [
        [1, 'ok'],
        [2, 'ok'],
        [3, 'ok'],
      ],
      'one provenance entry per step',
    );
    // A further retry is refused with the plan's state and runs nothing.
    const again = await ada.post('/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'assistant.plan_already_confirmed');
    assert.equal((await log()).length, afterRetry.length);

    proc.child.kill('SIGTERM');
    assert.equal(await proc.exited, 0, proc.output());
    proc = undefined;
  });
});
