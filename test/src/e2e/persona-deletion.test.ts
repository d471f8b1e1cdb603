// Deleting a persona, through the real HTTP surface: only its owner, only with the password given again,
// and afterwards it acts, owns and appears nowhere, while its events stay in the log and its handle stays
// reserved.
import { browser, startTestInstance, type TestInstance } from '@tributary/test';
import { getOperation } from '@tributary/services';
import {
  actsAs,
  createPersona,
  deletePersona,
  issueToken,
  mcpClient,
  refused,
  signUp,
  structured,
} from './mcp-helpers.js';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';

describe('deleting a persona over HTTP', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Weir Keepers', SIGN_IN_MAX_FAILURES: '3' },
    });
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  /** What a refused request must leave alone. */
  const footprint = async () => {
    const { rows } = await instance.instance.pool.query<{ events: string; deleted: string }>(
      `SELECT (SELECT count(*) FROM events) AS events,
              (SELECT count(*) FROM rm_agents WHERE deleted_at IS NOT NULL) AS deleted`,
    );
    return rows[0]!;
  };

  test('given a persona, when its owner deletes it with the password, then it is gone from every surface but the log', async () => {
    const ada = browser(instance.url);
    assert.equal((await ada.post('/api/auth/signup', { handle: 'ada', password, name: 'Ada' })).status, 201);
    const made = await ada.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada cooks',
      handle: 'ada_cooks',
    });
    assert.equal(made.status, 201, made.text);
    const personaId: string = made.json.result.agentId;

    const r = await ada.post('/api/ops/svc.agent.delete_persona', { targetAgentId: personaId, password });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.result, { agentId: personaId, deleted: true });
    assert.deepEqual(
      r.json.events.map((e: { type: string; stream: string }) => [e.type, e.stream]),
      [['agent.deleted', `agent-${personaId}`]],
    );

    const listed = await ada.post('/api/ops/svc.agent.list_personas', {});
    assert.deepEqual(listed.json.result.personas, []);
    for (const [name, input] of [
      ['svc.profile.update', { targetAgentId: personaId, bio: 'still cooking' }],
      ['svc.profile.read', { targetAgentId: personaId }],
      ['svc.agent.delete_persona', { targetAgentId: personaId, password }],
    ] as const) {
      const again = await ada.post(`/api/ops/${name}`, input);
      assert.equal(again.status, 404, `${name}: ${again.text}`);
      assert.equal(again.json.code, 'agent.not_found');
    }
    // The person's own data export still holds it, marked deleted.
    const exported = await ada.post('/api/ops/svc.account.export_data', {});
    assert.equal(exported.status, 200, exported.text);
    const kept = exported.json.result.agents.personas.find(
      (p: { agentId: string }) => p.agentId === personaId,
    );
    assert.equal(kept?.name, 'Ada cooks');
    assert.ok(kept?.deletedAt, 'marked with when it was deleted');
    // Its handle is not free for another persona to pass as the old one.
    const taken = await ada.post('/api/ops/svc.agent.create_persona', {
      name: 'New cook',
      handle: 'ada_cooks',
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.code, 'agent.handle_taken');
    // The log keeps what happened; the deletion is on the feed for peers.
    await instance.instance.sequencer.drain();
    const { rows } = await instance.instance.pool.query<{ type: string; feed: boolean }>(
      `SELECT type, feed FROM events WHERE stream = $1 ORDER BY stream_version`,
      [`agent-${personaId}`],
    );
    assert.deepEqual(rows, [
      { type: 'agent.created', feed: true },
      { type: 'agent.deleted', feed: true },
    ]);
  });

  test('given a wrong or missing password, someone else’s persona, or a person, then refused with a code and nothing written', async () => {
    const ben = browser(instance.url);
    assert.equal((await ben.post('/api/auth/signup', { handle: 'ben', password, name: 'Ben' })).status, 201);
    const benId: string = (await ben.get('/api/auth/me')).json.agent.agentId;
    const made = await ben.post('/api/ops/svc.agent.create_persona', { name: 'Ben bakes' });
    const personaId: string = made.json.result.agentId;
    const cy = browser(instance.url);
    assert.equal((await cy.post('/api/auth/signup', { handle: 'cyra', password, name: 'Cyra' })).status, 201);

    await instance.instance.sequencer.drain();
    const before = await footprint();
    const cases: [ReturnType<typeof browser>, unknown, number, string][] = [
      [
        ben,
        { targetAgentId: personaId, password: 'not the password at all' },
        401,
        'auth.invalid_credentials',
      ],
      [ben, { targetAgentId: personaId }, 400, 'input.invalid'],
      [ben, { password }, 400, 'input.invalid'],
      [ben, { targetAgentId: benId, password }, 400, 'agent.not_a_persona'],
      [cy, { targetAgentId: personaId, password }, 404, 'agent.not_found'],
      [browser(instance.url), { targetAgentId: personaId, password }, 401, 'auth.required'],
    ];
    for (const [who, input, status, code] of cases) {
      const r = await who.post('/api/ops/svc.agent.delete_persona', input);
      assert.equal(r.status, status, `${JSON.stringify(input)}: ${r.text}`);
      assert.equal(r.json.code, code);
    }
    await instance.instance.sequencer.drain();
    assert.deepEqual(await footprint(), before);
    const listed = await ben.post('/api/ops/svc.agent.list_personas', {});
    assert.deepEqual(
      listed.json.result.personas.map((p: { agentId: string }) => p.agentId),
      [personaId],
    );
  });

  test('given repeated wrong passwords, when the right one comes next, then it is throttled with Retry-After and nothing is deleted', async () => {
    const dee = browser(instance.url);
    assert.equal(
      (await dee.post('/api/auth/signup', { handle: 'deena', password, name: 'Dee' })).status,
      201,
    );
    const personaId: string = (await dee.post('/api/ops/svc.agent.create_persona', { name: 'Dee digs' })).json
      .result.agentId;
    for (let i = 0; i < 3; i++) {
      const wrong = await dee.post('/api/ops/svc.agent.delete_persona', {
        targetAgentId: personaId,
        password: `wrong password number ${i}`,
      });
      assert.equal(wrong.status, 401);
    }
    const throttled = await dee.post('/api/ops/svc.agent.delete_persona', {
      targetAgentId: personaId,
      password,
    });
    assert.equal(throttled.status, 429, throttled.text);
    assert.equal(throttled.json.code, 'auth.throttled');
    assert.ok(Number(throttled.headers.get('retry-after')) > 0);
    const listed = await dee.post('/api/ops/svc.agent.list_personas', {});
    assert.equal(listed.json.result.personas.length, 1);
  });

  test('given a token bound to a persona and one of the person’s own, when the persona is deleted, then its token is refused with auth.persona_deleted and listed as such, and the other keeps working', async () => {
    const eve = await signUp(instance.url, 'eve');
    const personaId = await createPersona(eve, 'Eve rows');
    const scopes = ['svc.profile.read', 'svc.tokens.read'];
    const bound = await issueToken(eve, { label: 'rowing bot', scopes, targetAgentId: personaId });
    const own = await issueToken(eve, { label: 'own bot', scopes });
    assert.equal(await actsAs(instance.url, bound.token), personaId);

    await deletePersona(eve, personaId);

    assert.deepEqual(await refused(mcpClient(instance.url, { bearer: bound.token })), {
      status: 401,
      code: 'auth.persona_deleted',
    });
    const mine = await mcpClient(instance.url, { bearer: own.token });
    const listed = structured(await mine.callTool({ name: 'svc.tokens.list', arguments: {} }));
    const status = Object.fromEntries(
      listed.tokens.map((t: { jti: string; status: string }) => [t.jti, t.status]),
    );
    assert.deepEqual(status, { [bound.jti]: 'persona_deleted', [own.jti]: 'active' });
    await mine.close();
    // The connected-apps page says so too, under the persona's name.
    const page = await eve.browser.get('/mcp/apps');
    assert.equal(page.status, 200);
    assert.match(page.text, /rowing bot<\/strong\s*>\s*as\s+Eve rows \(deleted\)[^]*?identity deleted/);
  });

  test('given the catalogue, then deleting a persona is never an MCP tool', () => {
    assert.deepEqual(getOperation('svc.agent.delete_persona')?.enabledFor, []);
  });
});
