// The operator's federation commands, run as an operator would: `tributary federation identity`,
// `peers add|list|rotate|block|unblock` and `federation status`, as real processes beside a running
// instance (they attach to its database).
import { runCli } from '@tributary/test';
import { publicKeyBase64url, generateSigningKey } from '@tributary/infra';
import assert from 'node:assert/strict';

import { afterAll, beforeAll, describe, test } from 'vitest';
import { startNode, type Loose, type Node } from './federation-helpers.js';

describe('tributary peers and federation commands', () => {
  let a: Node;
  let b: Node;
  let c: Node;
  let cli: (...args: string[]) => Promise<{ stdout: string; stderr: string; code: number }>;
  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      startNode('group', 'Riverside'),
      startNode('global', 'Global'),
      startNode('person', 'Ada'),
    ]);
    cli = (...args) => runCli(a.instance, args, { BASE_URL: a.url, INSTANCE_ROLE: 'group' });
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy(), c?.instance.destroy()]);
  });

  test('given the identity command, then it prints what a peer needs to register this instance', async () => {
    const r = await cli('federation', 'identity');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`instance id: ${a.id}`));
    assert.match(r.stdout, new RegExp(`public key:  ${a.publicKey}`));
    assert.match(r.stdout, /role: {8}group/);
  });

  test('given peers add, list, rotate, block and unblock, then each changes the registry through its events', async () => {
    const addB = (peerId: string) =>
      cli('peers', 'add', '--id', peerId, '--url', b.url, '--role', 'global', '--key', b.publicKey);
    const added = await addB(b.id);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /shared secret \(shown once/);
    const list = await cli('peers', 'list', '--json');
    const peers = JSON.parse(list.stdout) as Loose[];
    assert.equal(peers.length, 1);
    assert.equal(peers[0]!.peerId, b.id);

    const again = await addB(b.id);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /federation\.key_in_use/);
    const bad = await addB('nope');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /peerId.*\(input\.invalid\)/);

    const fresh = publicKeyBase64url(generateSigningKey().publicKey);
    const rotated = await cli('peers', 'rotate', b.id, '--key', fresh, '--secret');
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, /new shared secret/);
    const keys = (JSON.parse((await cli('peers', 'list', '--json')).stdout) as Loose[])[0]!.keys as Loose[];
    assert.equal(keys.length, 2);
    assert.equal(keys.filter((k) => k.validUntil === null).length, 1, 'one current key, one retired');

    assert.equal((await cli('peers', 'block', b.id, '--reason', 'maintenance')).code, 0);
    let view = (await a.operator.get('/api/federation/peers')).json.result.peers[0] as Loose;
    assert.equal(view.blocked, true);
    assert.equal(view.blockedReason, 'maintenance');
    assert.equal((await cli('peers', 'unblock', b.id)).code, 0);
    view = (await a.operator.get('/api/federation/peers')).json.result.peers[0] as Loose;
    assert.equal(view.blocked, false);

    const unknown = await cli('peers', 'block', '00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /federation\.peer_not_found/);
  });

  test('given peers add --from, then the peer is read from its signed manifest; a pinned key id that differs is refused and nothing is registered', async () => {
    const wrong = await cli('peers', 'add', '--from', c.url, '--expect-key-id', b.keyId);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, new RegExp(`signed by ${c.keyId}, not the expected ${b.keyId}`));
    let peers = (await a.operator.get('/api/federation/peers')).json.result.peers as Loose[];
    assert.ok(!peers.some((p) => p.peerId === c.id));

    const unreachable = await cli('peers', 'add', '--from', 'http://127.0.0.1:9');
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /federation\.peer_unreachable/);
    const notThere = await cli('peers', 'add', '--from', `${c.url}/elsewhere`);
    assert.equal(notThere.code, 1);
    assert.match(notThere.stderr, /federation\.bad_manifest/);

    const added = await cli('peers', 'add', '--from', c.url);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, new RegExp(`key id ${c.keyId}: confirm it`));
    peers = (await a.operator.get('/api/federation/peers')).json.result.peers as Loose[];
    const entry = peers.find((p) => p.peerId === c.id)!;
    assert.equal(entry.role, 'person');
    assert.equal(entry.baseUrl, c.url);
    assert.equal(entry.keys[0].publicKey, c.publicKey);
    assert.equal((await cli('peers', 'block', c.id)).code, 0); // out of the way of the status test
  });

  test('given federation status, then it lists each peer with its push and pull cursors', async () => {
    const text = await cli('federation', 'status');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(b.id));
    assert.match(text.stdout, /push: /);
    const json = JSON.parse((await cli('federation', 'status', '--json')).stdout) as Loose;
    assert.deepEqual((json.peers as Loose[]).map((p) => p.peerId).sort(), [b.id, c.id].sort());
    assert.ok('push' in json.peers[0] && 'pull' in json.peers[0]);
  });
});
