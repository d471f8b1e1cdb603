// Federation through the global instance, on loopback: a global instance G and three sovereigns A, B, C,
// each peered with G only (no sovereign peers another), with background sync on. A persona made on A
// reaches B and C through G, verified with A's key learned from A's manifest as G serves it; a sovereign
// following only A takes nothing of C. A fourth sovereign D takes events from a hostile relay H — a real
// HTTP peer in the relay role, signing its requests with its own registered key and serving manifests —
// which alters, withholds, forks and forges what it relays: D refuses each with a code and writes
// nothing, reports the gap H left in A's chain and fetches the missing event from A itself, and stores an
// event that arrives both directly and relayed once. When A rotates its key, B and C adopt the new one,
// announced under the key they pinned.
import { createServer, type Server } from 'node:http';
import { randomBytes, sign } from 'node:crypto';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import {
  canonicalJson,
  createEnvelopeSigner,
  publicKeyBase64url,
  generateSigningKey,
} from '@tributary/infra';
import { eventuallyWithin, runCli } from '@tributary/test';
import {
  clientOf,
  footprint,
  register,
  sealerOf,
  startNode,
  startPeeredInstances,
  SYNC_ENV,
  type Loose,
  type Node,
} from './federation-helpers.js';

const eventually = eventuallyWithin(60_000);

/** The agents of `origin` in `node`'s public registry. */
async function registryOf(node: Node, origin: string): Promise<Loose[]> {
  const r = await fetch(`${node.url}/api/federation/registry?origin=${origin}&limit=200`);
  return ((await r.json()) as Loose).agents as Loose[];
}

/** How many times each of `origin`'s event ids is in `node`'s log. */
async function eventsFrom(node: Node, origin: string) {
  const { rows } = await node.instance.instance.pool.query<{ id: string; n: string }>(
    'SELECT id, count(*) AS n FROM events WHERE origin = $1 GROUP BY id',
    [origin],
  );
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** `node`'s own stored envelope texts of one stream, by version (what it signed, byte for byte). */
async function storedTexts(node: Node, origin: string, stream: string) {
  const { rows } = await node.instance.instance.pool.query<{ v: number; envelope: string; id: string }>(
    `SELECT (envelope::jsonb ->> 'streamVersion')::int AS v, envelope, id FROM events
     WHERE origin = $1 AND envelope::jsonb ->> 'stream' = $2 ORDER BY 1`,
    [origin, stream],
  );
  return rows;
}

async function status(node: Node): Promise<Loose> {
  const r = await node.operator.get('/api/federation/status');
  assert.equal(r.status, 200, r.text);
  return r.json as Loose;
}

async function relayOrigin(node: Node, origin: string): Promise<Loose | undefined> {
  const r = await node.operator.post('/api/ops/svc.federation.status', {});
  assert.equal(r.status, 200, r.text);
  return (r.json.result.relay.origins as Loose[]).find((o) => o.origin === origin);
}

/** A hostile relay: a registered peer key, and a real HTTP server serving the manifests it chooses. */
async function startHostileRelay() {
  const keys = generateSigningKey();
  const signer = createEnvelopeSigner({ origin: 'hostile-relay', ...keys });
  const manifests = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    const m = /^\/api\/federation\/origins\/([^/]+)\/manifest$/.exec(req.url ?? '');
    const text = m ? manifests.get(decodeURIComponent(m[1]!)) : undefined;
    if (!text) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ code: 'federation.origin_unknown' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const node = { keyId: signer.keyId, privateKey: keys.privateKey };
  return {
    url,
    keyId: signer.keyId,
    publicKey: publicKeyBase64url(keys.publicKey),
    manifests,
    client: clientOf(node),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('federation through the global instance', () => {
  let g: Node;
  let a: Node;
  let b: Node;
  let c: Node;
  let d: Node; // takes relayed events from the hostile relay only
  let h: Awaited<ReturnType<typeof startHostileRelay>>;
  const hostileRelayId = '0b6f1f3e-6d1c-4c57-9d2a-2f3c7a1e9b10';

  beforeAll(async () => {
    [[g, a, b, c], d] = await Promise.all([
      startPeeredInstances({
        env: SYNC_ENV,
        global: { name: 'Global' },
        sovereigns: [
          { role: 'person', name: 'Ada' },
          { role: 'group', name: 'Bakers' },
          { role: 'locale', name: 'Riverside' },
        ],
      }),
      startNode('person', 'Dee', SYNC_ENV),
    ]);
    h = await startHostileRelay();
    const r = await d.operator.post('/api/federation/peers', {
      peerId: hostileRelayId,
      baseUrl: h.url,
      role: 'global',
      publicKey: h.publicKey,
    });
    assert.equal(r.status, 201, r.text);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await Promise.all([g, a, b, c, d].map((n) => n?.instance.destroy()));
  });

  let personaId = '';
  test('given a persona made on A, then B and C hold it through G, verified with the key A’s manifest gives, byte for byte', async () => {
    const made = await a.operator.post('/api/ops/svc.agent.create_persona', {
      name: 'Ada’s kitchen',
      handle: 'adas_kitchen',
    });
    assert.equal(made.status, 201, made.text);
    personaId = made.json.result.agentId;
    for (const s of [b, c])
      await eventually(`the persona on ${s.role}`, async () =>
        (await registryOf(s, a.id)).find(
          (x) => x.remote?.agentId === personaId && x.handle === 'adas_kitchen',
        ),
      );
    const mine = await storedTexts(a, a.id, `agent-${personaId}`);
    for (const s of [b, c]) {
      // The relayed envelope is A's own text, not G's re-encoding of it.
      const held = await storedTexts(s, a.id, `agent-${personaId}`);
      assert.deepEqual(
        held.map((x) => x.envelope),
        mine.map((x) => x.envelope),
      );
      // A's key was pinned on first sight of A's manifest, which G served.
      const origin = await relayOrigin(s, a.id);
      assert.ok(origin, 'A is a relayed origin');
      assert.equal(origin.baseUrl, a.url);
      assert.deepEqual(
        origin.keys.map((k: Loose) => [k.keyId, k.source]),
        [[a.keyId, 'first_seen']],
      );
      assert.equal(origin.gaps.open, 0);
    }
    // G's feed carries A's event in G's own sequence; A is never handed its own events back.
    for (const [node, peer] of [
      [g, a],
      [a, g],
    ] as const) {
      const mine = ((await status(node)).cursors as Loose[]).find((p) => p.peerId === peer.id);
      assert.equal(mine?.push?.rejected ?? 0, 0, JSON.stringify(mine));
      assert.equal(mine?.pull?.rejected ?? 0, 0, JSON.stringify(mine));
    }
    const feed = (await (await fetch(`${g.url}/api/federation/events?limit=500`)).json()) as Loose;
    assert.ok(
      feed.events.some((e: Loose) => e.event.origin === a.id && e.event.stream === `agent-${personaId}`),
    );
  });

  test('given B follows only A, when C makes a persona, then A receives it and B nothing of C', async () => {
    const set = await b.operator.post('/api/ops/svc.federation.set_relay_following', {
      mode: 'list',
      origins: [a.id],
    });
    assert.equal(set.status, 201, set.text);
    assert.deepEqual(set.json.result, { mode: 'list', origins: [a.id], relays: [g.id] });
    const before = (await eventsFrom(b, c.id)).size;
    const made = await c.operator.post('/api/ops/svc.agent.create_persona', { name: 'Riverside choir' });
    assert.equal(made.status, 201, made.text);
    const choirId: string = made.json.result.agentId;
    await eventually('C’s persona on A', async () =>
      (await registryOf(a, c.id)).find((x) => x.remote?.agentId === choirId),
    );
    // G has delivered its feed up to C's persona to B, both ways (push, and B's pull of G's export).
    const { rows } = await g.instance.instance.pool.query<{ seq: string }>(
      `SELECT max(s.seq) AS seq FROM event_sequence s JOIN events e ON e.position = s.position
       WHERE e.origin = $1`,
      [c.id],
    );
    const past = Number(rows[0]!.seq);
    await eventually('G’s push to B past C’s persona', async () => {
      const mine = ((await status(g)).cursors as Loose[]).find((p) => p.peerId === b.id);
      return mine?.push && mine.push.position >= past;
    });
    await eventually('B’s pull of G past C’s persona', async () => {
      const mine = ((await status(b)).cursors as Loose[]).find((p) => p.peerId === g.id);
      return mine?.pull && mine.pull.position >= past;
    });
    assert.equal((await eventsFrom(b, c.id)).size, before);
    assert.equal((await registryOf(b, c.id)).filter((x) => x.remote?.agentId === choirId).length, 0);
  });

  test('given an origin known only through the relay, then the registry and discover on a sovereign resolve its agents', async () => {
    const listed = await registryOf(c, a.id);
    const entry = listed.find((x) => x.remote?.agentId === personaId)!;
    assert.equal(entry.origin, a.id);
    const byId = await fetch(`${c.url}/api/federation/registry/${entry.agentId}`);
    assert.equal(byId.status, 200);
    const cue = await fetch(`${c.url}/api/federation/discover?q=${encodeURIComponent('@adas_kitchen')}`);
    const found = (await cue.json()) as Loose;
    assert.equal(found.found, true, JSON.stringify(found));
    assert.equal(found.agent.agentId, entry.agentId);
    const onHost = await fetch(
      `${c.url}/api/federation/discover?q=${encodeURIComponent(`@adas_kitchen@${new URL(a.url).host}`)}`,
    );
    const there = (await onHost.json()) as Loose;
    assert.equal(there.found, true, JSON.stringify(there));
    assert.equal(there.where, 'relayed_origin');
    assert.equal(there.origin.instanceId, a.id);
    assert.equal(there.agent.remoteAgentId, personaId);
  });

  describe('a hostile relay', () => {
    let stream = '';
    let texts: { v: number; envelope: string; id: string }[] = [];

    beforeAll(async () => {
      // D pins A's key by hand (confirmed with A's operator out of band), with A's address.
      const pinned = await d.operator.post('/api/ops/svc.federation.pin_origin_key', {
        origin: a.id,
        publicKey: a.publicKey,
        baseUrl: a.url,
        name: 'Ada',
      });
      assert.equal(pinned.status, 201, pinned.text);
      // A persona on A with three versions: created, renamed, described.
      const made = await a.operator.post('/api/ops/svc.agent.create_persona', { name: 'Chain one' });
      assert.equal(made.status, 201, made.text);
      const id: string = made.json.result.agentId;
      for (const change of [{ name: 'Chain two' }, { bio: 'Three.' }]) {
        const r = await a.operator.post('/api/ops/svc.profile.update', { targetAgentId: id, ...change });
        assert.equal(r.status, 201, r.text);
      }
      stream = `agent-${id}`;
      // A relay only ever holds what A's feed gave out, so numbered by A's sequencer; taken straight from
      // A's table, the texts could reach D before A numbered them, and A's public query (which reads the
      // numbered feed) would not yet show the version D asks A for.
      await a.instance.instance.sequencer.drain();
      texts = await storedTexts(a, a.id, stream);
      assert.deepEqual(
        texts.map((t) => t.v),
        [1, 2, 3],
      );
    });

    test('given an envelope of A altered in transit, then D refuses it envelope.bad_signature and writes nothing', async () => {
      const before = await footprint(d);
      const altered = texts[0]!.envelope.replace('Chain one', 'Chain 0ne');
      assert.notEqual(altered, texts[0]!.envelope);
      const r = await h.client.importEvents(d.url, [altered]);
      assert.equal(r.results[0]!.code, 'envelope.bad_signature', JSON.stringify(r));
      assert.deepEqual(await footprint(d), before);
    });

    test('given H withholds version 2, then D reports the gap in A’s chain, fetches it from A, and H’s later delivery is a duplicate', async () => {
      const r = await h.client.importEvents(d.url, [texts[0]!.envelope, texts[2]!.envelope]);
      assert.deepEqual(
        r.results.map((x) => x.status),
        ['accepted', 'accepted'],
        JSON.stringify(r),
      );
      const origin = await eventually('the gap filled from A', async () => {
        const o = await relayOrigin(d, a.id);
        return o?.gaps.filled === 1 && o;
      });
      assert.deepEqual(
        origin.gaps.recent.map((x: Loose) => [x.stream, x.fromVersion, x.toVersion, x.state]),
        [[stream, 2, 2, 'filled']],
      );
      const held = await storedTexts(d, a.id, stream);
      assert.deepEqual(
        held.map((x) => x.envelope),
        texts.map((x) => x.envelope),
      );
      // The relay's late delivery, and the same event arriving straight from A, change nothing.
      const late = await h.client.importEvents(d.url, [texts[1]!.envelope]);
      assert.equal(late.results[0]!.status, 'duplicate', JSON.stringify(late));
      assert.deepEqual(
        [...(await eventsFrom(d, a.id)).values()].every((n) => n === 1),
        true,
      );
      // The operator's command shows it too.
      const shown = await runCli(d.instance, ['federation', 'status'], { BASE_URL: d.url });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, new RegExp(`${a.id}  Ada  ${a.url}  keys ${a.keyId} \\(operator\\)`));
      assert.match(shown.stdout, /gaps: 0 open, 1 filled from the origin, 0 not public/);
      // The log still verifies: the filled version sits in a recorded gap.
      const verified = await runCli(d.instance, ['log', 'verify'], { BASE_URL: d.url });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    });

    test('given a relayed chain that forks, then D refuses federation.equivocation and keeps both envelopes', async () => {
      const asA = sealerOf(a);
      const fork = asA({
        type: 'agent.profile_updated',
        stream,
        streamVersion: 3,
        actorId: JSON.parse(texts[2]!.envelope).actorId,
        data: { bio: 'Forked.' },
      });
      const before = await footprint(d);
      const r = await h.client.importEvents(d.url, [fork.text]);
      assert.equal(r.results[0]!.code, 'federation.equivocation', JSON.stringify(r));
      assert.deepEqual(await footprint(d), before);
      const evidence = await d.operator.post('/api/ops/svc.federation.equivocations', { peerId: a.id });
      assert.equal(evidence.status, 200, evidence.text);
      const record = (evidence.json.result.equivocations as Loose[])[0]!;
      assert.equal(record.heldEnvelope, texts[2]!.envelope);
      assert.equal(record.refusedEnvelope, fork.text);
      assert.equal((await relayOrigin(d, a.id))!.equivocations.count, 1);
    });

    test('given an origin whose key is unknown and cannot be learned, then federation.origin_key_unknown and nothing written', async () => {
      const keys = generateSigningKey();
      const stranger = '5d7e0c2a-1b3f-4e6d-8a9b-0c1d2e3f4a5b';
      const seal = createEnvelopeSigner({ origin: stranger, ...keys });
      const agentId = '7c6f1e2d-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
      const e = seal.seal({
        v: 1,
        id: '01900000-0000-7000-8000-000000000001',
        type: 'agent.created',
        origin: stranger,
        keyId: seal.keyId,
        stream: `agent-${agentId}`,
        streamVersion: 1,
        actorId: agentId,
        occurredAt: new Date().toISOString(),
        nonce: randomBytes(16).toString('base64url'),
        data: { agentId, kind: 'person', name: 'Nobody' },
      });
      const before = await footprint(d);
      const r = await h.client.importEvents(d.url, [e.text]);
      assert.equal(r.results[0]!.code, 'federation.origin_key_unknown', JSON.stringify(r));
      assert.deepEqual(await footprint(d), before);
    });

    test('given a manifest announcing a new key of A not signed by the pinned one, then federation.key_not_announced and nothing written', async () => {
      // H forges A's manifest with a key of its own, signed by that key only, and an event under it.
      const forged = generateSigningKey();
      const forgedSigner = createEnvelopeSigner({ origin: a.id, ...forged });
      const real = (await (await fetch(`${a.url}/api/federation/manifest`)).json()) as Loose;
      const { sig: _sig, ...unsigned } = real;
      const doc = {
        ...unsigned,
        keys: [
          ...real.keys,
          {
            keyId: forgedSigner.keyId,
            algorithm: 'Ed25519',
            publicKey: publicKeyBase64url(forged.publicKey),
            validFrom: new Date().toISOString(),
            validUntil: null,
          },
        ],
        keyId: forgedSigner.keyId,
      };
      const text = JSON.stringify({
        ...doc,
        sig: sign(null, Buffer.from(canonicalJson(doc), 'utf8'), forged.privateKey).toString('base64url'),
      });
      h.manifests.set(a.id, text);
      const e = forgedSigner.seal({
        v: 1,
        id: '01900000-0000-7000-8000-000000000002',
        type: 'agent.profile_updated',
        origin: a.id,
        keyId: forgedSigner.keyId,
        stream,
        streamVersion: 4,
        actorId: JSON.parse(texts[2]!.envelope).actorId,
        occurredAt: new Date().toISOString(),
        nonce: randomBytes(16).toString('base64url'),
        data: { bio: 'Taken over.' },
      });
      const before = await footprint(d);
      const r = await h.client.importEvents(d.url, [e.text]);
      assert.equal(r.results[0]!.code, 'federation.key_not_announced', JSON.stringify(r));
      assert.deepEqual(await footprint(d), before);
      const origin = await relayOrigin(d, a.id);
      assert.deepEqual(
        origin!.keys.map((k: Loose) => k.keyId),
        [a.keyId],
      );
    });

    test('given a relay-only origin whose manifest revokes its old key, when batches of it race into D, then each is taken once its keys are pinned once, and what the revoked key signed after its revocation is federation.key_revoked', async () => {
      // An origin E known to D only through H: key 1 revoked an hour ago, key 2 current, the manifest
      // signed by key 2. Six batches arrive at once, each fetching the manifest before any is stored: the
      // first to take E's import lock pins the keys, the others find them pinned (before, each read the
      // key stream's version before the lock and lost with a 409).
      const origin = '3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b';
      const [k1, k2] = [generateSigningKey(), generateSigningKey()];
      const [s1, s2] = [k1, k2].map((k) => createEnvelopeSigner({ origin, ...k }));
      const revokedAfter = new Date(Date.now() - 3_600_000).toISOString();
      const validFrom = new Date(Date.now() - 86_400_000).toISOString();
      const doc = {
        type: 'tributary.instance_manifest',
        instanceId: origin,
        role: 'person',
        name: 'Elsewhere',
        baseUrl: 'http://127.0.0.1:9',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        keyId: s2!.keyId,
        keys: [
          {
            keyId: s1!.keyId,
            publicKey: publicKeyBase64url(k1.publicKey),
            validFrom,
            validUntil: revokedAfter,
            revokedAfter,
          },
          {
            keyId: s2!.keyId,
            publicKey: publicKeyBase64url(k2.publicKey),
            validFrom: revokedAfter,
            validUntil: null,
          },
        ],
      };
      h.manifests.set(
        origin,
        JSON.stringify({
          ...doc,
          sig: sign(null, Buffer.from(canonicalJson(doc), 'utf8'), k2.privateKey).toString('base64url'),
        }),
      );
      const created = (signer: typeof s1, n: number, occurredAt: Date) => {
        const agentId = `7c6f1e2d-3a4b-4c5d-8e9f-0a1b2c3d4e${(10 + n).toString(16).padStart(2, '0')}`;
        return signer!.seal({
          v: 1,
          id: `01900000-0000-7000-8000-0000000001${(10 + n).toString(16).padStart(2, '0')}`,
          type: 'agent.created',
          origin,
          keyId: signer!.keyId,
          stream: `agent-${agentId}`,
          streamVersion: 1,
          actorId: agentId,
          occurredAt: occurredAt.toISOString(),
          nonce: randomBytes(16).toString('base64url'),
          data: { agentId, kind: 'person', name: `Elsewhere ${n}` },
        }).text;
      };
      const batches = [0, 1, 2, 3, 4, 5].map((n) => [created(s2, n, new Date())]);
      const results = await Promise.all(batches.map((texts) => h.client.importEvents(d.url, texts)));
      assert.deepEqual(
        results.map((r) => r.results[0]!.status),
        batches.map(() => 'accepted'),
        JSON.stringify(results),
      );
      const { rows } = await d.instance.instance.pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM events WHERE stream = $1',
        [`relay-origin-${origin}`],
      );
      assert.equal(Number(rows[0]!.n), 1, 'E’s keys are recorded once');
      const { rows: pinned } = await d.instance.instance.pool.query<{
        key_id: string;
        revoked_after: string;
      }>('SELECT key_id, revoked_after FROM rm_relay_origin_keys WHERE origin = $1 ORDER BY valid_from', [
        origin,
      ]);
      assert.deepEqual(
        pinned.map((k) => [k.key_id, k.revoked_after]),
        [
          [s1!.keyId, revokedAfter],
          [s2!.keyId, null],
        ],
      );
      // Key 1 still verifies what it signed before its revocation, not what it signed after.
      const before = created(s1, 6, new Date(Date.parse(revokedAfter) - 60_000));
      const after = created(s1, 7, new Date());
      const r = await h.client.importEvents(d.url, [before, after]);
      assert.deepEqual(
        r.results.map((x) => x.status),
        ['accepted', 'rejected'],
        JSON.stringify(r),
      );
      assert.equal(r.results[1]!.code, 'federation.key_revoked');
    });

    test('given a peer not in the relay role sending A’s events, then federation.origin_mismatch and nothing written', async () => {
      const keys = generateSigningKey();
      const peerId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
      const signer = createEnvelopeSigner({ origin: peerId, ...keys });
      const r1 = await d.operator.post('/api/federation/peers', {
        peerId,
        baseUrl: 'http://127.0.0.1:9',
        role: 'group',
        publicKey: publicKeyBase64url(keys.publicKey),
      });
      assert.equal(r1.status, 201, r1.text);
      const before = await footprint(d);
      const r = await clientOf({ keyId: signer.keyId, privateKey: keys.privateKey }).importEvents(d.url, [
        texts[0]!.envelope,
      ]);
      assert.equal(r.results[0]!.code, 'federation.origin_mismatch', JSON.stringify(r));
      assert.deepEqual(await footprint(d), before);
    });
  });

  test('given A rotates its key, then B and C adopt the new key announced under the pinned one and take what it signs', async () => {
    const oldKeyId = a.keyId;
    const rotated = await runCli(a.instance, ['keys', 'rotate', '--overlap', '1h'], {
      BASE_URL: a.url,
      INSTANCE_ROLE: a.role,
    });
    assert.equal(rotated.code, 0, rotated.stderr);
    const newKeyId = /new key:\s+(ed25519:\S+)/.exec(rotated.stdout)![1]!;
    await eventually(
      'A to sign with its new key',
      async () => a.instance.instance.services.signer.keyId === newKeyId,
    );
    const made = await a.operator.post('/api/ops/svc.agent.create_persona', { name: 'After the rotation' });
    assert.equal(made.status, 201, made.text);
    const rotatedId: string = made.json.result.agentId;
    const [created] = await storedTexts(a, a.id, `agent-${rotatedId}`);
    assert.equal(JSON.parse(created!.envelope).keyId, newKeyId);
    for (const s of [b, c]) {
      await eventually(`the new key’s persona on ${s.role}`, async () =>
        (await registryOf(s, a.id)).find((x) => x.remote?.agentId === rotatedId),
      );
      const origin = (await relayOrigin(s, a.id))!;
      const keys = origin.keys as Loose[];
      assert.deepEqual(
        keys.map((k) => k.keyId),
        [oldKeyId, newKeyId],
      );
      assert.equal(keys[1]!.source, 'announced');
      assert.equal(keys[1]!.validUntil, null);
      assert.ok(keys[0]!.validUntil && Date.parse(keys[0]!.validUntil) > Date.now(), 'the old key overlaps');
      const verified = await runCli(s.instance, ['log', 'verify'], {
        BASE_URL: s.url,
        INSTANCE_ROLE: s.role,
      });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    }
  });

  test('given B peers A directly too, then A’s events arriving directly after they came relayed are each stored once', async () => {
    await register(b, a);
    const ids = await eventsFrom(b, a.id);
    assert.ok(ids.size > 0);
    const texts = (await storedTexts(a, a.id, `agent-${personaId}`)).map((t) => t.envelope);
    const r = await clientOf(a).importEvents(b.url, texts);
    assert.deepEqual(
      r.results.map((x) => x.status),
      texts.map(() => 'duplicate'),
      JSON.stringify(r),
    );
    assert.ok([...(await eventsFrom(b, a.id)).values()].every((n) => n === 1));
  });
});
