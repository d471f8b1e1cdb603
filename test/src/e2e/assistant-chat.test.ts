// POST /api/autobot/chat end to end on real instances (PostgreSQL): the built-in planner (no model
// configured) proposing a plan that writes nothing until confirmed, as one JSON body and as server-sent
// events; the same operation as an MCP tool over the official SDK client; and an instance whose model is
// the OpenAI-compatible client talking to the test harness's server: streamed deltas, declined calls,
// a model that fails (500, garbage, too slow) or a client that goes away — and nothing recorded then.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  startOpenAiCompatibleServer,
  startTestInstance,
  type OpenAiCompatibleServer,
  type TestInstance,
} from '../harness/index.js';
import { issueToken, mcpClient, signUp, structured, type Loose, type Person } from './mcp-helpers.js';

let planner: TestInstance;
let hosted: TestInstance;
let model: OpenAiCompatibleServer;
let ada: Person;
let bea: Person;
let cy: Person;

beforeAll(async () => {
  model = await startOpenAiCompatibleServer({ models: ['test-model'] });
  [planner, hosted] = await Promise.all([
    startTestInstance(),
    startTestInstance({
      env: {
        LLM_BASE_URL: model.url,
        LLM_MODEL: 'test-model',
        LLM_TIMEOUT_MS: '3000',
        ASSISTANT_CHAT_TIMEOUT_MS: '20000',
      },
    }),
  ]);
  ada = await signUp(planner.url, 'ada');
  bea = await signUp(planner.url, 'bea');
  cy = await signUp(hosted.url, 'cyd');
});

afterAll(async () => {
  await Promise.all([planner?.destroy(), hosted?.destroy()]);
  await model?.close();
});

/** Events on the log that are not provenance entries (reads record those). */
async function commandEvents(instance: TestInstance): Promise<number> {
  const { rows } = await instance.instance.pool.query(
    `SELECT count(*)::int AS n FROM events WHERE type <> 'provenance.recorded'`,
  );
  return rows[0].n as number;
}

async function eventTypesSince(instance: TestInstance, count: number): Promise<string[]> {
  const { rows } = await instance.instance.pool.query(
    `SELECT type FROM events WHERE type <> 'provenance.recorded' ORDER BY position OFFSET $1`,
    [count],
  );
  return rows.map((r) => r.type as string);
}

interface SseEvent {
  event: string;
  data: Loose;
}

/** A chat as server-sent events: the status, the content type, the events and the keep-alives. */
async function chatStream(who: Person, url: string, body: Loose, signal?: AbortSignal) {
  const res = await fetch(`${url}/api/autobot/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie: who.browser.cookie },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });
  const text = await res.text();
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const event = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (event && data) events.push({ event, data: JSON.parse(data) });
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', events, text };
}

describe('the built-in planner (no model configured)', () => {
  test('“create a persona called Pip” answers a plan with one write step, exactly as it will run, and nothing is written', async () => {
    const before = await commandEvents(planner);
    const r = await ada.browser.post('/api/autobot/chat', { message: 'create a persona called Pip' });
    assert.equal(r.status, 200, r.text);
    const out = r.json.result;
    assert.equal(out.started, true);
    assert.ok(out.plan, 'a plan');
    assert.match(out.plan.hash, /^[0-9a-f]{64}$/);
    assert.equal(out.plan.actingAgentId, ada.agentId);
    assert.deepEqual(
      out.plan.steps.map((s: Loose) => [s.step, s.tool, s.writes, s.args]),
      [[1, 'svc.agent.create_persona', true, { name: 'Pip', targetAgentId: ada.agentId }]],
    );
    assert.equal(out.message.planId, out.plan.planId);
    assert.equal(out.message.model, 'builtin-planner');
    // The thread, both messages and the plan, nothing else: no persona.
    assert.deepEqual(await eventTypesSince(planner, before), [
      'assistant.thread_started',
      'assistant.message_added',
      'assistant.message_added',
      'assistant.plan_proposed',
    ]);
    const personas = await ada.browser.post('/api/ops/svc.agent.list_personas', {});
    assert.ok(!personas.json.result.personas.some((p: Loose) => p.name === 'Pip'), 'no persona yet');
    // Confirmed by its hash, the step runs: now Pip exists.
    const confirmed = await ada.browser.post('/api/autobot/confirm', { planHash: out.plan.hash });
    assert.equal(confirmed.status, 200, confirmed.text);
    const after = await ada.browser.post('/api/ops/svc.agent.list_personas', {});
    assert.ok(
      after.json.result.personas.some((p: Loose) => p.name === 'Pip'),
      'Pip, once confirmed',
    );
  });

  test('streamed: delta events, then the message with its plan, as text/event-stream', async () => {
    const s = await chatStream(ada, planner.url, { message: 'create a persona called Quill', stream: true });
    assert.equal(s.status, 200, s.text);
    assert.match(s.type, /^text\/event-stream/);
    const deltas = s.events.filter((e) => e.event === 'delta');
    assert.ok(deltas.length >= 1, 'at least one delta');
    const last = s.events.at(-1)!;
    assert.equal(last.event, 'message');
    assert.equal(last.data.result.plan.steps[0].args.name, 'Quill');
    // The deltas are the reply's text as it was written.
    assert.equal(deltas.map((d) => d.data.text).join(''), last.data.result.message.text);
  });

  test('a thread continues; another person’s thread is 404 and an oversized message is 413, writing nothing', async () => {
    const first = (await ada.browser.post('/api/autobot/chat', { message: 'list my personas' })).json.result;
    const again = await ada.browser.post('/api/autobot/chat', { message: 'help', threadId: first.threadId });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.result.started, false);
    const before = await commandEvents(planner);
    const other = await bea.browser.post('/api/autobot/chat', { message: 'hi', threadId: first.threadId });
    assert.equal(other.status, 404);
    assert.equal(other.json.code, 'assistant.thread_not_found');
    const long = await ada.browser.post('/api/autobot/chat', { message: 'x'.repeat(8_001) });
    assert.equal(long.status, 413);
    assert.equal(long.json.code, 'assistant.message_too_long');
    assert.equal(long.json.limit, 8_000);
    // Refused before anything streamed: an ordinary problem document, not an event stream.
    const streamed = await chatStream(ada, planner.url, { message: 'x'.repeat(8_001), stream: true });
    assert.equal(streamed.status, 413);
    assert.equal(JSON.parse(streamed.text).code, 'assistant.message_too_long');
    const anonymous = await fetch(`${planner.url}/api/autobot/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    assert.equal(anonymous.status, 401);
    assert.equal(await commandEvents(planner), before);
  });

  test('over MCP (the official SDK client) svc.assistant.chat is a tool: the plan is proposed by that token’s principal', async () => {
    const { token } = await issueToken(ada, {
      scopes: ['svc.assistant.write', 'svc.agent.write', 'svc.agent.read'],
    });
    const client = await mcpClient(planner.url, { bearer: token });
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'svc.assistant.chat'));
      const out = structured(
        await client.callTool({
          name: 'svc.assistant.chat',
          arguments: { message: 'create a persona called Rook' },
        }),
      );
      assert.equal(out.plan.steps[0].tool, 'svc.agent.create_persona');
      assert.equal(out.plan.actingAgentId, ada.agentId);
    } finally {
      await client.close();
    }
    // A token that may chat but not write personas: the tool is not offered, so no plan.
    const narrow = await issueToken(ada, { scopes: ['svc.assistant.write'] });
    const c2 = await mcpClient(planner.url, { bearer: narrow.token });
    try {
      const out = structured(
        await c2.callTool({
          name: 'svc.assistant.chat',
          arguments: { message: 'create a persona called Rook' },
        }),
      );
      assert.equal(out.plan, null);
    } finally {
      await c2.close();
    }
  });
});

describe('an OpenAI-compatible model (the harness server)', () => {
  test('streamed through the real client: text deltas as they arrive, then the message; tools are offered by wire name', async () => {
    model.reset();
    model.reply({ text: 'Hello there, Cy. How can I help?' });
    const s = await chatStream(cy, hosted.url, { message: 'hello' });
    assert.equal(s.status, 200, s.text);
    const deltas = s.events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    assert.ok(deltas.length > 1, `several deltas, got ${deltas.length}`);
    assert.equal(deltas.join(''), 'Hello there, Cy. How can I help?');
    assert.equal(s.events.at(-1)!.event, 'message');
    assert.equal(model.requests[0]!.body.stream, true);
    assert.ok(model.requests[0]!.toolNames.includes('svc__agent__create_persona'));
    // The assistant's own commands are never offered (its reads may be).
    for (const own of ['chat', 'confirm_plan', 'decide_actions', 'update_settings', 'delete_thread'])
      assert.ok(!model.requests[0]!.toolNames.includes(`svc__assistant__${own}`), own);
  });

  test('malformed and unknown tool calls are declined with their codes; a valid write becomes the plan', async () => {
    model.reset();
    model.reply(
      {
        toolCalls: [
          { name: 'svc.nope.nothing', arguments: {} },
          { name: 'svc__agent__create_persona', arguments: '{"name": ' },
          {
            name: 'svc__agent__create_persona',
            arguments: { name: 'Vale', targetAgentId: '00000000-0000-4000-8000-000000000000' },
          },
        ],
      },
      { text: 'Confirm to create Vale.' },
    );
    const r = await cy.browser.post('/api/autobot/chat', { message: 'make a persona Vale' });
    assert.equal(r.status, 200, r.text);
    const out = r.json.result;
    assert.deepEqual(
      out.message.declined.map((d: Loose) => d.code),
      ['assistant.unknown_tool', 'assistant.malformed_tool_call'],
    );
    assert.deepEqual(out.plan.steps[0].args, { name: 'Vale', targetAgentId: cy.agentId });
  });

  test('a model answering 500, garbage or too slowly: 503 with its code, and nothing recorded', async () => {
    const before = await commandEvents(hosted);
    model.reset();
    model.reply({ status: 500 });
    let r = await cy.browser.post('/api/autobot/chat', { message: 'hello' });
    assert.equal(r.status, 503);
    assert.equal(r.json.code, 'assistant.model_unavailable');
    model.reply({ status: 200, body: '{"not": "a completion"}' });
    r = await cy.browser.post('/api/autobot/chat', { message: 'hello', stream: false });
    assert.equal(r.status, 503);
    assert.equal(r.json.code, 'assistant.model_malformed');
    model.reply({ delayMs: 4_000, text: 'too late' });
    r = await cy.browser.post('/api/autobot/chat', { message: 'hello' });
    assert.equal(r.status, 503);
    assert.equal(r.json.code, 'assistant.model_unavailable');
    // Streamed, failing after the stream opened (the second model call): an error event ends it.
    model.reply(
      { text: 'Let me look.', toolCalls: [{ name: 'svc__agent__list_personas', arguments: {} }] },
      { status: 500 },
    );
    const s = await chatStream(cy, hosted.url, { message: 'what personas do I have' });
    assert.equal(s.status, 200);
    assert.equal(s.events[0]!.event, 'delta');
    const last = s.events.at(-1)!;
    assert.equal(last.event, 'error');
    assert.equal(last.data.code, 'assistant.model_unavailable');
    assert.equal(last.data.status, 503);
    assert.equal(await commandEvents(hosted), before);
  });

  test('a client that goes away mid-stream cancels the turn: nothing is recorded', async () => {
    model.reset();
    model.reply({ text: 'a long answer that takes its time to arrive', chunkDelayMs: 300 });
    const before = await commandEvents(hosted);
    const abort = new AbortController();
    const res = await fetch(`${hosted.url}/api/autobot/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', cookie: cy.browser.cookie },
      body: JSON.stringify({ message: 'tell me a story' }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /event: delta/);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    // Long enough for the whole answer had it gone on.
    await new Promise((r) => setTimeout(r, 4_000));
    assert.equal(await commandEvents(hosted), before);
  });
});
