// Plans a person confirms, over HTTP and MCP (docs/assistant.md#plans): a plan proposed (through
// proposePlan, as the chat turn loop commits it) is pending; confirmed, every step runs once, as an MCP
// call would, its events, its provenance entry and the plan's record of it in one transaction; its
// effects are visible through REST and MCP. Cancelling leaves nothing; a failing middle step stops the
// plan; refusals carry their codes and write nothing.
import { rebuildProjections } from '@tributary/infra';
import { assistantProjections } from '@tributary/projections';
import { proposeTestPlan, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const personas = (...names: string[]) =>
  names.map((name) => ({ tool: 'svc.agent.create_persona', args: { name, handle: name.toLowerCase() } }));

describe('assistant plans over HTTP and MCP', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let bob: Person;
  const pool = () => instance.instance.pool;
  const propose = (who: Person, steps: { tool: string; args: Record<string, unknown> }[], text = 'do it') =>
    proposeTestPlan(instance.instance.services, who, { text, steps });
  /** Every event but provenance entries: what a refusal must leave alone. */
  const footprint = async () =>
    Number(
      (await pool().query(`SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`)).rows[0].n,
    );
  const personaNames = async (who: Person) =>
    ((await who.browser.post('/api/ops/svc.agent.list_personas', {})).json.result.personas as Loose[])
      .map((p) => p.name)
      .sort();

  beforeAll(async () => {
    instance = await startTestInstance();
    url = instance.url;
    ada = await signUp(url, 'ada');
    bob = await signUp(url, 'bob');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a proposed plan, when its owner confirms it by hash, then it was pending, every step ran once in one transaction with its provenance, and the effects show through REST and MCP', async () => {
    const plan = await propose(ada, [
      ...personas('Cook', 'Baker'),
      { tool: 'svc.agent.list_personas', args: {} },
    ]);
    const threads = await ada.browser.get('/api/autobot/threads');
    assert.equal(threads.status, 200, threads.text);
    const listed = (threads.json.result.threads as Loose[]).find((t) => t.threadId === plan.threadId);
    assert.ok(listed, 'the thread is listed');
    assert.equal(listed.messageCount, 2);
    const read = await ada.browser.get(`/api/autobot/threads/${plan.threadId}`);
    assert.equal(read.status, 200, read.text);
    const proposedIn = (read.json.result.messages as Loose[]).find((m) => m.messageId === plan.messageId)!;
    assert.equal(proposedIn.plan.status, 'proposed');
    assert.deepEqual(
      (proposedIn.plan.steps as Loose[]).map((s) => [s.tool, s.status, s.writes]),
      [
        ['svc.agent.create_persona', 'pending', true],
        ['svc.agent.create_persona', 'pending', true],
        ['svc.agent.list_personas', 'pending', false],
      ],
    );
    assert.deepEqual(await personaNames(ada), [], 'nothing ran before the confirmation');

    const confirmed = await ada.browser.call('POST', '/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    const result = confirmed.json.result as Loose;
    assert.equal(result.status, 'completed');
    assert.deepEqual(
      (result.steps as Loose[]).map((s) => s.status),
      ['ran', 'ran', 'ran'],
    );
    assert.deepEqual(result.ranNow, [1, 2, 3]);

    // REST and MCP see the two personas.
    assert.deepEqual(await personaNames(ada), ['Baker', 'Cook']);
    const token = await issueToken(ada, { scopes: ['svc.agent.read'] });
    const client = await mcpClient(url, { bearer: token.token });
    try {
      const listedOverMcp = structured(
        await client.callTool({ name: 'svc.agent.list_personas', arguments: {} }),
      );
      const names = ((listedOverMcp.result ?? listedOverMcp).personas as Loose[]).map((p) => p.name).sort();
      assert.deepEqual(names, ['Baker', 'Cook']);
    } finally {
      await client.close();
    }

    // On the log: each step's events, its provenance entry (naming the plan and step, surface
    // 'assistant') and the plan's record of it were written by one transaction.
    const { rows } = await pool().query<{ tx: string; type: string; data: Loose }>(
      `SELECT tx_id::text AS tx, type, envelope::jsonb -> 'data' AS data FROM events
        WHERE stream = $1 OR (type = 'provenance.recorded' AND envelope::jsonb -> 'data' -> 'plan' ->> 'planId' = $2)
           OR tx_id IN (SELECT tx_id FROM events WHERE stream = $1)
        ORDER BY position`,
      [`aplan-${plan.planId}`, plan.planId],
    );
    for (const step of [1, 2, 3]) {
      const finished = rows.find((r) => r.type === 'assistant.plan_step_finished' && r.data.step === step)!;
      const sameTx = rows.filter((r) => r.tx === finished.tx).map((r) => r.type);
      const provenance = rows.filter((r) => r.tx === finished.tx && r.type === 'provenance.recorded');
      assert.equal(provenance.length, 1, `step ${step} has one provenance entry in its transaction`);
      assert.deepEqual(provenance[0]!.data.plan, { planId: plan.planId, hash: plan.hash, step });
      assert.equal(provenance[0]!.data.surface, 'assistant');
      if (step < 3) {
        assert.ok(sameTx.includes('agent.created'), `step ${step}'s persona is in its transaction`);
        assert.deepEqual(
          (finished.data.events as Loose[]).map((e) => e.type),
          ['handle.claimed', 'agent.created'],
        );
      } else assert.deepEqual(finished.data.events, [], 'a read writes nothing of its own');
    }
    assert.equal(rows.filter((r) => r.type === 'assistant.plan_step_finished').length, 3);

    // Confirming again is refused, with the plan's true state, and runs nothing.
    const before = await footprint();
    const again = await ada.browser.call('POST', '/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'assistant.plan_already_confirmed');
    assert.equal(await footprint(), before);
  });

  test('given a proposed plan, when its owner cancels it through its message, then nothing ran and confirming it later is refused', async () => {
    const plan = await propose(ada, personas('Gardener'));
    const before = await footprint();
    const cancelled = await ada.browser.call(
      'PATCH',
      `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`,
      { decision: 'cancel' },
    );
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json.result.status, 'cancelled');
    assert.equal(await footprint(), before + 1, 'only the cancellation is written');
    assert.ok(!(await personaNames(ada)).includes('Gardener'));
    const late = await ada.browser.call('POST', '/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(late.status, 409);
    assert.equal(late.json.code, 'assistant.plan_cancelled');
  });

  test('given a plan whose middle step fails, when it is confirmed through its message, then the first ran, the second failed with its code, the third was skipped, and the plan records it', async () => {
    const plan = await propose(bob, [...personas('Twin', 'Twin'), ...personas('Third')]);
    const r = await bob.browser.call(
      'PATCH',
      `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`,
      { decision: 'confirm', planHash: plan.hash },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.result.status, 'failed');
    assert.deepEqual(
      (r.json.result.steps as Loose[]).map((s) => [s.status, s.errorCode]),
      [
        ['ran', null],
        ['failed', 'agent.handle_taken'],
        ['skipped', null],
      ],
    );
    assert.deepEqual(await personaNames(bob), ['Twin']);
    const read = await bob.browser.get(`/api/autobot/threads/${plan.threadId}`);
    const shown = (read.json.result.messages as Loose[]).find((m) => m.planId === plan.planId)!;
    assert.equal(shown.plan.status, 'failed');
    assert.deepEqual(
      (shown.plan.steps as Loose[]).map((s) => s.status),
      ['ran', 'failed', 'skipped'],
    );
  });

  test('given a plan, when it is confirmed over MCP, then only a token whose scopes cover every step may, and the confirmation says it came over MCP', async () => {
    const plan = await propose(ada, personas('Painter'));
    const narrow = await issueToken(ada, { scopes: ['svc.assistant.read', 'svc.assistant.write'] });
    const wide = await issueToken(ada, {
      scopes: ['svc.assistant.read', 'svc.assistant.write', 'svc.agent.write'],
    });
    const before = await footprint();
    const a = await mcpClient(url, { bearer: narrow.token });
    try {
      const refused = await a.callTool({
        name: 'svc.assistant.confirm_plan',
        arguments: { planHash: plan.hash },
      });
      assert.equal(errorCodeOf(refused), 'assistant.scope_not_covered');
      assert.equal(await footprint(), before, 'nothing ran');
    } finally {
      await a.close();
    }
    const b = await mcpClient(url, { bearer: wide.token });
    try {
      const ok = structured(
        await b.callTool({ name: 'svc.assistant.confirm_plan', arguments: { planHash: plan.hash } }),
      );
      const result = (ok.result ?? ok) as Loose;
      assert.equal(result.status, 'completed');
      const read = structured(
        await b.callTool({ name: 'svc.assistant.read_plan', arguments: { planHash: plan.hash } }),
      );
      assert.deepEqual(
        ((read.result ?? read) as Loose).steps.map((s: Loose) => s.status),
        ['ran'],
      );
    } finally {
      await b.close();
    }
    const via = await pool().query(
      `SELECT envelope::jsonb -> 'data' ->> 'via' AS via FROM events WHERE stream = $1 AND type = 'assistant.plan_confirmed'`,
      [`aplan-${plan.planId}`],
    );
    assert.equal(via.rows[0].via, 'mcp');
  });

  test('given bad input and other people’s threads and plans, when they are used, then each answers its code and nothing is written', async () => {
    const plan = await propose(ada, personas('Secret'));
    const before = await footprint();
    const cases: [Person, string, string, unknown, number, string][] = [
      [ada, 'POST', '/api/autobot/confirm', { planHash: 'not-a-hash' }, 400, 'input.invalid'],
      [
        ada,
        'POST',
        '/api/autobot/confirm',
        { planHash: plan.hash, steps: [7] },
        400,
        'assistant.step_unknown',
      ],
      [ada, 'POST', '/api/autobot/confirm', { planHash: plan.hash, extra: 1 }, 400, 'input.invalid'],
      [bob, 'POST', '/api/autobot/confirm', { planHash: plan.hash }, 404, 'assistant.plan_not_found'],
      [bob, 'GET', `/api/autobot/threads/${plan.threadId}`, undefined, 404, 'assistant.thread_not_found'],
      [bob, 'DELETE', `/api/autobot/threads/${plan.threadId}`, {}, 404, 'assistant.thread_not_found'],
      [
        bob,
        'PATCH',
        `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`,
        { decision: 'confirm' },
        404,
        'assistant.thread_not_found',
      ],
      [
        ada,
        'PATCH',
        `/api/autobot/threads/${plan.threadId}/messages/nope/actions`,
        { decision: 'confirm' },
        404,
        'assistant.message_not_found',
      ],
      [
        ada,
        'PATCH',
        `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`,
        { decision: 'maybe' },
        400,
        'input.invalid',
      ],
      [
        ada,
        'PATCH',
        `/api/autobot/threads/${plan.threadId}/messages/${plan.messageId}/actions`,
        { decision: 'confirm', planHash: 'b'.repeat(64) },
        409,
        'assistant.plan_altered',
      ],
    ];
    for (const [who, method, path, body, status, code] of cases) {
      const r = await who.browser.call(method, path, body);
      assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.code, code, `${method} ${path}`);
    }
    const anonymous = await fetch(`${url}/api/autobot/threads`);
    assert.equal(anonymous.status, 401);
    assert.equal(await footprint(), before, 'no refusal wrote anything');
    assert.ok(!(await personaNames(ada)).includes('Secret'));
  });

  test('given a thread, when its owner deletes it, then it and its messages and plan leave the read models, its plan cannot be confirmed, and the log keeps the events', async () => {
    const plan = await propose(ada, personas('Ghost'), 'a thread to delete');
    const gone = await ada.browser.call('DELETE', `/api/autobot/threads/${plan.threadId}`, {});
    assert.equal(gone.status, 200, gone.text);
    const threads = await ada.browser.get('/api/autobot/threads?limit=100');
    assert.ok(!(threads.json.result.threads as Loose[]).some((t) => t.threadId === plan.threadId));
    assert.equal((await ada.browser.get(`/api/autobot/threads/${plan.threadId}`)).status, 404);
    const confirm = await ada.browser.call('POST', '/api/autobot/confirm', { planHash: plan.hash });
    assert.equal(confirm.status, 404);
    assert.equal(confirm.json.code, 'assistant.plan_not_found');
    for (const table of ['rm_assistant_threads', 'rm_assistant_messages', 'rm_assistant_plans'])
      assert.equal(
        (await pool().query(`SELECT count(*) AS n FROM ${table} WHERE thread_id = $1`, [plan.threadId]))
          .rows[0].n,
        '0',
        table,
      );
    const kept = await pool().query(`SELECT type FROM events WHERE stream = $1 ORDER BY position`, [
      `athread-${plan.threadId}`,
    ]);
    assert.deepEqual(
      kept.rows.map((r) => r.type),
      [
        'assistant.thread_started',
        'assistant.message_added',
        'assistant.message_added',
        'assistant.thread_deleted',
      ],
    );
  });

  test('given several threads, when they are listed a page at a time, then newest activity comes first and the pages join up', async () => {
    const carol = await signUp(url, 'carol');
    const made: string[] = [];
    for (const n of [1, 2, 3])
      made.push((await propose(carol, personas(`Listed${n}`), `thread ${n}`)).threadId);
    const first = await carol.browser.get('/api/autobot/threads?limit=2');
    assert.deepEqual(
      (first.json.result.threads as Loose[]).map((t) => t.threadId),
      [made[2], made[1]],
    );
    const second = await carol.browser.get(
      `/api/autobot/threads?limit=2&before=${first.json.result.nextBefore}`,
    );
    assert.deepEqual(
      (second.json.result.threads as Loose[]).map((t) => t.threadId),
      [made[0]],
    );
    assert.equal(second.json.result.nextBefore, null);
    assert.equal((first.json.result.threads as Loose[])[0]!.title, 'thread 3');
  });
  test('given everything the suite did, when the assistant read models are rebuilt from the log, then they hold exactly what they held', async () => {
    const tables = async () => {
      const out: Record<string, unknown[]> = {};
      for (const p of assistantProjections)
        for (const t of p.tables) out[t] = (await pool().query(`SELECT * FROM ${t} ORDER BY 1, 2`)).rows;
      return out;
    };
    const before = await tables();
    assert.ok((before.rm_assistant_plan_steps ?? []).length > 5, 'the suite left plans to rebuild');
    await rebuildProjections(pool(), [...assistantProjections]);
    assert.deepEqual(await tables(), before);
  });
});
