// Agent access through the official MCP SDK client against a running instance: scoped tokens, the
// static token, the session, scopes, revocation, personas, provenance and discovery.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  rawMcp,
  refused,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const STATIC_TOKEN = 'static-agent-token-0123456789abcdefghijklmnop';

describe('agent access over MCP', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person; // the operator (first account)
  let ben: Person;
  let primaryAgentId: string;

  const countEvents = async (type: string) =>
    Number(
      (
        await instance.instance.pool.query<{ n: string }>(
          'SELECT count(*) AS n FROM events WHERE type = $1',
          [type],
        )
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    instance = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Riverside Allotments', AIAGENT_MCP_TOKEN: STATIC_TOKEN },
    });
    url = instance.url;
    ada = await signUp(url, 'ada');
    ben = await signUp(url, 'ben');
    primaryAgentId = (await instance.instance.services.instance.read.get())!.primaryAgentId;
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given discovery, then /.well-known/mcp, the protected-resource metadata and /llms.txt describe the endpoint', async () => {
    const mcp = (await (await fetch(`${url}/.well-known/mcp`)).json()) as Loose;
    assert.equal(mcp.endpoint, `${url}/api/mcp`);
    assert.equal(mcp.authentication.tokenEndpoint, `${url}/api/mcp/token`);
    assert.equal(mcp.authentication.revocationEndpoint, `${url}/api/mcp/token/revoke`);
    assert.deepEqual(
      mcp.authentication.methods.map((m: { type: string; kind?: string }) => m.kind ?? m.type),
      ['scoped', 'static', 'oauth2', 'session'],
    );
    const names = mcp.tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes('svc.audit.recent') && names.includes('svc.account.export_data'));
    assert.ok(!names.includes('svc.tokens.issue'), 'issuing a token is not a tool');
    const prm = (await (await fetch(`${url}/.well-known/oauth-protected-resource`)).json()) as Loose;
    assert.equal(prm.resource, `${url}/api/mcp`);
    assert.deepEqual(prm.authorization_servers, [url]);
    assert.deepEqual(prm.bearer_methods_supported, ['header']);
    assert.ok(
      prm.scopes_supported.includes('svc.profile.read') &&
        prm.scopes_supported.includes('svc.account.export'),
    );
    const llms = await fetch(`${url}/llms.txt`);
    assert.match(llms.headers.get('content-type')!, /^text\/plain/);
    const text = await llms.text();
    assert.match(text, /# Riverside Allotments/);
    assert.ok(text.includes(`${url}/api/mcp`) && text.includes('svc.audit.recent'));
  });

  test('given no credential, when an SDK client connects, then 401 with a JSON-RPC error and the resource_metadata challenge', async () => {
    assert.deepEqual(await refused(mcpClient(url)), { status: 401, code: 'auth.required' });
    const raw = await rawMcp(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    assert.equal(raw.status, 401);
    assert.equal(raw.json.jsonrpc, '2.0');
    assert.equal(raw.json.error.data.code, 'auth.required');
    assert.equal(
      raw.headers.get('www-authenticate'),
      `Bearer resource_metadata="${url}/.well-known/oauth-protected-resource", scope="svc.agent.read svc.instance.read svc.profile.read"`,
    );
    // A token in the query string is never read.
    const issued = await issueToken(ada, { scopes: ['svc.profile.read'] });
    const query = await fetch(`${url}/api/mcp?access_token=${issued.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(query.status, 401);
  });

  test('given a scoped token, when an SDK client lists and calls tools, then it sees and runs only what its scopes allow', async () => {
    const issued = await issueToken(ada, {
      scopes: ['svc.profile.read', 'svc.agent.read', 'svc.audit.read', 'svc.instance.read'],
      client: 'e2e',
    });
    assert.equal(issued.agentId, ada.agentId);
    assert.equal(issued.audience, `${url}/api/mcp`);
    const client = await mcpClient(url, { bearer: issued.token });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'svc.agent.list_followed',
      'svc.agent.list_personas',
      'svc.audit.recent',
      'svc.instance.context',
      'svc.profile.read',
    ]);
    const read = tools.find((t) => t.name === 'svc.profile.read')!;
    assert.equal(read.inputSchema.type, 'object');
    assert.equal(read.annotations?.readOnlyHint, true);

    const me = structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
    assert.equal(me.agentId, ada.agentId);
    const context = structured(await client.callTool({ name: 'svc.instance.context', arguments: {} }));
    assert.equal(context.authMode, 'token');

    const denied = await client.callTool({ name: 'svc.profile.update', arguments: { bio: 'nope' } });
    assert.equal(errorCodeOf(denied), 'auth.insufficient_scope');
    assert.deepEqual((denied.structuredContent as Loose).error.missing, ['svc.profile.write']);
    assert.match(JSON.stringify(denied.content), /svc\.profile\.write/, 'the error names the missing scope');
    // Access is judged before input: a call this token may not make is refused as such, whatever its input.
    const deniedBadInput = await client.callTool({ name: 'svc.profile.update', arguments: { nope: true } });
    assert.equal(errorCodeOf(deniedBadInput), 'auth.insufficient_scope');
    const notForTokens = await client.callTool({ name: 'svc.account.export_data', arguments: {} });
    assert.equal(errorCodeOf(notForTokens), 'auth.tool_not_enabled');
    assert.equal(
      (await instance.instance.services.agents.read.agent(ada.agentId))!.bio,
      null,
      'nothing changed',
    );
    await client.close();
  });

  test('given calls made with a token, then svc.audit.recent shows each one, redacted, and the token list shows its last use', async () => {
    const issued = await issueToken(ada, {
      scopes: ['svc.profile.read', 'svc.profile.write', 'svc.audit.read'],
    });
    const client = await mcpClient(url, { bearer: issued.token });
    await client.callTool({ name: 'svc.profile.read', arguments: {} });
    await client.callTool({ name: 'svc.profile.update', arguments: { bio: 'b'.repeat(500) } });
    const bad = await client.callTool({
      name: 'svc.profile.update',
      arguments: { password: 'hunter2hunter2', apiKey: 'k', note: issued.token },
    });
    assert.equal(errorCodeOf(bad), 'input.invalid');
    const denied = await client.callTool({ name: 'svc.agent.list_personas', arguments: {} });
    assert.equal(errorCodeOf(denied), 'auth.insufficient_scope');

    const { entries } = structured(
      await client.callTool({ name: 'svc.audit.recent', arguments: { limit: 4 } }),
    );
    assert.deepEqual(
      entries.map((e: { tool: string; outcome: string; errorCode: string | null }) => [
        e.tool,
        e.outcome,
        e.errorCode,
      ]),
      [
        ['svc.agent.list_personas', 'denied', 'auth.insufficient_scope'],
        ['svc.profile.update', 'error', 'input.invalid'],
        ['svc.profile.update', 'ok', null],
        ['svc.profile.read', 'ok', null],
      ],
    );
    for (const e of entries) {
      assert.equal(e.authMode, 'token');
      assert.equal(e.tokenJti, issued.jti);
      assert.equal(e.controllerAccountId, ada.accountId);
      assert.equal(e.surface, 'mcp');
      assert.ok(e.durationMs >= 0);
    }
    assert.equal(entries[3].actorId, ada.agentId);
    assert.equal(entries[0].actorId, null, 'refused before an actor was resolved');
    assert.deepEqual(entries[1].args, { password: '[redacted]', apiKey: '[redacted]', note: '[redacted]' });
    assert.match(entries[2].args.bio, /^b{200}…\[\+300 chars\]$/);
    const log = JSON.stringify(
      (await instance.instance.pool.query(`SELECT envelope FROM events WHERE type = 'provenance.recorded'`))
        .rows,
    );
    assert.ok(!log.includes(issued.token) && !log.includes('hunter2'), 'no secret reaches the log');

    const all = structured(await client.callTool({ name: 'svc.audit.recent', arguments: {} }));
    assert.ok(all.entries.length <= 50);
    const tooMany = await client.callTool({ name: 'svc.audit.recent', arguments: { limit: 201 } });
    assert.equal(errorCodeOf(tooMany), 'input.invalid');

    const list = await ada.browser.get('/api/mcp/token');
    assert.equal(list.status, 200);
    const mine = list.json.tokens.find((t: { jti: string }) => t.jti === issued.jti);
    assert.ok(mine.lastUsedAt, 'last use comes from provenance');
    assert.equal(mine.status, 'active');
    assert.ok(!list.text.includes(issued.token), 'the token itself is never listed');
    await client.close();
  });

  test('given a command over MCP, then its provenance entry is committed in the same transaction as its effect', async () => {
    const issued = await issueToken(ada, { scopes: ['svc.profile.write'] });
    const client = await mcpClient(url, { bearer: issued.token });
    const updated = structured(
      await client.callTool({ name: 'svc.profile.update', arguments: { bio: 'Same transaction.' } }),
    );
    assert.equal(updated.bio, 'Same transaction.');
    const { rows } = await instance.instance.pool.query<{ type: string; tx_id: string }>(
      `SELECT type, tx_id::text FROM events WHERE tx_id = (
         SELECT tx_id FROM events WHERE type = 'agent.profile_updated' ORDER BY position DESC LIMIT 1)
       ORDER BY position`,
    );
    assert.deepEqual(
      rows.map((r) => r.type),
      ['agent.profile_updated', 'provenance.recorded'],
    );
    await client.close();
  });

  test('given two tokens, when one is revoked by jti, then its next call fails and the other keeps working', async () => {
    const first = await issueToken(ada, { label: 'first', scopes: ['svc.profile.read', 'svc.tokens.read'] });
    const second = await issueToken(ada, {
      label: 'second',
      scopes: ['svc.profile.read', 'svc.tokens.write'],
    });
    const a = await mcpClient(url, { bearer: first.token });
    const b = await mcpClient(url, { bearer: second.token });
    structured(await a.callTool({ name: 'svc.profile.read', arguments: {} }));

    const revoked = await ada.browser.post('/api/mcp/token/revoke', { jti: first.jti });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.json.revoked, true);
    assert.deepEqual(await refused(a.callTool({ name: 'svc.profile.read', arguments: {} })), {
      status: 401,
      code: 'auth.token_revoked',
    });
    structured(await b.callTool({ name: 'svc.profile.read', arguments: {} }));

    const again = await ada.browser.post('/api/mcp/token/revoke', { jti: first.jti });
    assert.equal(again.json.alreadyRevoked, true, 'revoking twice is harmless');
    const theirs = await ben.browser.post('/api/mcp/token/revoke', { jti: second.jti });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.json.code, 'token.not_found', "someone else's token looks like no token");
    const unknown = await ada.browser.post('/api/mcp/token/revoke', {
      jti: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(unknown.json.code, 'token.not_found');
    structured(await b.callTool({ name: 'svc.profile.read', arguments: {} }));

    const list = await ada.browser.get('/api/mcp/token');
    const status = Object.fromEntries(
      list.json.tokens.map((t: { jti: string; status: string }) => [t.jti, t.status]),
    );
    assert.equal(status[first.jti], 'revoked');
    assert.equal(status[second.jti], 'active');

    // The MCP tool revokes too: here the token revokes itself, and its next call fails.
    const self = structured(await b.callTool({ name: 'svc.tokens.revoke', arguments: { jti: second.jti } }));
    assert.equal(self.revoked, true);
    assert.equal(
      (await refused(b.callTool({ name: 'svc.profile.read', arguments: {} }))).code,
      'auth.token_revoked',
    );
    await Promise.all([a.close(), b.close()]);
  });

  test('given a token for a persona, then it acts only as that persona; nobody else may issue one for it', async () => {
    const created = await ada.browser.post('/api/ops/svc.agent.create_persona', { name: 'Ada the cook' });
    const persona = created.json.result.agentId as string;
    const issued = await issueToken(ada, {
      scopes: ['svc.profile.read', 'svc.agent.read'],
      targetAgentId: persona,
    });
    assert.equal(issued.agentId, persona);
    const client = await mcpClient(url, { bearer: issued.token });
    assert.equal(
      structured(await client.callTool({ name: 'svc.profile.read', arguments: {} })).agentId,
      persona,
    );
    const owner = await client.callTool({
      name: 'svc.profile.read',
      arguments: { targetAgentId: ada.agentId },
    });
    assert.equal(errorCodeOf(owner), 'agent.not_found', 'a persona token never reaches its owner');
    await client.close();

    const issuedBefore = await countEvents('mcp_token.issued');
    const stolen = await ben.browser.post('/api/mcp/token', {
      label: 'x',
      scopes: ['svc.profile.read'],
      targetAgentId: persona,
    });
    assert.equal(stolen.status, 404);
    assert.equal(stolen.json.code, 'agent.not_found');
    const legacy = await ada.browser.post('/api/mcp/token', { label: 'x', scopes: ['svc.legacy.unscoped'] });
    assert.equal(legacy.status, 403);
    assert.equal(legacy.json.code, 'token.scope_not_grantable');
    const admin = await ben.browser.post('/api/mcp/token', { label: 'x', scopes: ['svc.admin'] });
    assert.equal(admin.json.code, 'token.scope_not_grantable', 'only an operator grants svc.admin');
    const badScope = await ada.browser.post('/api/mcp/token', { label: 'x', scopes: ['svc.everything'] });
    assert.equal(badScope.status, 400);
    assert.equal(badScope.json.code, 'input.invalid');
    const tooLong = await ada.browser.post('/api/mcp/token', {
      label: 'x',
      scopes: ['svc.profile.read'],
      lifetimeSeconds: 366 * 24 * 3600,
    });
    assert.equal(tooLong.json.code, 'input.invalid');
    const bearerOnly = await fetch(`${url}/api/mcp/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.token}` },
      body: JSON.stringify({ label: 'minted by a token', scopes: ['svc.profile.read'] }),
    });
    assert.equal(bearerOnly.status, 401, 'a token never mints a token');
    assert.equal(await countEvents('mcp_token.issued'), issuedBefore, 'no refused issue wrote anything');
  });

  test('given the static token, then it acts only as the primary agent and the personas that agent owns', async () => {
    const groupPersona = (
      await ada.browser.post('/api/ops/svc.agent.create_persona', {
        name: 'Allotment news',
        targetAgentId: primaryAgentId,
      })
    ).json.result.agentId as string;
    const bensPersona = (await ben.browser.post('/api/ops/svc.agent.create_persona', { name: 'Ben B' })).json
      .result.agentId as string;

    const client = await mcpClient(url, { bearer: STATIC_TOKEN });
    const context = structured(await client.callTool({ name: 'svc.instance.context', arguments: {} }));
    assert.equal(context.authMode, 'static');
    assert.equal(context.actor.agentId, primaryAgentId);
    const asPersona = structured(
      await client.callTool({ name: 'svc.profile.read', arguments: { targetAgentId: groupPersona } }),
    );
    assert.equal(asPersona.name, 'Allotment news');
    for (const other of [ada.agentId, ben.agentId, bensPersona]) {
      const r = await client.callTool({ name: 'svc.profile.read', arguments: { targetAgentId: other } });
      assert.equal(errorCodeOf(r), 'agent.not_found', other);
    }
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('svc.profile.update') && names.includes('svc.audit.recent'));
    assert.ok(!names.includes('svc.account.export_data'), 'session-only tools are absent for tokens');
    assert.ok(!names.some((n) => n.startsWith('svc.admin.')), 'the static token is no operator');
    const audit = structured(await client.callTool({ name: 'svc.audit.recent', arguments: { limit: 10 } }));
    assert.ok(
      audit.entries.length >= 5 && audit.entries.every((e: { authMode: string }) => e.authMode === 'static'),
    );
    await client.close();
    assert.deepEqual(await refused(mcpClient(url, { bearer: `${STATIC_TOKEN}x` })), {
      status: 401,
      code: 'auth.invalid_token',
    });
  });

  test('given a session cookie on /api/mcp, then session-only tools appear and the export holds the whole data set, no secrets', async () => {
    const issued = await issueToken(ada, { scopes: ['svc.profile.read'] });
    const tokenClient = await mcpClient(url, { bearer: issued.token });
    await tokenClient.callTool({ name: 'svc.profile.read', arguments: {} });
    await tokenClient.close();

    const client = await mcpClient(url, { cookie: ada.browser.cookie });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('svc.account.export_data'));
    assert.ok(names.includes('svc.admin.grant_controller'), 'the operator sees operator tools');
    const data = structured(await client.callTool({ name: 'svc.account.export_data', arguments: {} }));
    assert.equal(data.account.accountId, ada.accountId);
    assert.equal(data.agents.self.agentId, ada.agentId);
    assert.ok(data.agents.personas.some((p: { name: string }) => p.name === 'Ada the cook'));
    assert.ok(data.tokens.some((t: { jti: string }) => t.jti === issued.jti));
    assert.ok(data.sessions.length >= 1);
    assert.ok(data.provenance.some((p: { tokenJti: string }) => p.tokenJti === issued.jti));
    const text = JSON.stringify(data);
    for (const secret of ['passwordHash', 'tokenHash', issued.token, ada.browser.cookie.split('=')[1]!])
      assert.ok(!text.includes(secret), `the export holds no ${secret.slice(0, 12)}`);
    const bensView = await mcpClient(url, { cookie: ben.browser.cookie });
    const bens = structured(await bensView.callTool({ name: 'svc.account.export_data', arguments: {} }));
    assert.equal(bens.account.accountId, ben.accountId);
    assert.ok(!JSON.stringify(bens).includes(ada.accountId), "nobody else's data");
    await Promise.all([client.close(), bensView.close()]);
  });

  test('given a stale bearer and a valid session, then the session answers; without the session the bearer error is returned', async () => {
    const issued = await issueToken(ada, { scopes: ['svc.instance.read'] });
    await ada.browser.post('/api/mcp/token/revoke', { jti: issued.jti });
    const both = await mcpClient(url, { bearer: issued.token, cookie: ada.browser.cookie });
    const context = structured(await both.callTool({ name: 'svc.instance.context', arguments: {} }));
    assert.equal(context.authMode, 'session');
    await both.close();
    const raw = await rawMcp(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {
      authorization: `Bearer ${issued.token}`,
    });
    assert.equal(raw.status, 401);
    assert.equal(raw.json.error.data.code, 'auth.token_revoked');
    assert.match(
      raw.headers.get('www-authenticate')!,
      /^Bearer resource_metadata=".*", error="invalid_token"/,
    );
    // The session answers only a request that passes the Origin check: a page on another site that
    // rides the cookie along with a stale bearer gets 403.
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const foreign = await rawMcp(url, ping, {
      authorization: `Bearer ${issued.token}`,
      cookie: ada.browser.cookie,
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.data.code, 'request.cross_origin');
    // A non-browser client with a bad token and no cookie: always 401, whatever else it sends.
    const headless = await rawMcp(url, ping, { authorization: 'Bearer not-a-token', origin: url });
    assert.equal(headless.status, 401);
    assert.equal(headless.json.error.data.code, 'auth.invalid_token');
  });

  test('given an empty scope set, when a person asks for a token, then it is refused and nothing is written', async () => {
    const before = await countEvents('mcp_token.issued');
    const r = await ada.browser.post('/api/mcp/token', { label: 'does nothing', scopes: [] });
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'token.scopes_required');
    assert.equal(await countEvents('mcp_token.issued'), before, 'the refusal wrote nothing');
  });
});
