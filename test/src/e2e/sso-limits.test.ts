// Single sign-on on one instance (docs/sso.md): a burst against sso/issue from one address is refused
// with 429 and Retry-After before any password is checked; the precise reason of a refused assertion is
// in the log and never in the answer; a person's remote-session operations are MCP tools (with their
// scopes) and REST operations; issuing is the global instance's alone.
import { startTestInstance, type TestInstance } from '@tributary/test';
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

describe('single sign-on limits, log and catalogue', () => {
  let global: TestInstance;
  let group: TestInstance;
  let ada: Person;
  const lines: string[] = [];

  beforeAll(async () => {
    [global, group] = await Promise.all([
      startTestInstance({ env: { INSTANCE_ROLE: 'global', RATE_LIMIT_SSO: '3/min' }, logLines: lines }),
      startTestInstance({ env: { INSTANCE_ROLE: 'group' } }),
    ]);
    ada = await signUp(global.url, 'ada');
  });
  afterAll(async () => {
    await Promise.all([global?.destroy(), group?.destroy()]);
  });

  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Loose };
  };
  const ssoEvents = async () =>
    (
      await global.instance.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM events WHERE type LIKE 'sso.%'",
      )
    ).rows[0]!.n;

  test('given a burst of password guesses at sso/issue from one address, then 429 with Retry-After and nothing written', async () => {
    const before = await ssoEvents();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 6 && !limited; i++) {
      const r = await post(`${global.url}/api/federation/sso/issue`, {
        identifier: 'ada',
        password: `guess ${i}`,
        audience: 'https://nowhere.example',
      });
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    assert.ok(limited, `statuses ${statuses.join(',')}`);
    assert.equal(limited.json.code, 'request.rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(await ssoEvents(), before);
  });

  test('given a refused assertion, then the answer is the one generic code and the precise reason is only in the log', async () => {
    const r = await post(`${global.url}/api/federation/remote-auth`, { assertion: 'not*base64url' });
    assert.equal(r.status, 401);
    assert.equal(r.json.code, 'sso.assertion_rejected');
    assert.ok(!JSON.stringify(r.json).includes('not_base64url'), 'no reason in the answer');
    assert.ok(
      lines.some((l) => l.includes('sso.assertion_rejected') && l.includes('not_base64url')),
      'the reason is logged',
    );
  });

  test('given a person, then listing and ending their remote sessions are MCP tools with their scopes, and REST operations', async () => {
    const rest = await ada.browser.post('/api/ops/svc.sso.list_remote_sessions', {});
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(rest.json.result, { credentialVersion: 0, issued: [], visits: [] });

    const { token } = await issueToken(ada, { scopes: ['svc.sso.read', 'svc.sso.write'] });
    const client = await mcpClient(global.url, { bearer: token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.sso.list_remote_sessions'));
      assert.ok(tools.includes('svc.sso.end_remote_sessions'));
      assert.ok(!tools.includes('svc.sso.issue_assertion'), 'peer and protocol routes are not tools');
      const ended = structured(await client.callTool({ name: 'svc.sso.end_remote_sessions', arguments: {} }));
      assert.equal(ended.credentialVersion, 1);
      const listed = structured(
        await client.callTool({ name: 'svc.sso.list_remote_sessions', arguments: {} }),
      );
      assert.equal(listed.credentialVersion, 1);
    } finally {
      await client.close();
    }
    const { token: readOnly } = await issueToken(ada, { scopes: ['svc.sso.read'] });
    const reader = await mcpClient(global.url, { bearer: readOnly });
    try {
      assert.equal(
        errorCodeOf(await reader.callTool({ name: 'svc.sso.end_remote_sessions', arguments: {} })),
        'auth.insufficient_scope',
      );
    } finally {
      await reader.close();
    }
  });

  test('given an instance that is not the global one, then it issues no assertion', async () => {
    const r = await post(`${group.url}/api/federation/sso/issue`, {
      identifier: 'ada',
      password: 'correct horse battery staple',
      audience: global.url,
    });
    assert.equal(r.status, 403);
    assert.equal(r.json.code, 'federation.global_only');
  });
});
