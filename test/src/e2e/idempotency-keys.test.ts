// An `Idempotency-Key` on every write: REST operations, a fixed write route and MCP tool calls. A retry
// with the key answers the first outcome and writes nothing; the key with another input is 422.
import { startTestInstance } from '@tributary/test';
import pg from 'pg';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, structured, type Person } from './mcp-helpers.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

describe('writes with an Idempotency-Key', () => {
  let instance: Awaited<ReturnType<typeof startTestInstance>>;
  let db: pg.Pool;
  let ada: Person;

  beforeAll(async () => {
    instance = await startTestInstance();
    db = new pg.Pool({ connectionString: instance.databaseUrl, max: 1 });
    ada = await signUp(instance.url, 'ada');
  });
  afterAll(async () => {
    await db?.end();
    await instance?.destroy();
  });

  const personasNamed = async (name: string) =>
    Number(
      (
        await db.query<{ n: string }>(
          "SELECT count(*) AS n FROM events WHERE type = 'agent.created' AND (envelope::jsonb)->'data'->>'name' = $1",
          [name],
        )
      ).rows[0]!.n,
    );
  const logSize = async () =>
    Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);

  test('given a persona without a handle created with a key, when the same request is sent again, then the first answer comes back and there is one persona', async () => {
    const first = await ada.browser.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Retried' },
      { 'idempotency-key': 'persona-1' },
    );
    assert.equal(first.status, 201, first.text);
    const again = await ada.browser.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Retried' },
      { 'idempotency-key': 'persona-1' },
    );
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.json, first.json);
    assert.equal(await personasNamed('Retried'), 1);
  });

  test('given a key already used, when it comes with another body, then 422 request.idempotency_key_reused and nothing is written', async () => {
    const first = await ada.browser.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Keyed' },
      { 'idempotency-key': 'persona-2' },
    );
    assert.equal(first.status, 201, first.text);
    const before = await logSize();
    const other = await ada.browser.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Not the same' },
      { 'idempotency-key': 'persona-2' },
    );
    assert.equal(other.status, 422, other.text);
    assert.equal(other.json.code, 'request.idempotency_key_reused');
    assert.equal(await logSize(), before);
    assert.equal(await personasNamed('Not the same'), 0);
  });

  test('given a key that is not 1–255 printable characters, when a write carries it, then 400 request.idempotency_key_invalid and nothing is written', async () => {
    const before = await logSize();
    const long = await ada.browser.post(
      '/api/ops/svc.agent.create_persona',
      { name: 'Long key' },
      { 'idempotency-key': 'k'.repeat(256) },
    );
    assert.equal(long.status, 400, long.text);
    assert.equal(long.json.code, 'request.idempotency_key_invalid');
    assert.equal(await logSize(), before);
  });

  test('given a fixed write route, when the same keyed request is sent again, then it is answered once and written once', async () => {
    // The default site first: the keyed call makes a second one.
    assert.equal((await ada.browser.post('/api/builder/sites', { title: 'Home' })).status, 201);
    const body = { title: 'Travel notes' };
    const first = await ada.browser.post('/api/builder/sites', body, { 'idempotency-key': 'site-1' });
    assert.equal(first.status, 201, first.text);
    const before = await logSize();
    const again = await ada.browser.post('/api/builder/sites', body, { 'idempotency-key': 'site-1' });
    assert.equal(again.status, first.status, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.json, first.json);
    assert.equal(await logSize(), before);
  });

  test('given an MCP tool call with a key, when it is called again with the key, then the first result comes back and there is one persona', async () => {
    const { token } = await issueToken(ada, { scopes: ['svc.agent.write', 'svc.agent.read'] });
    const keyed = async () => {
      const client = new Client({ name: 'tributary-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/api/mcp', instance.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': 'mcp-1' } },
        }),
      );
      try {
        return await client.callTool({ name: 'svc.agent.create_persona', arguments: { name: 'Tooled' } });
      } finally {
        await client.close();
      }
    };
    const first = structured(await keyed());
    const again = structured(await keyed());
    assert.deepEqual(again, first);
    assert.equal(await personasNamed('Tooled'), 1);
    // Another input under the same key is refused as a tool error.
    const client = await mcpClient(instance.url, { bearer: token });
    try {
      const plain = structured(
        await client.callTool({ name: 'svc.agent.create_persona', arguments: { name: 'Tooled' } }),
      );
      assert.notEqual(plain.agentId, first.agentId);
    } finally {
      await client.close();
    }
    const reuse = new Client({ name: 'tributary-e2e', version: '1.0.0' });
    await reuse.connect(
      new StreamableHTTPClientTransport(new URL('/api/mcp', instance.url), {
        requestInit: { headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': 'mcp-1' } },
      }),
    );
    try {
      const refused = await reuse.callTool({
        name: 'svc.agent.create_persona',
        arguments: { name: 'Other' },
      });
      assert.equal(errorCodeOf(refused), 'request.idempotency_key_reused');
      assert.equal(await personasNamed('Other'), 0);
    } finally {
      await reuse.close();
    }
  });
});
