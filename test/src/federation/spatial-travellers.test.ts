// Travellers across two instances on loopback (docs/spatial.md#travellers): a person signs in on A (their
// home), takes a presentation for a world hosted on B, presents it at B's door (POST /wow/user), and is
// present at /wow/user/… until the presence expires; a fresh presentation renews it; the same one
// again is refused — also after B restarts, since the nonce is burned in B's log. Every bad presentation
// (another audience, expired, replayed, wrongly signed, unknown issuer, malformed) answers its code and
// writes nothing. Signatures are checked here with an independent Ed25519 implementation.
import * as ed from '@noble/ed25519';
import { decideCreateWorld, initialWorldState, worldStream, type WorldState } from '@tributary/domain';
import { canonicalJson, generateSigningKey } from '@tributary/infra';
import { commitEvents } from '@tributary/services';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { createHash, randomUUID, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { assertShape } from '../e2e/spatial-helpers.js';
import { password, register, startNode, type Loose, type Node } from './federation-helpers.js';

ed.hashes.sha512 = (m: Uint8Array) => new Uint8Array(createHash('sha512').update(m).digest());

const PRESENCE_SECONDS = 60;

/** A clock B runs on, which the test moves forward to let presences expire. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

async function createWorld(node: Node, visibility: 'public' | 'private', label: string): Promise<string> {
  const worldId = randomUUID();
  const stream = worldStream(worldId);
  await commitEvents(
    node.instance.instance.services,
    [stream],
    (states) =>
      decideCreateWorld(
        {
          worldId,
          spatialId: randomUUID(),
          ownerAgentId: node.operatorAgentId,
          visibility,
          content: { label, age_restriction: 0, license: 'CC-BY-4.0', cost: 'free', version: 1, duration: 0 },
        },
        (states.get(stream) as WorldState | undefined) ?? initialWorldState(),
      ),
    node.operatorAgentId,
  );
  return worldId;
}

/** Re-signs a (changed) presentation with `privateKey`, as its issuer — or a forger — would. */
function resign(presentation: Loose, privateKey: KeyObject): Loose {
  const { signature, ...unsigned } = presentation;
  const value = sign(null, Buffer.from(canonicalJson(unsigned), 'utf8'), privateKey).toString('base64url');
  return { ...unsigned, signature: { ...signature, value } };
}

describe('travellers between two instances', () => {
  let a: Node; // the traveller's home
  let b: Node; // hosts the destination world
  let worldId: string;
  let privateWorldId: string;
  let ada: ReturnType<typeof browser>;
  let adaAgentId: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startNode('group', 'Home'),
      startNode('locale', 'Destination', { SPATIAL_PRESENCE_SECONDS: String(PRESENCE_SECONDS) }, { clock }),
    ]);
    await register(b, a);
    await register(a, b);
    worldId = await createWorld(b, 'public', 'Harbour');
    privateWorldId = await createWorld(b, 'private', 'Back room');
    ada = browser(a.url);
    const r = await ada.post('/api/auth/signup', { handle: 'ada', password, name: 'Ada Lovelace' });
    assert.equal(r.status, 201, r.text);
    adaAgentId = r.json.agentId;
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  const take = async (body: Loose = {}) => {
    const r = await ada.post('/api/spatial-web/traveller', {
      destination: { instance: b.url, worldId },
      share: ['displayName', 'home'],
      ...body,
    });
    assert.equal(r.status, 200, r.text);
    return r.json.result as { presentation: Loose; door: string; expiresAt: string };
  };
  const present = async (presentation: unknown, url = `${b.url}/wow/user`) => {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof presentation === 'string' ? presentation : JSON.stringify(presentation),
    });
    return { status: r.status, headers: r.headers, json: (await r.json()) as Loose };
  };
  const presence = async (userId: string) => {
    const r = await fetch(`${b.url}/wow/user/${userId}`);
    return { status: r.status, headers: r.headers, json: (await r.json()) as Loose };
  };
  const footprint = async () => {
    const { rows } = await b.instance.instance.pool.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM events) AS events,
              (SELECT json_agg(row_to_json(x) ORDER BY receipt_id) FROM rm_spatial_presence x)::text AS presence`,
    );
    return rows[0]!;
  };
  const refused = async (presentation: unknown, status: number, code: string) => {
    const before = await footprint();
    const r = await present(presentation);
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code);
    assert.deepEqual(await footprint(), before, `${code}: nothing written`);
  };

  let receiptId: string;
  let used: Loose;

  test('given a traveller on A, when they take a presentation, then it is signed by A, bound to B’s world, short-lived, and shares only what they chose', async () => {
    const { presentation, door, expiresAt } = await take();
    assert.equal(door, `${b.url}/wow/user`);
    const { signature, ...unsigned } = presentation;
    assert.ok(
      ed.verify(
        Buffer.from(signature.value, 'base64url'),
        Buffer.from(canonicalJson(unsigned), 'utf8'),
        Buffer.from(a.publicKey, 'base64url'),
        { zip215: false },
      ),
      'noble verifies the presentation under A’s key',
    );
    assert.equal(signature.keyRef, `${a.url}/api/federation/manifest#${a.keyId}`);
    assert.equal(unsigned.type, 'tributary:TravellerPresentation');
    assert.equal(unsigned.subject, `urn:uuid:${adaAgentId}`);
    assert.deepEqual(unsigned.issuer, { instanceId: a.id, baseUrl: a.url });
    assert.deepEqual(unsigned.audience, { instance: b.url, worldId });
    assert.equal(Date.parse(expiresAt) - Date.parse(unsigned.issuedAt), 300_000);
    assert.deepEqual(unsigned.content, {
      name: 'Ada Lovelace',
      home: `${a.url}/api/federation/registry/${adaAgentId}`,
    });
    assert.match(unsigned.nonce, /^[A-Za-z0-9_-]{22,}$/);
    // Nothing chosen, nothing shared.
    const bare = await take({ share: [] });
    assert.deepEqual(bare.presentation.content, {});
    // The destination as the world's URL (as spatial-fabric and portals give it).
    const byUrl = await take({ destination: `${b.url}/wow/world/${worldId}` });
    assert.deepEqual(byUrl.presentation.audience, { instance: b.url, worldId });
  });

  test('given the presentation, when presented at B’s door, then a presence receipt, and B answers who is present by receipt id and by subject', async () => {
    const { presentation } = await take();
    const r = await present(presentation);
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assertShape('user-admission', r.json);
    receiptId = r.json.id;
    used = presentation;
    // Upstream's User members at the top, spelled as upstream spells them; ours under tributary.
    assert.equal(r.json.name, 'Ada Lovelace');
    const ours = r.json.tributary as Loose;
    assert.equal(ours.subject, `urn:uuid:${adaAgentId}`);
    assert.equal(ours.worldId, worldId);
    assert.equal(ours.renewed, false);
    assert.deepEqual(ours.issuer, { instanceId: a.id, baseUrl: a.url });
    assert.equal(ours.home, `${a.url}/api/federation/registry/${adaAgentId}`);
    assert.equal(ours.presence, `${b.url}/wow/user/${receiptId}`);
    const lasts = Date.parse(ours.expiresAt) - clock.now().getTime();
    assert.ok(lasts > (PRESENCE_SECONDS - 5) * 1000 && lasts <= PRESENCE_SECONDS * 1000, String(lasts));

    for (const id of [receiptId, adaAgentId, `urn:uuid:${adaAgentId}`]) {
      const p = await presence(id);
      assert.equal(p.status, 200, id);
      assert.equal(p.headers.get('access-control-allow-origin'), '*');
      assertShape('user', p.json);
      assert.equal(p.headers.get('cache-control'), 'no-store', 'presence changes by the second');
      assert.equal(p.json.id, receiptId);
      assert.equal(p.json.name, 'Ada Lovelace');
      assert.equal(p.json.tributary.worldId, worldId);
      assert.equal(p.json.tributary.renewed, undefined, 'only the door says whether it renewed');
    }
    // The world counts its travellers.
    const world = await fetch(`${b.url}/wow/world/${worldId}`);
    assert.equal(world.status, 200);
    assertShape('world', await world.clone().json());
    assert.deepEqual(((await world.json()) as Loose).users, { active_user_count: 1, total_user_count: 1 });
  });

  test('given the same presentation again, then 409 spatial.presentation_replayed — also after B restarts', async () => {
    await refused(used, 409, 'spatial.presentation_replayed');
    b.instance = await b.instance.restart();
    await refused(used, 409, 'spatial.presentation_replayed');
    assert.equal((await presence(receiptId)).status, 200, 'the presence outlived the restart');
  });

  test('given one presentation presented twice at once, then one admission and one 409, with one event', async () => {
    const { presentation } = await take();
    const before = Number((await footprint()).events);
    const answers = await Promise.all([present(presentation), present(presentation)]);
    assert.deepEqual(
      answers.map((r) => r.status).sort(),
      [201, 409],
      JSON.stringify(answers.map((r) => r.json)),
    );
    assert.equal(answers.find((r) => r.status === 409)!.json.code, 'spatial.presentation_replayed');
    assert.equal(Number((await footprint()).events), before + 1);
  });

  test('given a fresh presentation while present, then the same presence is renewed', async () => {
    const before = (await presence(receiptId)).json.tributary.expiresAt as string;
    clock.offsetMs += 2000;
    const r = await present((await take({ share: ['displayName'] })).presentation);
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.equal(r.json.id, receiptId);
    assertShape('user-admission', r.json);
    assert.equal(r.json.tributary.renewed, true);
    assert.ok(Date.parse(r.json.tributary.expiresAt) > Date.parse(before));
    // What is shared now: the name, no longer the home.
    assert.equal(r.json.name, 'Ada Lovelace');
    assert.equal(r.json.tributary.home, undefined);
  });

  test('given time passing beyond the presence, then it is gone: 404 spatial.presence_not_found', async () => {
    clock.offsetMs += (PRESENCE_SECONDS + 1) * 1000;
    for (const id of [receiptId, adaAgentId]) {
      const p = await presence(id);
      assert.equal(p.status, 404, id);
      assert.equal(p.json.code, 'spatial.presence_not_found');
      assertShape('problem', p.json);
    }
    const world = (await (await fetch(`${b.url}/wow/world/${worldId}`)).json()) as Loose;
    assert.deepEqual(world.users, { active_user_count: 0, total_user_count: 1 }, 'gone, but was there');
    clock.offsetMs = 0;
  });

  test('given bad presentations, then each is refused with its code and nothing is written', async () => {
    const fresh = async () => (await take()).presentation;

    // Another audience: the destination is A itself, or the world is not one B hosts publicly.
    const forA = (await take({ destination: { instance: a.url, worldId } })).presentation;
    await refused(forA, 403, 'spatial.presentation_wrong_audience');
    const elsewhere = (await take({ destination: { instance: b.url, worldId: randomUUID() } })).presentation;
    await refused(elsewhere, 404, 'spatial.world_not_found');
    const privateOne = (await take({ destination: { instance: b.url, worldId: privateWorldId } }))
      .presentation;
    await refused(privateOne, 404, 'spatial.world_not_found');

    // Expired (re-signed by A's real key, so only the time is wrong), and one living too long.
    const old = await fresh();
    const past = (s: number) => new Date(Date.now() - s * 1000).toISOString().replace(/\.\d+Z$/, '.000Z');
    await refused(
      resign({ ...old, issuedAt: past(400), expiresAt: past(100) }, a.privateKey),
      401,
      'spatial.presentation_expired',
    );
    const future = new Date(Date.now() + 3 * 3600_000).toISOString();
    await refused(resign({ ...old, expiresAt: future }, a.privateKey), 400, 'spatial.presentation_invalid');

    // Wrongly signed: changed after signing, or signed by a key that is not A's.
    const tampered = await fresh();
    await refused(
      { ...tampered, content: { name: 'Someone else' } },
      401,
      'spatial.presentation_bad_signature',
    );
    const forger = generateSigningKey().privateKey;
    await refused(resign(await fresh(), forger), 401, 'spatial.presentation_bad_signature');

    // An issuer B has not registered, a key A does not hold, an issuer at another base URL.
    const stranger = await fresh();
    await refused(
      resign({ ...stranger, issuer: { instanceId: randomUUID(), baseUrl: a.url } }, forger),
      401,
      'spatial.presentation_unknown_issuer',
    );
    const otherKey = await fresh();
    await refused(
      resign(
        {
          ...otherKey,
          signature: { ...otherKey.signature, keyRef: `${a.url}/api/federation/manifest#ed25519:nope` },
        },
        a.privateKey,
      ),
      401,
      'spatial.presentation_unknown_issuer',
    );
    const moved = await fresh();
    await refused(
      resign({ ...moved, issuer: { instanceId: a.id, baseUrl: 'http://127.0.0.1:9' } }, a.privateKey),
      401,
      'spatial.presentation_unknown_issuer',
    );

    // Malformed: not a presentation, ids that are not ids, an extra member, not JSON at all.
    const shape = await fresh();
    await refused({}, 400, 'spatial.presentation_invalid');
    await refused({ ...shape, subject: 'ada' }, 400, 'spatial.presentation_invalid');
    await refused(
      { ...shape, audience: { instance: b.url, worldId: 'harbour' } },
      400,
      'spatial.presentation_invalid',
    );
    await refused({ ...shape, nonce: 'short' }, 400, 'spatial.presentation_invalid');
    await refused({ ...shape, extra: true }, 400, 'spatial.presentation_invalid');
    await refused('{"subject": ', 400, 'request.malformed_json');
    await refused({ ...shape, padding: 'x'.repeat(17 * 1024) }, 413, 'request.too_large');
  });

  test('given malformed and unknown user ids, then 400 spatial.id_invalid and 404 spatial.presence_not_found', async () => {
    for (const id of ['ada', 'urn:uuid:nope', '1234']) {
      const r = await presence(encodeURIComponent(id));
      assert.equal(r.status, 400, id);
      assert.equal(r.json.code, 'spatial.id_invalid');
    }
    const unknown = await presence(randomUUID());
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'spatial.presence_not_found');
  });

  test('given the door and the presence route, then CORS preflights are answered', async () => {
    const door = await fetch(`${b.url}/wow/user`, { method: 'OPTIONS' });
    assert.equal(door.status, 204);
    assert.equal(door.headers.get('access-control-allow-origin'), '*');
    assert.match(door.headers.get('access-control-allow-methods') ?? '', /POST/);
    const read = await fetch(`${b.url}/wow/user/${randomUUID()}`, { method: 'OPTIONS' });
    assert.equal(read.status, 204);
    assert.match(read.headers.get('allow') ?? '', /GET/);
  });

  test('given a person of B, then B admits its own presentation for its own world', async () => {
    const bob = browser(b.url);
    assert.equal((await bob.post('/api/auth/signup', { handle: 'bob', password })).status, 201);
    const r = await bob.post('/api/spatial-web/traveller', {
      destination: { worldId },
      share: ['displayName'],
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.result.presentation.audience, { instance: b.url, worldId });
    const admitted = await present(r.json.result.presentation);
    assert.equal(admitted.status, 201, JSON.stringify(admitted.json));
    assertShape('user-admission', admitted.json);
    assert.deepEqual(admitted.json.tributary.issuer, { instanceId: b.id, baseUrl: b.url });
  });

  test('given A blocked on B, then A’s presentations are refused as from an unknown issuer, and admitted again once unblocked', async () => {
    const block = async (blocked: boolean) => {
      const r = await b.operator.call('PATCH', '/api/federation/peers', { peerId: a.id, blocked });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.result.blocked, blocked);
    };
    const { presentation } = await take();
    await block(true);
    await refused(presentation, 401, 'spatial.presentation_unknown_issuer');
    await block(false);
    assert.equal((await present(presentation)).status, 201, 'the refusal burned nothing');
  });

  test('given bad traveller requests, then their codes', async () => {
    const anonymous = await fetch(`${a.url}/api/spatial-web/traveller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: a.url },
      body: JSON.stringify({ destination: { worldId } }),
    });
    assert.equal(anonymous.status, 401);
    for (const body of [
      { destination: { worldId: 'harbour' } },
      { destination: { instance: 'ftp://x', worldId } },
      { destination: { worldId }, share: ['email'] },
      { destination: { worldId }, extra: 1 },
      { destination: `${b.url}/wow/spatial/${worldId}` },
      { destination: `${b.url}/wow/world/harbour` },
      {},
    ]) {
      const r = await ada.post('/api/spatial-web/traveller', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.code, 'input.invalid');
    }
    // Only a person (or persona) travels: not the instance's own agent.
    const op = a.operator;
    const primary = (await a.instance.instance.services.instance.read.get())!.primaryAgentId;
    const r = await op.post('/api/spatial-web/traveller', {
      targetAgentId: primary,
      destination: { worldId },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.code, 'spatial.traveller_not_a_person');
  });
});
