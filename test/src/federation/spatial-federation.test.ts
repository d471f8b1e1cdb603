// Worlds across two instances on loopback: a public world's events are on its instance's feed (a private
// world's never are), a peer imports them, and then resolves a portal to that world and the tags
// registered there from what the feed carried; an edit on the origin shows on the peer after the next
// import; a world made private drops out of the peer's view. A peer's world is never served as the
// peer's own.
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { assertShape, content, geoPose, graph } from '../e2e/spatial-helpers.js';
import {
  clientOf,
  ownEvents,
  password,
  register,
  sealerOf,
  startNode,
  type Loose,
  type Node,
} from './federation-helpers.js';

describe('worlds across peers', () => {
  let a: Node;
  let b: Node;
  let ada: ReturnType<typeof browser>;
  let bea: ReturnType<typeof browser>;
  let worldA: Loose;
  let viewA: Loose;
  let portalB: Loose;
  let worldB: Loose;

  const op = async (who: ReturnType<typeof browser>, name: string, input: unknown) => {
    const r = await who.post(`/api/ops/${name}`, input);
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.status} ${r.text}`);
    return r.json.result as Loose;
  };
  /** A's feed imported into B, as a peer's sync would deliver it. */
  const importAIntoB = async () => {
    const summary = await clientOf(a).importEvents(b.url, await ownEvents(a));
    assert.equal(summary.rejected, 0, JSON.stringify(summary.results.filter((r) => r.status === 'rejected')));
  };
  const wow = async (node: Node, path: string, shape: Parameters<typeof assertShape>[0], status = 200) => {
    const r = await fetch(node.url + path);
    const body = (await r.json()) as Loose;
    assert.equal(r.status, status, `${path}: ${JSON.stringify(body)}`);
    assertShape(status >= 400 ? 'problem' : shape, body);
    return body;
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([startNode('group', 'Harbour'), startNode('group', 'Hills')]);
    await register(b, a);
    await register(a, b);
    ada = browser(a.url);
    bea = browser(b.url);
    assert.equal((await ada.post('/api/auth/signup', { handle: 'ada', password, name: 'Ada' })).status, 201);
    assert.equal((await bea.post('/api/auth/signup', { handle: 'bea', password, name: 'Bea' })).status, 201);
    worldA = await op(ada, 'svc.spatial.create_world', { content: content('Harbour'), geoPose: geoPose() });
    viewA = await op(ada, 'svc.spatial.add_view', {
      worldId: worldA.worldId,
      name: 'quay',
      geoPose: geoPose(51.6),
    });
    await op(ada, 'svc.spatial.save_graph', { worldId: worldA.worldId, baseRevision: 0, nodes: graph(20) });
    worldB = await op(bea, 'svc.spatial.create_world', { content: content('Hills') });
    // A is a registered peer of B: a portal to a world there is accepted before B knows anything of it.
    portalB = await op(bea, 'svc.spatial.add_portal', {
      worldId: worldB.worldId,
      label: 'To the harbour',
      destination: { instance: a.url, worldId: worldA.worldId, viewId: viewA.viewId },
      geoPose: geoPose(48),
    });
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  test('given a public and a private world on A, then only the public world’s events are on A’s feed', async () => {
    const vault = await op(ada, 'svc.spatial.create_world', {
      visibility: 'private',
      content: content('Vault'),
    });
    await op(ada, 'svc.spatial.save_graph', { worldId: vault.worldId, baseRevision: 0, nodes: graph(3) });
    const feed = (await ownEvents(a)).map((t) => JSON.parse(t) as Loose);
    const streams = new Set(feed.map((e) => e.stream));
    assert.ok(streams.has(`world-${worldA.worldId}`));
    assert.ok(!streams.has(`world-${vault.worldId}`), 'a private world never reaches the feed');
    assert.deepEqual(
      feed.filter((e) => e.stream === `world-${worldA.worldId}`).map((e) => e.type),
      ['world.created', 'world.view_added', 'world.graph_saved'],
    );
  });

  test('given B imported A’s feed, then B’s portal resolves A’s world from it, and B does not serve A’s world as its own', async () => {
    const before = await wow(b, `/wow/portal/${portalB.portalId}`, 'portal');
    assert.equal(before.tributary.destination.resolvedFrom, 'unresolved');
    assert.equal(before.tributary.destination.href, `${a.url}/wow/world/${worldA.worldId}`);
    await importAIntoB();
    const after = await wow(b, `/wow/portal/${portalB.portalId}`, 'portal');
    assert.equal(after.tributary.destination.kind, 'peer');
    assert.equal(after.tributary.destination.resolvedFrom, 'feed');
    assert.equal(after.tributary.destination.world.label, 'Harbour');
    assert.equal(after.tributary.destination.world.spatial, `${a.url}/wow/spatial/${worldA.spatialId}`);
    assert.equal(
      after.tributary.destination.join,
      `${a.url}/wow/world/${worldA.worldId}#join=${viewA.viewId}`,
    );
    // The peer's world is known to B, not hosted by B.
    await wow(b, `/wow/world/${worldA.worldId}`, 'problem', 404);
    await wow(b, `/wow/spatial/${worldA.spatialId}`, 'problem', 404);
    const fabric = await wow(b, '/.well-known/spatial-fabric', 'spatial-fabric');
    assert.ok(!fabric.worlds.some((w: Loose) => w.id === worldA.worldId));
    // And A serves it.
    assert.equal((await wow(a, `/wow/world/${worldA.worldId}`, 'world')).views.view_count, 1);
  });

  test('given a world edit on A, when B imports the feed again, then B sees the edit', async () => {
    await op(ada, 'svc.spatial.update_world', {
      worldId: worldA.worldId,
      content: content('Harbour at night'),
    });
    await importAIntoB();
    const p = await wow(b, `/wow/portal/${portalB.portalId}`, 'portal');
    assert.equal(p.tributary.destination.world.label, 'Harbour at night');
  });

  test('given a tag registered on A, then B resolves it from the feed to A’s record and manifest', async () => {
    await op(ada, 'svc.spatial.register_tag', {
      scheme: 'nfc',
      id: '04A22B1C5D6E80',
      target: { kind: 'view', id: viewA.viewId },
      label: 'Quay chip',
    });
    await wow(b, '/api/spatial-web/tags/nfc/04a22b1c5d6e80', 'problem', 404);
    await importAIntoB();
    const onB = await wow(b, '/api/spatial-web/tags/nfc/04a22b1c5d6e80', 'tag-resolution');
    assert.equal(onB.origin, 'peer');
    assert.equal(onB.instance, a.url);
    assert.equal(onB.record, `${a.url}/wow/view/${viewA.viewId}`);
    assert.equal(onB.manifest, `${a.url}/api/universal-manifest/world/${worldA.worldId}`);
    const onA = await wow(a, '/api/spatial-web/tags/nfc/04a22b1c5d6e80', 'tag-resolution');
    assert.equal(onA.origin, 'local');
    assert.equal(onA.record, onB.record);
  });

  test('given A makes its world private, when B imports the feed, then B no longer resolves it', async () => {
    await op(ada, 'svc.spatial.update_world', { worldId: worldA.worldId, visibility: 'private' });
    await importAIntoB();
    const p = await wow(b, `/wow/portal/${portalB.portalId}`, 'portal');
    assert.equal(p.tributary.destination.resolvedFrom, 'unresolved');
    assert.equal(p.tributary.destination.world, null);
  });

  test('given A’s signed events naming one of B’s worlds, when B imports them, then B’s world is unchanged and still served', async () => {
    const seal = sealerOf(a);
    const stream = `world-${worldB.worldId}`;
    const hijack = seal({
      type: 'world.updated',
      stream,
      streamVersion: 1,
      actorId: a.operatorAgentId,
      data: { worldId: worldB.worldId, content: content('Hijacked') },
    });
    const drop = seal({
      type: 'world.unpublished',
      stream,
      streamVersion: 2,
      actorId: a.operatorAgentId,
      data: { worldId: worldB.worldId },
    });
    // Whatever the import makes of them, the spatial read model keeps a world its origin's alone.
    await clientOf(a).importEvents(b.url, [hijack.text, drop.text]);
    const w = await wow(b, `/wow/world/${worldB.worldId}`, 'world');
    assert.equal(w.content.label, 'Hills');
    assert.equal(w.portals.portal_count, 1);
  });
});
