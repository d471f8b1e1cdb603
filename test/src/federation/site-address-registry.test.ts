// The global address registry between real instances on loopback: a global instance G and two
// sovereign instances A and B, each peered with G. A label is claimed at G first (a signed request
// through the outbound client), so A and B asking for the same label get it once; G refuses a label
// another instance holds or holds back; an unreachable G changes nothing on the sovereign; the
// registry's routes answer only signed peers, and only on the global instance.
import { rebuildProjections } from '@tributary/infra';
import { builderProjections } from '@tributary/projections';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, signedPost, startNode, type Loose, type Node } from './federation-helpers.js';

describe('the global site address registry', () => {
  let g: Node;
  let a: Node;
  let b: Node;

  const claim = (n: Node, label: string) => n.operator.post('/api/builder/address', { label });
  const release = (n: Node) => n.operator.call('DELETE', '/api/builder/address');
  /** The address events in a node's log, and its address read model. */
  const footprint = async (n: Node) => {
    const pool = n.instance.instance.pool;
    const events = await pool.query(`SELECT count(*) AS n FROM events WHERE type LIKE 'site.address%'`);
    const rows = await pool.query('SELECT * FROM rm_builder_addresses ORDER BY label');
    return { events: Number(events.rows[0].n), addresses: rows.rows as Loose[] };
  };
  const entry = async (n: Node, label: string) =>
    (await footprint(n)).addresses.find((x) => x.label === label);

  beforeAll(async () => {
    const quiet = { FEDERATION_SYNC: 'off' };
    [g, a, b] = await Promise.all([
      startNode('global', 'Global', quiet),
      startNode('person', 'Alder', quiet),
      startNode('group', 'Birch', quiet),
    ]);
    await register(g, a);
    await register(g, b);
    await register(a, g);
    await register(b, g);
  });
  afterAll(async () => {
    await Promise.all([g?.instance.destroy(), a?.instance.destroy(), b?.instance.destroy()]);
  });

  test('given A claims a free label, then G records it for A (and A’s host), and A holds it locally', async () => {
    const r = await claim(a, 'river');
    assert.equal(r.status, 201, r.text);
    const atG = await entry(g, 'river');
    assert.equal(atG?.state, 'registered');
    assert.equal(atG?.instance_id, a.id);
    assert.equal(atG?.site_id, r.json.result.siteId);
    const hosts = await g.instance.instance.pool.query(
      'SELECT hostname FROM rm_builder_address_instances WHERE instance_id = $1',
      [a.id],
    );
    assert.equal(hosts.rows[0]?.hostname, new URL(a.url).hostname);
    assert.equal((await entry(a, 'river'))?.state, 'claimed');
  });

  test('given A holds a label at G, when B claims it, then 409 builder.label_taken (where: global) and nothing is written on B', async () => {
    const before = await footprint(b);
    const r = await claim(b, 'river');
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.code, 'builder.label_taken');
    assert.equal(r.json.where, 'global');
    assert.deepEqual(await footprint(b), before);
    // A site of G itself cannot take it either.
    const own = await claim(g, 'river');
    assert.equal(own.status, 409, own.text);
    assert.equal(own.json.code, 'builder.label_taken');
  });

  test('given A and B claim the same free label at once, then exactly one gets it, at G and at home', async () => {
    for (const label of ['delta', 'estuary', 'fjord']) {
      await Promise.all([release(a), release(b)]);
      const [ra, rb] = await Promise.all([claim(a, label), claim(b, label)]);
      const statuses = [ra.status, rb.status].sort();
      assert.deepEqual(statuses, [201, 409], `${label}: ${ra.text} ${rb.text}`);
      const winner = ra.status === 201 ? a : b;
      const loser = ra.status === 201 ? b : a;
      assert.equal((ra.status === 201 ? rb : ra).json.code, 'builder.label_taken');
      assert.equal((await entry(g, label))?.instance_id, winner.id);
      assert.equal((await entry(winner, label))?.state, 'claimed');
      assert.equal(await entry(loser, label), undefined);
    }
  });

  test('given A releases a label, then G holds it back for A: B is refused builder.label_held, A may take it again', async () => {
    await release(a);
    await release(b);
    const r = await claim(a, 'sound');
    assert.equal(r.status, 201, r.text);
    const released = await release(a);
    assert.equal(released.status, 200, released.text);
    assert.equal((await entry(g, 'sound'))?.state, 'deregistered');
    const held = await claim(b, 'sound');
    assert.equal(held.status, 409, held.text);
    assert.equal(held.json.code, 'builder.label_held');
    const back = await claim(a, 'sound');
    assert.equal(back.status, 201, back.text);
    assert.equal((await entry(g, 'sound'))?.state, 'registered');
  });

  test('given the registry routes, then only signed peers reach them, only on the global instance, and a host must be the peer’s own', async () => {
    const body = JSON.stringify({ action: 'claim', label: 'unsigned', siteId: 's1' });
    const unsigned = await fetch(`${g.url}/api/federation/site-addresses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(unsigned.status, 401);
    assert.equal(((await unsigned.json()) as Loose).code, 'federation.signature_required');

    const bad = await signedPost(
      a,
      `${g.url}/api/federation/site-addresses`,
      JSON.stringify({ action: 'take', label: 'x' }),
    );
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.code, 'input.invalid');
    const invalid = await signedPost(
      a,
      `${g.url}/api/federation/site-addresses`,
      JSON.stringify({ action: 'claim', label: 'xn--pple-43d', siteId: 's1' }),
    );
    assert.equal(invalid.status, 400, invalid.text);
    assert.equal(invalid.json.code, 'builder.label_invalid');
    const notHeld = await signedPost(
      b,
      `${g.url}/api/federation/site-addresses`,
      JSON.stringify({ action: 'release', label: 'sound', siteId: 's1' }),
    );
    assert.equal(notHeld.status, 404, notHeld.text);
    assert.equal(notHeld.json.code, 'builder.address_not_found');

    const notMine = await signedPost(
      a,
      `${g.url}/api/federation/site-addresses/instances`,
      JSON.stringify({ hostname: 'birch.example' }),
    );
    assert.equal(notMine.status, 403, notMine.text);
    assert.equal(notMine.json.code, 'builder.hostname_not_yours');

    // B is not the global instance: a peer it knows is refused there.
    await register(b, a);
    const notGlobal = await signedPost(
      a,
      `${b.url}/api/federation/site-addresses`,
      JSON.stringify({ action: 'claim', label: 'lagoon', siteId: 's1' }),
    );
    assert.equal(notGlobal.status, 403, notGlobal.text);
    assert.equal(notGlobal.json.code, 'federation.global_only');
    assert.equal(await entry(b, 'lagoon'), undefined);
  });

  test('given registry entries in G’s log, when its builder read models are rebuilt from zero, then they equal the incremental ones', async () => {
    const pool = g.instance.instance.pool;
    const tables = async () => ({
      addresses: (await pool.query('SELECT * FROM rm_builder_addresses ORDER BY label')).rows,
      instances: (await pool.query('SELECT * FROM rm_builder_address_instances ORDER BY instance_id')).rows,
    });
    const incremental = await tables();
    assert.ok(incremental.addresses.length >= 4);
    assert.equal(incremental.instances.length, 2);
    await rebuildProjections(pool, builderProjections);
    assert.deepEqual(await tables(), incremental);
  });

  test('given G cannot be reached, when A claims or releases, then 503 builder.address_registry_unavailable and nothing is written on A', async () => {
    const second = await a.operator.post('/api/builder/sites', { title: 'Lake' });
    assert.equal(second.status, 201, second.text);
    await g.instance.stop();
    const before = await footprint(a);
    const r = await a.operator.post('/api/builder/address', { siteId: second.json.result.siteId });
    assert.equal(r.status, 503, r.text);
    assert.equal(r.json.code, 'builder.address_registry_unavailable');
    const off = await release(a);
    assert.equal(off.status, 503, off.text);
    assert.equal(off.json.code, 'builder.address_registry_unavailable');
    assert.deepEqual(await footprint(a), before);
  });
});
