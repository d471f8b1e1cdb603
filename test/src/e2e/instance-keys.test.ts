// Rotating and revoking the instance's own signing key as catalogue operations (svc.instance.rotate_key,
// svc.instance.revoke_key): over REST and over MCP with the official SDK client, operators only; bad
// input answers a stable code and writes nothing — neither an event nor a key file.
import { startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { errorCodeOf, issueToken, mcpClient, signUp, structured, type Person } from './mcp-helpers.js';

describe('rotating and revoking the signing key through the catalogue', () => {
  let instance: TestInstance;
  let ada: Person; // the operator (first account)
  let bob: Person; // not an operator
  let firstKeyId: string;

  const keyEvents = async () =>
    Number(
      (
        await instance.instance.pool.query(
          `SELECT count(*) AS n FROM events WHERE type IN ('instance.key_rotated', 'instance.key_revoked')`,
        )
      ).rows[0].n,
    );
  const keyFiles = () => readdirSync(join(instance.dataDir, 'keys')).filter((f) => f.endsWith('.pem')).length;
  const nothingWritten = async (events: number, files: number) => {
    assert.equal(await keyEvents(), events, 'no event written');
    assert.equal(keyFiles(), files, 'no key file written');
  };

  beforeAll(async () => {
    instance = await startTestInstance();
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    firstKeyId = instance.instance.services.signer.keyId;
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given REST, then the operator rotates and revokes; bad input and a non-operator are refused with codes and write nothing', async () => {
    const [events, files] = [await keyEvents(), keyFiles()];
    const refusals: [Person, string, object, number, string][] = [
      [ada, 'rotate_key', { overlapSeconds: 30 }, 400, 'instance.bad_key_window'],
      [ada, 'rotate_key', { overlapSeconds: 31 * 24 * 3600 }, 400, 'instance.bad_key_window'],
      [ada, 'rotate_key', { overlapSeconds: '1h' }, 400, 'input.invalid'],
      [ada, 'revoke_key', { keyId: firstKeyId }, 409, 'instance.key_is_current'],
      [ada, 'revoke_key', { keyId: 'ed25519:nope' }, 404, 'instance.key_unknown'],
      [ada, 'revoke_key', { keyId: firstKeyId, after: 'yesterday' }, 400, 'input.invalid'],
      [bob, 'rotate_key', { overlapSeconds: 3600 }, 403, 'auth.controller_only'],
      [bob, 'revoke_key', { keyId: firstKeyId }, 403, 'auth.controller_only'],
    ];
    for (const [who, op, body, status, code] of refusals) {
      const r = await who.browser.post(`/api/ops/svc.instance.${op}`, body);
      assert.deepEqual([r.status, r.json.code], [status, code], `${op} ${JSON.stringify(body)}: ${r.text}`);
    }
    await nothingWritten(events, files);

    const rotated = await ada.browser.post('/api/ops/svc.instance.rotate_key', { overlapSeconds: 3600 });
    assert.equal(rotated.status, 201, rotated.text);
    const r = rotated.json.result;
    assert.equal(r.previousKeyId, firstKeyId);
    assert.notEqual(r.keyId, firstKeyId);
    assert.equal(Date.parse(r.previousValidUntil) - Date.parse(r.validFrom), 3600_000);
    assert.equal(keyFiles(), files + 1, 'the new key’s file is in the key folder');
    assert.deepEqual(
      rotated.json.events.map((e: { type: string }) => e.type),
      ['instance.key_rotated'],
    );
    // Every process reads the current key from the log within a second (docs/operations.md).
    let manifest: { keyId: string; keys: { keyId: string }[] };
    for (let until = Date.now() + 15_000; ;) {
      manifest = (await (await fetch(`${instance.url}/api/federation/manifest`)).json()) as typeof manifest;
      if (manifest.keyId === r.keyId || Date.now() > until) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.equal(manifest.keyId, r.keyId, 'the instance signs with the new key');
    assert.deepEqual(
      manifest.keys.map((k) => k.keyId),
      [firstKeyId, r.keyId],
    );

    const after = '2026-01-01T00:00:00Z';
    const revoked = await ada.browser.post('/api/ops/svc.instance.revoke_key', { keyId: firstKeyId, after });
    assert.equal(revoked.status, 201, revoked.text);
    assert.deepEqual(revoked.json.result, { keyId: firstKeyId, revokedAfter: '2026-01-01T00:00:00.000Z' });
    const again = await ada.browser.post('/api/ops/svc.instance.revoke_key', { keyId: firstKeyId });
    assert.deepEqual([again.status, again.json.code], [409, 'instance.key_already_revoked']);
    assert.equal(await keyEvents(), events + 2);
  });

  test('given MCP with the official SDK client, then an operator token rotates and revokes; a non-operator session is refused', async () => {
    const operator = await issueToken(ada, { scopes: ['svc.admin'] });
    const op = await mcpClient(instance.url, { bearer: operator.token });
    const other = await mcpClient(instance.url, { cookie: bob.browser.cookie });
    try {
      const tools = (await op.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.instance.rotate_key') && tools.includes('svc.instance.revoke_key'));
      const [events, files] = [await keyEvents(), keyFiles()];
      const refused = await other.callTool({
        name: 'svc.instance.rotate_key',
        arguments: { overlapSeconds: 3600 },
      });
      assert.equal(errorCodeOf(refused), 'auth.controller_only');
      const bad = await op.callTool({ name: 'svc.instance.rotate_key', arguments: { overlapSeconds: 10 } });
      assert.equal(errorCodeOf(bad), 'instance.bad_key_window');
      await nothingWritten(events, files);

      const before = instance.instance.services.signer.keyId;
      const rotated = structured(await op.callTool({ name: 'svc.instance.rotate_key', arguments: {} }));
      assert.notEqual(rotated.keyId, before);
      assert.equal(
        Date.parse(rotated.previousValidUntil) - Date.parse(rotated.validFrom),
        24 * 3600_000,
        'the default overlap is 24 h',
      );
      const current = await op.callTool({
        name: 'svc.instance.revoke_key',
        arguments: { keyId: rotated.keyId },
      });
      assert.equal(errorCodeOf(current), 'instance.key_is_current');
      const revoked = structured(
        await op.callTool({ name: 'svc.instance.revoke_key', arguments: { keyId: rotated.previousKeyId } }),
      );
      assert.equal(revoked.keyId, rotated.previousKeyId);
      assert.equal(await keyEvents(), events + 2);
    } finally {
      await op.close();
      await other.close();
    }
  });
});
