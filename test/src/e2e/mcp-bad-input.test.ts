// Bad input on the MCP surface: each gets a clear error and changes nothing (a refused tool call
// writes its one provenance entry and nothing else). Also token expiry and the legacy sunset, on a
// movable clock.
import { generateSigningKey } from '@tributary/infra';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestInstance, type TestInstance } from '@tributary/test';
import { SignJWT } from 'jose';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  errorCodeOf,
  issueToken,
  mcpClient,
  movableClock,
  rawMcp,
  signUp,
  structured,
  type Loose,
  type Person,
} from './mcp-helpers.js';

const LEGACY_STATIC = 'legacy-static-token-0123456789abcdefghijklmn';
const DAY = 24 * 3600 * 1000;
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe('bad input on /api/mcp', () => {
  let instance: TestInstance;
  let url: string;
  let ada: Person;
  let ben: Person;
  const clock = movableClock();

  /** Event counts, provenance apart: a bad request must leave the first unchanged. */
  const counts = async () => {
    const { rows } = await instance.instance.pool.query<{ provenance: string; other: string }>(
      `SELECT count(*) FILTER (WHERE type = 'provenance.recorded') AS provenance,
              count(*) FILTER (WHERE type <> 'provenance.recorded') AS other FROM events`,
    );
    return { provenance: Number(rows[0]!.provenance), other: Number(rows[0]!.other) };
  };

  beforeAll(async () => {
    instance = await startTestInstance({
      clock,
      env: {
        MAX_BODY_BYTES: '65536',
        // /api/mcp takes room for the largest image as base64: keep that below the oversized case.
        BUILDER_MEDIA_MAX_BYTES: '1024',
        ASSISTANT_ATTACHMENT_MAX_BYTES: '1024',
        AIAGENT_MCP_TOKEN: LEGACY_STATIC,
        AIAGENT_MCP_SCOPES: 'svc.legacy.unscoped',
        LEGACY_UNSCOPED_SUNSET: new Date(Date.now() + 10 * DAY).toISOString(),
      },
    });
    url = instance.url;
    ada = await signUp(url, 'ada');
    ben = await signUp(url, 'ben');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given valid JSON that is not a JSON-RPC message, alone or in a batch, then -32600 Invalid Request (not -32700) and nothing is written', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.profile.read'] });
    const auth = { authorization: `Bearer ${token}` };
    const before = await counts();
    const single: [string, string][] = [
      ['an empty object', '{}'],
      ['a string', '"ping"'],
      ['a number', '1'],
      ['null', 'null'],
      ['an object of other things', '{"hello":"world"}'],
      ['no jsonrpc member', '{"id":1,"method":"ping"}'],
      ['a wrong jsonrpc version', '{"jsonrpc":"1.0","id":1,"method":"ping"}'],
      ['a method that is not a string', '{"jsonrpc":"2.0","id":1,"method":7}'],
      ['params that are not structured', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}'],
    ];
    for (const [name, body] of single) {
      const r = await rawMcp(url, body, auth);
      assert.equal(r.status, 400, name);
      assert.deepEqual(
        { jsonrpc: r.json.jsonrpc, code: r.json.error?.code, ours: r.json.error?.data?.code, id: r.json.id },
        { jsonrpc: '2.0', code: -32600, ours: 'request.invalid_jsonrpc', id: null },
        `${name}: ${r.text}`,
      );
    }
    const batches: [string, string][] = [
      ['an empty batch', '[]'],
      ['a batch of a number', '[1]'],
      ['a batch with a non-request element', `[${ping},{"hello":"world"}]`],
    ];
    for (const [name, body] of batches) {
      const r = await rawMcp(url, body, auth);
      assert.equal(r.status, 400, name);
      assert.equal(r.json.error?.code, -32600, `${name}: ${r.text}`);
      assert.equal(r.json.id, null, name);
    }
    // Still a working endpoint for a well-formed message.
    const ok = await rawMcp(url, ping, auth);
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json, { jsonrpc: '2.0', id: 1, result: {} });
    assert.deepEqual(await counts(), before, 'nothing was written');
  });

  test('given malformed JSON-RPC, a batch, an oversized body, a bad Host or Origin, then a JSON-RPC error and nothing is written', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.profile.read'] });
    const auth = { authorization: `Bearer ${token}` };
    const before = await counts();
    const cases: [string, string, Record<string, string>, number, number, string | undefined][] = [
      ['truncated JSON', '{"jsonrpc":"2.0","id":1,', auth, 400, -32700, 'request.malformed_json'],
      ['a batch', `[${ping},${ping}]`, auth, 400, -32600, 'request.batch_unsupported'],
      [
        'too large',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }),
        auth,
        413,
        -32600,
        'request.too_large',
      ],
      [
        'foreign Origin',
        ping,
        { ...auth, origin: 'https://attacker.example' },
        403,
        -32000,
        'request.cross_origin',
      ],
    ];
    for (const [name, body, headers, status, code, ourCode] of cases) {
      const r = await rawMcp(url, body, headers);
      assert.equal(r.status, status, name);
      assert.equal(r.json?.jsonrpc, '2.0', name);
      assert.equal(r.json.error.code, code, name);
      if (ourCode) assert.equal(r.json.error.data.code, ourCode, name);
    }
    // fetch never sends a Host of our choosing: a DNS-rebound request, by hand.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${url}/api/mcp`,
        {
          method: 'POST',
          headers: {
            ...auth,
            host: 'attacker.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end(ping);
    });
    assert.equal(rebound.status, 403, 'foreign Host');
    assert.equal(JSON.parse(rebound.body).error.code, -32000);
    const get = await fetch(`${url}/api/mcp`, { headers: { ...auth, accept: 'text/event-stream' } });
    assert.equal(get.status, 405, 'no server-initiated stream');
    const preflight = await fetch(`${url}/api/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: url,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), url);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /Authorization/);
    assert.deepEqual(await counts(), before);
  });

  test('given an unknown method, an unknown tool or invalid arguments, then the right error; only the tool call is recorded', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.profile.read', 'svc.profile.write'] });
    const client = await mcpClient(url, { bearer: token });
    const before = await counts();
    const unknownMethod = await rawMcp(
      url,
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/destroy' }),
      {
        authorization: `Bearer ${token}`,
      },
    );
    assert.equal(unknownMethod.json.error.code, -32601);
    for (const name of ['svc.nope', 'svc.tokens.issue', 'svc.auth.sign_up']) {
      await assert.rejects(
        client.callTool({ name, arguments: {} }),
        (e) => e instanceof McpError && e.code === -32602 && /Unknown tool/.test(e.message),
        name,
      );
    }
    assert.deepEqual(await counts(), before, 'protocol faults write nothing');
    const invalid = await client.callTool({
      name: 'svc.profile.update',
      arguments: { bio: 42, targetAgentId: 'not-a-uuid', surprise: true },
    });
    assert.equal(errorCodeOf(invalid), 'input.invalid');
    const paths = (invalid.structuredContent as Loose).error.issues.map((i: { path: string }) => i.path);
    assert.ok(paths.includes('bio') && paths.includes('targetAgentId'));
    const notMine = await client.callTool({
      name: 'svc.profile.read',
      arguments: { targetAgentId: ben.agentId },
    });
    assert.equal(errorCodeOf(notMine), 'agent.not_found');
    assert.deepEqual(await counts(), { provenance: before.provenance + 2, other: before.other });
    await client.close();
  });

  test('given a tampered, foreign-key, wrong-audience or unknown token, then 401 invalid_token with its code', async () => {
    const issued = await issueToken(ada, { scopes: ['svc.profile.read'] });
    const [header, payload, sig] = issued.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: ben.accountId })).toString('base64url');
    const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
    const instanceKey = createPrivateKey(
      await readFile(join(instance.dataDir, 'keys', 'instance-ed25519.pem')),
    );
    const sign = (key: Parameters<SignJWT['sign']>[0], aud: string, jti = issued.jti) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
        .setIssuer(url)
        .setAudience(aud)
        .setSubject(ada.accountId)
        .setJti(jti)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    const before = await counts();
    const cases: [string, string, string][] = [
      ['tampered payload', `${header}.${forged}.${sig}`, 'auth.invalid_token'],
      ['tampered signature', `${header}.${payload}.${flipped}`, 'auth.invalid_token'],
      ['another key', await sign(generateSigningKey().privateKey, `${url}/api/mcp`), 'auth.invalid_token'],
      ['wrong audience', await sign(instanceKey, 'https://elsewhere.example/api/mcp'), 'auth.wrong_audience'],
      [
        'no record',
        await sign(instanceKey, `${url}/api/mcp`, '00000000-0000-4000-8000-000000000000'),
        'auth.invalid_token',
      ],
      ['not a token', 'hello', 'auth.invalid_token'],
    ];
    for (const [name, token, code] of cases) {
      const r = await rawMcp(url, ping, { authorization: `Bearer ${token}` });
      assert.equal(r.status, 401, name);
      assert.equal(r.json.error.data.code, code, name);
      assert.match(r.headers.get('www-authenticate')!, /error="invalid_token"/, name);
      await assert.rejects(
        mcpClient(url, { bearer: token }),
        (e) => e instanceof StreamableHTTPError && e.code === 401,
      );
    }
    const basic = await rawMcp(url, ping, {
      authorization: `Basic ${Buffer.from('a:b').toString('base64')}`,
    });
    assert.equal(basic.json.error.data.code, 'auth.invalid_token');
    assert.deepEqual(await counts(), before);
    // The genuine token still works.
    const client = await mcpClient(url, { bearer: issued.token });
    structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
    await client.close();
  });

  test('given a token past its lifetime, when the clock moves on, then 401 auth.token_expired', async () => {
    const issued = await issueToken(ada, { scopes: ['svc.profile.read'], lifetimeSeconds: 120 });
    const client = await mcpClient(url, { bearer: issued.token });
    structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
    clock.advance(121_000);
    const r = await rawMcp(url, ping, { authorization: `Bearer ${issued.token}` });
    assert.equal(r.status, 401);
    assert.equal(r.json.error.data.code, 'auth.token_expired');
    await assert.rejects(client.callTool({ name: 'svc.profile.read', arguments: {} }), StreamableHTTPError);
    const list = await ada.browser.get('/api/mcp/token');
    assert.equal(list.json.tokens.find((t: { jti: string }) => t.jti === issued.jti).status, 'expired');
  });

  test('given a static token holding only svc.legacy.unscoped, then it is honoured until the sunset and refused after it', async () => {
    const client = await mcpClient(url, { bearer: LEGACY_STATIC });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(
      names.includes('svc.profile.update') && names.includes('svc.tokens.revoke'),
      'the wildcard allows every tool',
    );
    assert.ok(!names.includes('svc.account.export_data'), 'but never a session-only one');
    structured(
      await client.callTool({ name: 'svc.profile.update', arguments: { bio: 'before the sunset' } }),
    );

    clock.advance(11 * DAY);
    assert.deepEqual((await client.listTools()).tools, []);
    const r = await client.callTool({ name: 'svc.profile.read', arguments: {} });
    assert.equal(errorCodeOf(r), 'auth.legacy_unscoped_expired');
    await client.close();
  });
});
