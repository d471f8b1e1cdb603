// URL fields take http(s) URLs only: a `javascript:` or `data:` avatar would run in or mislead whoever
// shows the profile. Refused on every surface with input.invalid, and nothing but the refused call's
// provenance entry is written.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, structured, type Person } from './mcp-helpers.js';

const BAD_URLS = [
  'javascript:alert(document.cookie)',
  'JavaScript:alert(1)',
  'javascript://example.org/%0Aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://example.org/a.png',
  'https://user:secret@example.org/a.png',
  ' https://example.org/a.png',
  '//example.org/a.png',
  'example.org/a.png',
];

describe('URL fields accept http(s) only', () => {
  let instance: TestInstance;
  let ada: Person;

  /** Events apart from provenance, and ada's agent row: what a refused update must leave alone. */
  const footprint = async () => {
    const { rows } = await instance.instance.pool.query<{ other: string }>(
      `SELECT count(*) FILTER (WHERE type <> 'provenance.recorded') AS other FROM events`,
    );
    const agent = await instance.instance.pool.query('SELECT * FROM rm_agents WHERE agent_id = $1', [
      ada.agentId,
    ]);
    return { events: Number(rows[0]!.other), agent: agent.rows[0] as unknown };
  };

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Links' } });
    ada = await signUp(instance.url, 'ada');
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a non-http(s) avatarUrl over REST, then 400 input.invalid naming avatarUrl and nothing is written', async () => {
    const before = await footprint();
    for (const avatarUrl of BAD_URLS) {
      const r = await ada.browser.post('/api/ops/svc.profile.update', { avatarUrl });
      assert.equal(r.status, 400, `${avatarUrl}: ${r.text}`);
      assert.match(r.headers.get('content-type')!, /application\/problem\+json/);
      assert.equal(r.json.code, 'input.invalid', avatarUrl);
      assert.deepEqual(
        (r.json.issues as { path: string }[]).map((i) => i.path),
        ['avatarUrl'],
        avatarUrl,
      );
    }
    assert.deepEqual(await footprint(), before, 'nothing was written');
    // An http(s) URL is still taken.
    const ok = await ada.browser.post('/api/ops/svc.profile.update', {
      avatarUrl: 'https://example.org/ada.png',
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.result.avatarUrl, 'https://example.org/ada.png');
  });

  test('given a non-http(s) avatarUrl over MCP, then the tool fails with input.invalid and nothing is written', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.profile.write', 'svc.profile.read'] });
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const before = await footprint();
      for (const avatarUrl of BAD_URLS) {
        const r = await client.callTool({ name: 'svc.profile.update', arguments: { avatarUrl } });
        assert.equal(errorCodeOf(r), 'input.invalid', avatarUrl);
      }
      assert.deepEqual(await footprint(), before, 'nothing was written');
      const read = structured(await client.callTool({ name: 'svc.profile.read', arguments: {} }));
      assert.equal(read.avatarUrl, 'https://example.org/ada.png');
    } finally {
      await client.close();
    }
  });
});
