// Rotating and revoking an instance's own signing key, across three real instances on loopback with
// background sync running: `tributary keys rotate` (the real CLI, beside the running instance) makes every
// process of A sign with a new key; G and B adopt it from A's own announcement, signed with the old key,
// and keep taking A's events; A's manifest is signed by both keys during the overlap; a "new key"
// announced under an unknown key, or by an old key already rotated out, is refused. `tributary keys
// revoke` disowns what the old key signed after a time: log verify flags it, and peers refuse it.
import {
  createEnvelopeSigner,
  canonicalJson,
  loadOrCreateKeyFile,
  publicKeyBase64url,
  generateSigningKey,
} from '@tributary/infra';
import type { UnsignedEnvelope } from '@tributary/domain';
import { eventually, runCli, startTestInstance, type TestInstance } from '@tributary/test';
import assert from 'node:assert/strict';
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  register,
  signedPost,
  startNode,
  SYNC_ENV as BASE_SYNC_ENV,
  type Loose,
  type Node,
} from './federation-helpers.js';

const SYNC_ENV = { ...BASE_SYNC_ENV, FEDERATION_QUEUE: 'in-process' };

const cli = (node: Node, ...args: string[]) =>
  runCli(node.instance, args, { BASE_URL: node.url, INSTANCE_ROLE: node.role });

/** A key file of `node`'s key folder, by key id (the base file, or one a rotation wrote). */
function keyOf(node: Node, keyId: string): { keyId: string; privateKey: KeyObject; publicKey: KeyObject } {
  const dir = join(node.instance.dataDir, 'keys');
  const base = loadOrCreateKeyFile(join(dir, 'instance-ed25519.pem'));
  const pair =
    keyId === node.keyId
      ? base
      : loadOrCreateKeyFile(join(dir, `instance-ed25519.${keyId.slice('ed25519:'.length)}.pem`));
  return { keyId, ...pair };
}

/** Seals an envelope as `origin` with any key, under the key id given (what a forger could send). */
function forge(
  origin: string,
  key: { keyId: string; privateKey: KeyObject; publicKey: KeyObject },
  e: Pick<UnsignedEnvelope, 'type' | 'stream' | 'actorId' | 'data' | 'streamVersion'> & {
    occurredAt?: string;
  },
): string {
  const signer = createEnvelopeSigner({ origin, privateKey: key.privateKey, publicKey: key.publicKey });
  return signer.seal({
    v: 1,
    id: uuidv7(),
    origin,
    keyId: signer.keyId,
    occurredAt: new Date().toISOString(),
    nonce: randomBytes(16).toString('base64url'),
    ...e,
  } as UnsignedEnvelope).text;
}

async function persona(node: Node, handle: string): Promise<string> {
  const r = await node.operator.post('/api/ops/svc.agent.create_persona', { name: handle, handle });
  assert.equal(r.status, 201, r.text);
  return r.json.result.agentId as string;
}

/** The envelope of `node`'s own `agent.created` for `agentId`, from its public feed. */
async function createdEvent(node: Node, agentId: string): Promise<Loose> {
  return eventually(`the agent.created of ${agentId} on the feed`, async () => {
    await node.instance.instance.sequencer.drain();
    const r = await fetch(`${node.url}/api/federation/query?resource=events&stream=agent-${agentId}`);
    const items = ((await r.json()) as Loose).items as Loose[];
    return items.map((i) => i.event as Loose).find((e) => e.type === 'agent.created');
  });
}

/** Whether `node` holds `origin`'s event `eventId`, imported. */
async function holds(node: Node, origin: string, eventId: string): Promise<boolean> {
  const { rows } = await node.instance.instance.pool.query(
    'SELECT 1 FROM events WHERE origin = $1 AND id = $2',
    [origin, eventId],
  );
  return rows.length === 1;
}

async function peerKeys(node: Node, peerId: string) {
  const { rows } = await node.instance.instance.pool.query<{
    key_id: string;
    valid_until: Date | null;
    revoked_after: Date | null;
  }>('SELECT key_id, valid_until, revoked_after FROM rm_peer_keys WHERE peer_id = $1 ORDER BY valid_from', [
    peerId,
  ]);
  return rows;
}

async function importAs(sender: { keyId: string; privateKey: KeyObject }, host: Node, texts: string[]) {
  return signedPost(sender, `${host.url}/api/federation/events/import`, `{"events":[${texts.join(',')}]}`);
}

describe('rotating and revoking the instance key across three syncing instances', () => {
  let g: Node; // the global instance
  let a: Node; // the instance whose key rotates
  let b: Node; // a sovereign person
  let aApi: TestInstance; // a second process of A (role api) on A's database and key folder
  let oldKeyId: string;
  let newKeyId: string;
  let primaryAgentId: string;
  const before: { id: string; occurredAt: string }[] = []; // A's events signed with the old key

  beforeAll(async () => {
    [g, a, b] = await Promise.all([
      startNode('global', 'Global', SYNC_ENV),
      startNode('group', 'Riverside', SYNC_ENV),
      startNode('person', 'Ada', SYNC_ENV),
    ]);
    for (const host of [g, a, b]) for (const peer of [g, a, b]) if (host !== peer) await register(host, peer);
    aApi = await startTestInstance({
      env: { INSTANCE_ROLE: 'group', INSTANCE_NAME: 'Riverside', PROCESS_ROLE: 'api', BASE_URL: a.url },
      reuse: { databaseUrl: a.instance.databaseUrl, dataDir: a.instance.dataDir, drop: async () => {} },
    });
    oldKeyId = a.keyId;
    primaryAgentId = (await a.instance.instance.services.instance.read.get())!.primaryAgentId;
  });
  afterAll(async () => {
    await aApi?.stop();
    await Promise.all([g?.instance.destroy(), a?.instance.destroy(), b?.instance.destroy()]);
  });

  test('given A signing with its first key, when its operator runs `tributary keys rotate`, then every process of A signs with the new key and G and B adopt it and keep taking its events', async () => {
    for (const handle of ['before_one', 'before_two']) {
      const e = await createdEvent(a, await persona(a, handle));
      assert.equal(e.keyId, oldKeyId);
      before.push({ id: e.id as string, occurredAt: e.occurredAt as string });
      await new Promise((r) => setTimeout(r, 20)); // two distinct instants, for the revocation below
    }
    for (const other of [g, b])
      await eventually(
        'A’s first events on the others',
        async () => (await holds(other, a.id, before[1]!.id)) || undefined,
      );

    const rotated = await cli(a, 'keys', 'rotate', '--overlap', '1h');
    assert.equal(rotated.code, 0, rotated.stderr);
    newKeyId = /new key:\s+(ed25519:\S+)/.exec(rotated.stdout)![1]!;
    assert.notEqual(newKeyId, oldKeyId);
    assert.match(rotated.stdout, new RegExp(`previous key: ${oldKeyId}`));
    const list = await cli(a, 'keys', 'list', '--json');
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout) as Loose[];
    assert.deepEqual(
      listed.map((k) => [k.keyId, k.current, k.validUntil === null]),
      [
        [oldKeyId, false, false],
        [newKeyId, true, true],
      ],
    );

    // Both processes of A pick the rotation up from the log, on their own.
    for (const p of [a.instance, aApi])
      await eventually('the process to switch', async () => p.instance.services.signer.keyId === newKeyId);
    const after = await createdEvent(a, await persona(a, 'after_rotation'));
    assert.equal(after.keyId, newKeyId);

    // G and B adopt the new key from A's announcement and import what it signs.
    for (const other of [g, b]) {
      await eventually(
        'the new key’s event on the other',
        async () => (await holds(other, a.id, after.id as string)) || undefined,
      );
      const keys = await peerKeys(other, a.id);
      assert.deepEqual(
        keys.map((k) => k.key_id),
        [oldKeyId, newKeyId],
      );
      assert.ok(keys[0]!.valid_until && keys[0]!.valid_until.getTime() > Date.now(), 'the old key overlaps');
      assert.equal(keys[1]!.valid_until, null);
    }

    // The manifest lists both keys and is signed by both during the overlap.
    const m = (await (await fetch(`${a.url}/api/federation/manifest`)).json()) as Loose;
    assert.equal(m.keyId, newKeyId);
    assert.deepEqual(
      (m.keys as Loose[]).map((k) => k.keyId),
      [oldKeyId, newKeyId],
    );
    const { sig, signatures: sigs, ...unsigned } = m;
    const bytes = Buffer.from(canonicalJson(unsigned), 'utf8');
    assert.deepEqual(
      (sigs as Loose[]).map((s) => s.keyId),
      [newKeyId, oldKeyId],
    );
    assert.equal((sigs as Loose[])[0]!.sig, sig);
    for (const s of sigs as Loose[]) {
      const k = (m.keys as Loose[]).find((x) => x.keyId === s.keyId)!;
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.publicKey }, format: 'jwk' });
      assert.ok(verify(null, bytes, key, Buffer.from(s.sig as string, 'base64url')), `signed by ${s.keyId}`);
    }

    // Events the old key signed keep verifying everywhere.
    for (const node of [a, g, b]) {
      const r = await cli(node, 'log', 'verify');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /log verify: OK/);
    }
  });

  test('given G trusting A’s keys, when a "new key" is announced under an unknown key or by the retired key, then G refuses it with a code and writes nothing', async () => {
    const current = keyOf(a, newKeyId);
    const old = keyOf(a, oldKeyId);
    const stranger = generateSigningKey();
    const strangerKey = { keyId: '', ...stranger };
    const data = (previousKeyId: string) => ({
      keyId: 'ed25519:AAAAAAAAAAAAAAAAAAAAAA',
      algorithm: 'Ed25519',
      publicKey: publicKeyBase64url(stranger.publicKey),
      validFrom: new Date().toISOString(),
      previousKeyId,
      previousValidUntil: new Date().toISOString(),
    });
    const underStranger = forge(a.id, strangerKey, {
      type: 'instance.key_rotated',
      stream: 'instance',
      streamVersion: 50,
      actorId: primaryAgentId,
      data: data(newKeyId),
    });
    const byRetired = forge(a.id, old, {
      type: 'instance.key_rotated',
      stream: 'instance',
      streamVersion: 51,
      actorId: primaryAgentId,
      data: data(oldKeyId),
    });
    const before = await peerKeys(g, a.id);
    const r = await importAs(current, g, [underStranger, byRetired]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (r.json.results as Loose[]).map((x) => [x.status, x.code]),
      [
        ['rejected', 'federation.unknown_key'],
        ['rejected', 'federation.bad_key_announcement'],
      ],
    );
    assert.deepEqual(await peerKeys(g, a.id), before);
    // A request signed with the old key still authenticates during the overlap (a process not yet switched).
    const empty = await importAs(old, g, []);
    assert.equal(empty.status, 200, empty.text);
  });

  test('given the old key compromised, when A runs `tributary keys revoke --after`, then log verify flags what it signed after that time and the peers refuse it', async () => {
    const refused = await cli(a, 'keys', 'revoke', newKeyId);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^tributary: .+ \(instance\.key_is_current\)$/m);
    const unknown = await cli(a, 'keys', 'revoke', 'ed25519:nope');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^tributary: .+ \(instance\.key_unknown\)$/m);

    // Revoked from just after A's first event: the second one the old key signed is disowned.
    const cut = new Date(Date.parse(before[0]!.occurredAt) + 1).toISOString();
    const revoked = await cli(a, 'keys', 'revoke', oldKeyId, '--after', cut);
    assert.equal(revoked.code, 0, revoked.stderr);

    // The revocation reaches the peers in A's feed, signed with the new key.
    for (const other of [g, b])
      await eventually('the revocation on the other', async () => {
        const keys = await peerKeys(other, a.id);
        return keys.find((k) => k.key_id === oldKeyId)?.revoked_after?.toISOString() === cut;
      });
    const m = (await (await fetch(`${a.url}/api/federation/manifest`)).json()) as Loose;
    assert.equal((m.keys as Loose[]).find((k) => k.keyId === oldKeyId)!.revokedAfter, cut);
    assert.equal(m.signatures, undefined, 'a revoked key no longer signs the manifest');

    // log verify, on A and on the peers that imported it, flags what the old key signed after the cut
    // (the second persona, and the rotation itself: whoever held the stolen key could have signed it).
    for (const node of [a, b]) {
      const r = await cli(node, 'log', 'verify');
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stdout, /flagged: [1-9]\d* events signed by a revoked key/);
      assert.match(r.stderr, /: log\.revoked_key: signed by /);
      assert.ok(!r.stderr.includes(before[0]!.id), 'the event before the cut is not flagged');
    }
    // On B, the first flagged event is A's second persona, imported.
    const onB = await cli(b, 'log', 'verify');
    assert.match(onB.stderr, new RegExp(`\\(event ${before[1]!.id}, `));

    // An event the stolen key signs now, and a request signed with it, are refused.
    const current = keyOf(a, newKeyId);
    const forged = forge(a.id, keyOf(a, oldKeyId), {
      type: 'agent.profile_updated',
      stream: `agent-${primaryAgentId}`,
      streamVersion: 40,
      actorId: primaryAgentId,
      data: { name: 'Not Riverside' },
    });
    const r = await importAs(current, b, [forged]);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      (r.json.results as Loose[]).map((x) => [x.status, x.code]),
      [['rejected', 'federation.key_revoked']],
    );
    const byStolen = await importAs(keyOf(a, oldKeyId), b, []);
    assert.equal(byStolen.status, 401);
    assert.equal(byStolen.json.code, 'federation.key_revoked');
  });

  test('given A rotated and revoked its old key, when C registers A for the first time from its manifest, then C imports A’s history signed by the old key, refuses what the revocation disowns, and refuses an "old key" the manifest does not vouch for', async () => {
    const c = await startNode('person', 'Cleo', SYNC_ENV);
    try {
      // The real CLI, from A's signed manifest: the current key, and the earlier keys it lists.
      const added = await cli(c, 'peers', 'add', '--from', a.url, '--expect-key-id', newKeyId);
      assert.equal(added.code, 0, added.stderr);
      const keys = await peerKeys(c, a.id);
      assert.deepEqual(
        keys.map((k) => k.key_id),
        [oldKeyId, newKeyId],
      );
      assert.ok(keys[0]!.valid_until, 'the old key has its window');
      assert.equal(
        keys[0]!.revoked_after?.toISOString(),
        new Date(Date.parse(before[0]!.occurredAt) + 1).toISOString(),
      );
      await register(a, c);

      // A's whole history reaches C: the old key's event from before the cut, and the new key's.
      const after = await createdEvent(a, await persona(a, 'seen_by_c'));
      assert.equal(after.keyId, newKeyId);
      await eventually(
        'A’s history on C',
        async () => (await holds(c, a.id, after.id as string)) || undefined,
      );
      assert.ok(await holds(c, a.id, before[0]!.id), 'the old key’s event from before the revocation');
      assert.ok(
        !(await holds(c, a.id, before[1]!.id)),
        'the old key’s event after the revocation is refused',
      );
      // log verify on C knows A's keys as C registered them, the earlier ones included: what the old key
      // signed before the cut verifies, and what the revocation disowns C never took.
      const verified = await cli(c, 'log', 'verify');
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stdout, /log verify: OK/);

      // A key the manifest does not list is no key of A's here.
      const stranger = generateSigningKey();
      const forged = forge(
        a.id,
        { keyId: '', ...stranger },
        {
          type: 'agent.profile_updated',
          stream: `agent-${primaryAgentId}`,
          streamVersion: 41,
          actorId: primaryAgentId,
          data: { name: 'Not Riverside' },
          occurredAt: before[0]!.occurredAt,
        },
      );
      const r = await importAs(keyOf(a, newKeyId), c, [forged]);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        (r.json.results as Loose[]).map((x) => [x.status, x.code]),
        [['rejected', 'federation.unknown_key']],
      );

      // Earlier keys given by hand must be the keys their ids name; nothing is written otherwise.
      const bad = await c.operator.post('/api/federation/peers', {
        peerId: g.id,
        baseUrl: g.url,
        role: g.role,
        publicKey: g.publicKey,
        previousKeys: [
          {
            keyId: 'ed25519:AAAAAAAAAAAAAAAAAAAAAA',
            publicKey: publicKeyBase64url(stranger.publicKey),
            validFrom: '2026-01-01T00:00:00Z',
            validUntil: '2026-01-02T00:00:00Z',
          },
        ],
      });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.json.code, 'federation.bad_key_history');
      assert.deepEqual(await peerKeys(c, g.id), []);
    } finally {
      await c.instance.destroy();
    }
  });
});
