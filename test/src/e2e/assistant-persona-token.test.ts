// A token bound to a persona is bound for the assistant too: over MCP (the official SDK client) it
// neither lists, reads, deletes nor decides the person's own threads, nor reads or confirms the person's
// plans (which act for other agents); its own threads and plans are the persona's, and act only for it.
import { startTestInstance, type TestInstance } from '@tributary/test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  createPersona,
  errorCodeOf,
  issueToken,
  mcpClient,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

describe('the assistant under a persona-bound token', () => {
  let instance: TestInstance;
  let ada: Person;
  let cook: string;
  let baker: string;
  let bound: Client;
  /** The person's own plan, acting for another persona: the thread, its message and the plan. */
  let theirs: { threadId: string; messageId: string; planId: string; hash: string };
  const footprint = async () =>
    Number(
      (
        await instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`,
        )
      ).rows[0].n,
    );
  const personaNames = async () =>
    ((await ada.browser.post('/api/ops/svc.agent.list_personas', {})).json.result.personas as Loose[]).map(
      (p) => p.name as string,
    );

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    cook = await createPersona(ada, 'Cook');
    baker = await createPersona(ada, 'Baker');
    const chat = await ada.browser.post('/api/autobot/chat', {
      message: 'create a persona called Pip',
      targetAgentId: baker,
    });
    assert.equal(chat.status, 200, chat.text);
    const out = chat.json.result;
    assert.equal(out.plan.actingAgentId, baker);
    theirs = {
      threadId: out.threadId,
      messageId: out.message.messageId,
      planId: out.plan.planId,
      hash: out.plan.hash,
    };
    const token = await issueToken(ada, {
      scopes: ['svc.assistant.read', 'svc.assistant.write', 'svc.agent.read', 'svc.agent.write'],
      targetAgentId: cook,
    });
    bound = await mcpClient(instance.url, { bearer: token.token });
  });
  afterAll(async () => {
    await bound?.close();
    await instance?.destroy();
  });

  test("given the person's plan acting for another persona, when a token bound to Cook lists, reads, deletes or decides it, then it is not found and nothing is written", async () => {
    const before = await footprint();
    const listed = structured(await bound.callTool({ name: 'svc.assistant.list_threads', arguments: {} }));
    assert.deepEqual(
      (listed.threads as Loose[]).map((t) => t.threadId),
      [],
      "the person's thread is not listed",
    );
    const refusals: [string, Record<string, unknown>, string][] = [
      ['svc.assistant.read_thread', { threadId: theirs.threadId }, 'assistant.thread_not_found'],
      ['svc.assistant.read_plan', { planId: theirs.planId }, 'assistant.plan_not_found'],
      ['svc.assistant.read_plan', { planHash: theirs.hash }, 'assistant.plan_not_found'],
      ['svc.assistant.confirm_plan', { planHash: theirs.hash }, 'assistant.plan_not_found'],
      [
        'svc.assistant.decide_actions',
        { threadId: theirs.threadId, messageId: theirs.messageId, decision: 'confirm' },
        'assistant.thread_not_found',
      ],
      [
        'svc.assistant.decide_actions',
        { threadId: theirs.threadId, messageId: theirs.messageId, decision: 'cancel' },
        'assistant.thread_not_found',
      ],
      ['svc.assistant.delete_thread', { threadId: theirs.threadId }, 'assistant.thread_not_found'],
      [
        'svc.assistant.chat',
        { message: 'and one called Kit', threadId: theirs.threadId },
        'assistant.thread_not_found',
      ],
    ];
    for (const [name, args, code] of refusals)
      assert.equal(errorCodeOf(await bound.callTool({ name, arguments: args })), code, name);
    assert.equal(await footprint(), before);
    assert.ok(!(await personaNames()).includes('Pip'), 'the plan did not run');
    // The person still holds the thread and its pending plan.
    const read = await ada.browser.get(`/api/autobot/threads/${theirs.threadId}`);
    assert.equal(read.status, 200, read.text);
    const plan = (read.json.result.messages as Loose[]).find((m) => m.messageId === theirs.messageId)!.plan;
    assert.equal(plan.status, 'proposed');
  });

  test('given the token bound to Cook, when it talks to the assistant, then the thread and the plan are its own, act for Cook, and it confirms them', async () => {
    // Reads of one's own data run at once by default; asked first here, so the read is a plan to confirm.
    const asked = await ada.browser.post('/api/autobot/settings', { readAreas: [] });
    assert.equal(asked.status, 200, asked.text);
    const out = structured(
      await bound.callTool({
        name: 'svc.assistant.chat',
        arguments: { message: 'list my personas' },
      }),
    );
    assert.equal(out.plan.actingAgentId, cook);
    const listed = structured(await bound.callTool({ name: 'svc.assistant.list_threads', arguments: {} }));
    assert.deepEqual(
      (listed.threads as Loose[]).map((t) => t.threadId),
      [out.threadId],
    );
    const confirmed = structured(
      await bound.callTool({ name: 'svc.assistant.confirm_plan', arguments: { planHash: out.plan.hash } }),
    );
    assert.deepEqual(
      (confirmed.steps as Loose[]).map((s) => [s.tool, s.status]),
      [['svc.agent.list_personas', 'ran']],
    );
    // The person's session does not hold the persona's plan.
    const theirView = await ada.browser.post('/api/autobot/confirm', { planHash: out.plan.hash });
    assert.equal(theirView.status, 404, theirView.text);
    assert.equal(theirView.json.code, 'assistant.plan_not_found');
  });
});
