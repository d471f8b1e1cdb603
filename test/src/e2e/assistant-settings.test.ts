// The assistant's settings, status and credential end to end: REST under /api/autobot and the MCP tools
// through the official SDK client, on a real instance over PostgreSQL; and the remote-viewer credential
// (`svc_remote_viewer`), minted through the same function single sign-on will call: it reads settings,
// and every write — at the settings route and every command of the catalogue through the pipeline — is
// refused with a stable code and writes nothing.
import {
  allOperations,
  DEFAULT_READ_AREAS,
  execute,
  mintRemoteViewerCredential,
  remoteViewerPrincipal,
  revokeRemoteViewerCredential,
  type Principal,
} from '@tributary/services';
import { startOpenAiCompatibleServer, startTestInstance, type TestInstance } from '@tributary/test';
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

/**
 * The read areas that run without asking by default, as the code lists them: the person's own data, so
 * never what other instances sent nor the operators' views.
 */
const OWN_DATA_AREAS = [...DEFAULT_READ_AREAS];

describe('assistant settings, status, credential and the remote viewer', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;
  let carol: Person;

  const events = async () =>
    Number(
      (
        await instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`,
        )
      ).rows[0].n,
    );
  /** A request carrying only the remote-viewer cookie (as a visitor's browser would, same origin). */
  const asVisitor = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(instance.url + path, {
      method,
      headers: {
        cookie: `svc_remote_viewer=${token}`,
        origin: instance.url,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Loose };
  };

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_NAME: 'Assistant' } });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    carol = await signUp(instance.url, 'carol');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a new person, when reading settings, then the defaults: no model chosen, own agent, reads of their own data run without asking, vault on', async () => {
    assert.ok(OWN_DATA_AREAS.length > 0);
    for (const area of ['federation', 'operator'] as const)
      assert.ok(!OWN_DATA_AREAS.includes(area), `${area} asks first by default`);
    const r = await ada.browser.get('/api/autobot/settings');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.result, {
      agentId: ada.agentId,
      model: null,
      defaultPersonaId: null,
      autoRunReadTools: [],
      readAreas: OWN_DATA_AREAS,
      vault: true,
    });
  });

  test('given the read areas, when a person narrows them, then those are kept; an unknown area is refused and writes nothing; null is the default again', async () => {
    const narrowed = await bob.browser.post('/api/autobot/settings', { readAreas: ['sites', 'personas'] });
    assert.equal(narrowed.status, 200, narrowed.text);
    assert.deepEqual(narrowed.json.result.readAreas, ['personas', 'sites']);
    const bad = await bob.browser.post('/api/autobot/settings', { readAreas: ['everything'] });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'input.invalid');
    assert.deepEqual((await bob.browser.get('/api/autobot/settings')).json.result.readAreas, [
      'personas',
      'sites',
    ]);
    const back = await bob.browser.post('/api/autobot/settings', { readAreas: null });
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.json.result.readAreas, OWN_DATA_AREAS);
  });

  test('given a persona and read tools, when updating settings over REST, then they are kept; fields left out keep their value', async () => {
    const persona = await createPersona(ada, 'Ada Bakes');
    const r = await ada.browser.post('/api/autobot/settings', {
      defaultPersonaId: persona,
      autoRunReadTools: ['svc.agent.list_personas', 'svc.builder.list_sites', 'svc.agent.list_personas'],
      model: 'gpt-test-1',
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.result, {
      agentId: ada.agentId,
      model: 'gpt-test-1',
      defaultPersonaId: persona,
      autoRunReadTools: ['svc.agent.list_personas', 'svc.builder.list_sites'],
      readAreas: OWN_DATA_AREAS,
      vault: true,
    });
    const off = await ada.browser.post('/api/autobot/settings', { vault: false, model: null });
    assert.equal(off.status, 200, off.text);
    assert.equal(off.json.result.vault, false);
    assert.equal(off.json.result.model, null);
    assert.equal(off.json.result.defaultPersonaId, persona);
    assert.deepEqual((await ada.browser.get('/api/autobot/settings')).json.result, off.json.result);
    // Someone else's settings are untouched.
    assert.equal((await bob.browser.get('/api/autobot/settings')).json.result.vault, true);
  });

  test('given bad settings, when posting them, then a stable code and nothing written', async () => {
    const bobs = await createPersona(bob, 'Bob Builds');
    const before = await events();
    const cases: [unknown, number, string][] = [
      [{ autoRunReadTools: ['svc.agent.create_persona'] }, 400, 'assistant.auto_run_write_tool'],
      [
        { autoRunReadTools: ['svc.agent.list_personas', 'svc.builder.publish'] },
        400,
        'assistant.auto_run_write_tool',
      ],
      [{ autoRunReadTools: ['svc.no_such.tool'] }, 400, 'assistant.unknown_tool'],
      [{ defaultPersonaId: bobs }, 404, 'agent.not_found'],
      [{ defaultPersonaId: ada.agentId }, 404, 'agent.not_found'],
      [{}, 400, 'input.invalid'],
      [{ vault: 'yes' }, 400, 'input.invalid'],
      [{ model: 'has spaces in it' }, 400, 'input.invalid'],
      [{ colour: 'blue' }, 400, 'input.invalid'],
    ];
    for (const [body, status, code] of cases) {
      const r = await ada.browser.post('/api/autobot/settings', body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.code, code, JSON.stringify(body));
    }
    const anonymous = await fetch(`${instance.url}/api/autobot/settings`);
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as Loose).code, 'auth.required');
    assert.equal(await events(), before);
  });

  test('given a token, when using the settings tools over the MCP SDK, then read and write need their scopes', async () => {
    const reader = await issueToken(carol, { scopes: ['svc.assistant.read'] });
    const writer = await issueToken(carol, { scopes: ['svc.assistant.read', 'svc.assistant.write'] });
    const r = await mcpClient(instance.url, { bearer: reader.token });
    const w = await mcpClient(instance.url, { bearer: writer.token });
    try {
      const read = structured(await r.callTool({ name: 'svc.assistant.read_settings', arguments: {} }));
      assert.equal(read.agentId, carol.agentId);
      assert.equal(read.vault, true);
      const before = await events();
      assert.equal(
        errorCodeOf(await r.callTool({ name: 'svc.assistant.update_settings', arguments: { vault: false } })),
        'auth.insufficient_scope',
      );
      assert.equal(await events(), before);
      const written = structured(
        await w.callTool({
          name: 'svc.assistant.update_settings',
          arguments: { autoRunReadTools: ['svc.assistant.read_vault'] },
        }),
      );
      assert.deepEqual(written.autoRunReadTools, ['svc.assistant.read_vault']);
      assert.equal(
        errorCodeOf(
          await w.callTool({
            name: 'svc.assistant.update_settings',
            arguments: { autoRunReadTools: ['svc.assistant.update_settings'] },
          }),
        ),
        'assistant.auto_run_write_tool',
      );
      const tools = (await r.listTools()).tools.map((t) => t.name);
      for (const name of [
        'svc.assistant.read_settings',
        'svc.assistant.status',
        'svc.assistant.read_vault',
        'svc.assistant.list_provenance',
        'svc.assistant.read_credential',
      ])
        assert.ok(tools.includes(name), name);
      assert.ok(!tools.includes('svc.assistant.update_settings'));
    } finally {
      await r.close();
      await w.close();
    }
  });

  test('given no model configured, when reading the status, then the built-in planner, the MCP endpoint and no account provider', async () => {
    const r = await ada.browser.get('/api/autobot/status');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.result, {
      model: {
        configured: false,
        reachable: null,
        kind: 'builtin',
        defaultModel: 'builtin-planner',
        chosenModel: null,
        detail: 'no model is configured (LLM_BASE_URL unset): the built-in planner answers',
      },
      planner: 'builtin',
      turn: { route: 'builtin', model: 'builtin-planner' },
      mcpEndpoint: `${instance.url}/api/mcp`,
      connectedAccount: { state: 'not_configured' },
    });
  });

  test('given a configured model, when reading the status, then it is probed: reachable while its server answers, unreachable once it is gone', async () => {
    const llm = await startOpenAiCompatibleServer({ models: ['test-model', 'other-model'] });
    const second = await startTestInstance({
      env: { INSTANCE_NAME: 'With a model', LLM_BASE_URL: llm.url, LLM_MODEL: 'test-model' },
    });
    try {
      const dee = await signUp(second.url, 'dee');
      const up = await dee.browser.get('/api/autobot/status');
      assert.equal(up.status, 200, up.text);
      assert.deepEqual(up.json.result.model, {
        configured: true,
        reachable: true,
        kind: 'openai-compatible',
        defaultModel: 'test-model',
        chosenModel: null,
        detail: 'test-model is listed',
      });
      assert.equal(up.json.result.planner, 'model');
      assert.equal(up.json.result.mcpEndpoint, `${second.url}/api/mcp`);
      await llm.close();
      const down = await dee.browser.get('/api/autobot/status');
      assert.equal(down.status, 200, down.text);
      assert.equal(down.json.result.model.configured, true);
      assert.equal(down.json.result.model.reachable, false);
      assert.equal(typeof down.json.result.model.detail, 'string');
    } finally {
      await second.destroy();
      await llm.close().catch(() => undefined);
    }
  });

  test('given a session, a default persona and a token, when reading the credential, then the agent and scopes it acts with, and never a secret', async () => {
    const own = await bob.browser.get('/api/autobot/credential');
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json.result.agentId, bob.agentId);
    assert.equal(own.json.result.handle, 'bob');
    assert.equal(own.json.result.kind, 'person');
    assert.equal(own.json.result.chosenBy, 'self');
    assert.deepEqual(own.json.result.credential, { kind: 'session', expiresAt: null });
    assert.ok(own.json.result.scopes.includes('svc.assistant.write'));
    assert.doesNotMatch(own.text, /tributary_session|token"|secret|password/i);

    // Ada's default persona (set above) is what the assistant acts as unless she names another agent.
    const adas = (await ada.browser.get('/api/autobot/settings')).json.result.defaultPersonaId;
    const persona = await ada.browser.get('/api/autobot/credential');
    assert.equal(persona.json.result.agentId, adas);
    assert.equal(persona.json.result.kind, 'persona');
    assert.equal(persona.json.result.chosenBy, 'defaultPersonaId');
    const named = await ada.browser.get(`/api/autobot/credential?targetAgentId=${ada.agentId}`);
    assert.equal(named.json.result.agentId, ada.agentId);
    assert.equal(named.json.result.chosenBy, 'targetAgentId');

    const someoneElse = await ada.browser.get(`/api/autobot/credential?targetAgentId=${bob.agentId}`);
    assert.equal(someoneElse.status, 404);
    assert.equal(someoneElse.json.code, 'agent.not_found');
    const bad = await ada.browser.get('/api/autobot/credential?targetAgentId=nope');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'input.invalid');

    const issued = await issueToken(bob, { scopes: ['svc.assistant.read', 'svc.agent.read'] });
    const client = await mcpClient(instance.url, { bearer: issued.token });
    try {
      const viaToken = structured(
        await client.callTool({ name: 'svc.assistant.read_credential', arguments: {} }),
      );
      assert.deepEqual(viaToken.scopes, ['svc.agent.read', 'svc.assistant.read']);
      assert.deepEqual(viaToken.credential, { kind: 'token', expiresAt: issued.expiresAt });
      assert.ok(!JSON.stringify(viaToken).includes(issued.token));
      assert.ok(!JSON.stringify(viaToken).includes(issued.jti));
    } finally {
      await client.close();
    }
  });

  describe('the remote viewer (svc_remote_viewer)', () => {
    test('given a minted credential, when a visitor reads settings, then their own settings; a write is refused read-only and nothing is written', async () => {
      const services = instance.instance.services;
      const minted = await mintRemoteViewerCredential(services, {
        agentId: carol.agentId,
        home: 'https://home.example/some/path',
      });
      const read = await asVisitor('GET', '/api/autobot/settings', minted.token);
      assert.equal(read.status, 200, JSON.stringify(read.json));
      assert.equal(read.json.result.agentId, carol.agentId);
      assert.deepEqual(read.json.result.autoRunReadTools, ['svc.assistant.read_vault']);

      const before = await events();
      for (const body of [{ vault: false }, { autoRunReadTools: [] }, {}]) {
        const w = await asVisitor('POST', '/api/autobot/settings', minted.token, body);
        assert.equal(w.status, 403, JSON.stringify(w.json));
        assert.equal(w.json.code, 'assistant.remote_viewer_read_only');
      }
      // Routes that do not name the credential do not accept it at all, and say so with a code of their own.
      for (const [method, path, body] of [
        ['POST', '/api/ops/svc.assistant.update_settings', { vault: false }],
        ['POST', '/api/ops/svc.assistant.read_settings', {}],
        ['POST', '/api/ops/svc.agent.create_persona', { name: 'Sneaky' }],
        ['GET', '/api/autobot/status', undefined],
        ['GET', '/api/autobot/vault', undefined],
        ['GET', '/api/autobot/provenance', undefined],
        ['GET', '/api/autobot/credential', undefined],
        ['GET', '/api/builder/sites', undefined],
      ] as const) {
        const r = await asVisitor(method, path, minted.token, body);
        assert.equal(r.status, 403, `${method} ${path}: ${JSON.stringify(r.json)}`);
        assert.equal(r.json.code, 'auth.remote_viewer_not_allowed', path);
      }
      assert.equal(await events(), before);
      const stored = await instance.instance.pool.query(
        `SELECT home, agent_id, token_hash FROM assistant_remote_viewer_credentials WHERE credential_id = $1`,
        [minted.credentialId],
      );
      assert.equal(stored.rows[0].home, 'https://home.example');
      assert.notEqual(stored.rows[0].token_hash, minted.token);
    });

    test('given a remote-viewer principal, when it runs each operation of the catalogue through the pipeline, then only the reads marked for it run and every other is refused with a code, writing nothing', async () => {
      const services = instance.instance.services;
      const minted = await mintRemoteViewerCredential(services, {
        agentId: carol.agentId,
        home: 'https://home.example',
      });
      const principal = (await remoteViewerPrincipal(services, minted.token)) as Principal;
      assert.equal(principal.kind, 'remote_viewer');
      const before = await events();
      const allowed: string[] = [];
      for (const op of allOperations()) {
        for (const surface of ['http', 'mcp', 'assistant'] as const) {
          const outcome: string = await execute(services, op, {}, principal, surface).then(
            () => 'ran',
            (e: { code?: string }) => e.code ?? String(e),
          );
          if (op.remoteViewer === 'read' && surface === 'http') {
            assert.equal(outcome, 'ran', op.name);
            allowed.push(op.name);
          } else if (op.public) {
            // Sign-up and sign-in are reached at their own routes by anyone; they are not the viewer's.
            continue;
          } else {
            const expected =
              op.remoteViewerRefusal && op.remoteViewer !== 'read'
                ? op.remoteViewerRefusal
                : 'auth.remote_viewer_not_allowed';
            assert.equal(outcome, expected, `${op.name} on ${surface}`);
          }
        }
      }
      assert.deepEqual(allowed.sort(), ['svc.assistant.read_settings', 'svc.sso.list_remote_sessions']);
      assert.equal(await events(), before);
    });

    test('given a revoked, an expired, an unknown or a bad credential, then it is no credential; minting refuses bad input', async () => {
      const services = instance.instance.services;
      const revoked = await mintRemoteViewerCredential(services, {
        agentId: carol.agentId,
        home: 'https://home.example',
      });
      assert.equal(await revokeRemoteViewerCredential(services, revoked.credentialId), true);
      const short = await mintRemoteViewerCredential(services, {
        agentId: carol.agentId,
        home: 'http://home.example:8080',
        lifetimeSeconds: 1,
      });
      await new Promise((r) => setTimeout(r, 1_100));
      for (const token of [revoked.token, short.token, 'not-a-credential']) {
        const r = await asVisitor('GET', '/api/autobot/settings', token);
        assert.equal(r.status, 401, token);
        assert.equal(r.json.code, 'auth.required');
      }
      // A live session is never masked by a visitor cookie.
      const both = await ada.browser.get('/api/autobot/settings', {
        cookie: `${ada.browser.cookie}; svc_remote_viewer=${short.token}`,
      });
      assert.equal(both.json.result.agentId, ada.agentId);

      const codeOf = (p: Promise<unknown>) =>
        p.then(
          () => 'minted',
          (e: { code?: string }) => e.code,
        );
      assert.equal(
        await codeOf(mintRemoteViewerCredential(services, { agentId: carol.agentId, home: 'ftp://x' })),
        'assistant.remote_viewer_invalid',
      );
      assert.equal(
        await codeOf(mintRemoteViewerCredential(services, { agentId: carol.agentId, home: 'not a url' })),
        'assistant.remote_viewer_invalid',
      );
      assert.equal(
        await codeOf(
          mintRemoteViewerCredential(services, {
            agentId: carol.agentId,
            home: 'https://home.example',
            lifetimeSeconds: 10 * 86400,
          }),
        ),
        'assistant.remote_viewer_invalid',
      );
      assert.equal(
        await codeOf(
          mintRemoteViewerCredential(services, {
            agentId: '0f8fad5b-d9cb-469f-a165-70867728950e',
            home: 'https://home.example',
          }),
        ),
        'agent.not_found',
      );
    });
  });
});
