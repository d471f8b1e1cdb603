// Hosted worlds end to end on a real instance over PostgreSQL: the spatial operations at /api/ops and as
// MCP tools (official SDK client), every public /wow route, /.well-known/spatial-fabric and tag
// resolution checked against the 0.0.1 JSON Schemas in test/vectors/wow-0.0.1, CORS and preflights, and
// every refusal answering its stable code with nothing written.
import { SPATIAL_LIMITS } from '@tributary/domain';
import { rebuildProjections } from '@tributary/infra';
import { spatialProjections } from '@tributary/projections';
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
import {
  assertShape,
  content,
  geoPose,
  graph,
  op,
  refusedOp,
  spatialFootprint,
  type WowShape,
} from './spatial-helpers.js';

describe('spatial worlds', () => {
  let instance: TestInstance;
  let ada: Person;
  let bob: Person;
  let world: Loose;
  let second: Loose;
  let view: Loose;
  let portal: Loose;

  const footprint = () => spatialFootprint(instance.instance.pool);
  const get = async (path: string, shape: WowShape, status = 200, headers: Record<string, string> = {}) => {
    const r = await fetch(instance.url + path, { headers });
    const body = r.status === 304 ? null : await r.json();
    assert.equal(r.status, status, `${path}: ${JSON.stringify(body)}`);
    if (body !== null) assertShape(status >= 400 ? 'problem' : shape, body);
    assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
    return { body: body as Loose, headers: r.headers };
  };

  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_NAME: 'Harbour' } });
    ada = await signUp(instance.url, 'ada');
    bob = await signUp(instance.url, 'bob');
    world = await op(ada, 'svc.spatial.create_world', { content: content('Harbour'), geoPose: geoPose() });
    second = await op(ada, 'svc.spatial.create_world', { content: content('Lighthouse') });
    view = await op(ada, 'svc.spatial.add_view', {
      worldId: world.worldId,
      name: 'entrance',
      label: 'The gate',
      geoPose: geoPose(51.51),
    });
    const secondView = await op(ada, 'svc.spatial.add_view', {
      worldId: second.worldId,
      name: 'lamp-room',
      geoPose: geoPose(50),
    });
    portal = await op(ada, 'svc.spatial.add_portal', {
      worldId: world.worldId,
      label: 'To the lighthouse',
      destination: { worldId: second.worldId, viewId: secondView.viewId },
      geoPose: geoPose(51.52),
    });
    await op(ada, 'svc.spatial.save_graph', { worldId: world.worldId, baseRevision: 0, nodes: graph(30) });
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given a created world, then the owner reads and lists it, and the public routes serve it in the 0.0.1 shapes', async () => {
    assert.equal(world.visibility, 'public');
    assert.equal(world.wowUrl, `${instance.url}/wow/world/${world.worldId}`);
    const listed = await op(ada, 'svc.spatial.list_worlds', {});
    assert.deepEqual(
      listed.worlds.map((w: Loose) => w.worldId),
      [world.worldId, second.worldId],
    );
    // The primary world by default: the first public world (no world of the primary agent's).
    const primary = (await get('/wow/world', 'world')).body;
    assert.equal(primary.tributary.id, world.worldId);
    assert.deepEqual(primary.content, content('Harbour'));
    assert.deepEqual(primary.views, { view_count: 1 });
    assert.deepEqual(primary.portals, { portal_count: 1 });
    assert.deepEqual(primary.users, { active_user_count: 0, total_user_count: 0 });
    assert.equal(primary.tributary.spatial.revision, 1);
    assert.equal(primary.tributary.spatial.node_count, 30);
    // Upstream's geoPose spells the longitude `lan`.
    assert.deepEqual(primary.geoPose.position, { lat: 51.5, lan: -0.12, h: 10 });
    assert.equal(primary.technology['webXR-immersive'], 'immersive-vr');
    const byId = (await get(`/wow/world/${second.worldId}`, 'world')).body;
    assert.equal(byId.content.label, 'Lighthouse');

    const v = (await get(`/wow/view/${view.viewId}`, 'view')).body;
    assert.equal(v.tributary.name, 'entrance');
    assert.equal(v.tributary.join, `${instance.url}/wow/world/${world.worldId}#join=${view.viewId}`);

    const p = (await get(`/wow/portal/${portal.portalId}`, 'portal')).body;
    assert.equal(p.tributary.destination.kind, 'local');
    assert.equal(p.tributary.destination.resolvedFrom, 'local');
    assert.equal(p.tributary.destination.world.label, 'Lighthouse');
    assert.equal(p.tributary.destination.worldId, second.worldId);

    const s = await get(`/wow/spatial/${world.spatialId}`, 'spatial');
    assert.equal(s.body.tributary.revision, 1);
    assert.equal(s.body.tributary.nodes.length, 30);
    assert.equal(s.body.rootNodeID, 'n0');
    assert.deepEqual(s.body.tributary.roots, ['n0']);
    assert.equal(s.headers.get('cache-control'), 'public, max-age=10');
    const etag = s.headers.get('etag');
    assert.ok(etag);
    await get(`/wow/spatial/${world.spatialId}`, 'spatial', 304, { 'if-none-match': etag });

    const fabric = (await get('/.well-known/spatial-fabric', 'spatial-fabric')).body;
    assert.deepEqual(
      fabric.worlds.map((w: Loose) => [w.id, w.primary]),
      [
        [world.worldId, true],
        [second.worldId, false],
      ],
    );
    assert.equal(fabric.endpoints.world, `${instance.url}/wow/world`);
  });

  test('given a node state set by the owner, then the node route shows it with its time; a node not in the graph is refused', async () => {
    const before = (await get(`/wow/spatial/${world.spatialId}/node/n3`, 'node')).body;
    assert.equal(before.tributary.state, null);
    assert.equal(before.parent, 'n0');
    const set = await op(ada, 'svc.spatial.set_node_state', {
      worldId: world.worldId,
      nodeId: 'n3',
      value: { door: 'open', temperature: 19.5 },
    });
    const after = (await get(`/wow/spatial/${world.spatialId}/node/n3`, 'node')).body;
    assert.deepEqual(after.tributary.state, {
      value: { door: 'open', temperature: 19.5 },
      updatedAt: set.updatedAt,
    });
    const f = await footprint();
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.set_node_state', {
        worldId: world.worldId,
        nodeId: 'nope',
        value: 1,
      }),
      { status: 404, code: 'spatial.node_not_found' },
    );
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.set_node_state', {
        worldId: world.worldId,
        nodeId: 'n3',
        value: 'x'.repeat(SPATIAL_LIMITS.stateBytes),
      }),
      { status: 413, code: 'spatial.state_too_large' },
    );
    assert.deepEqual(await footprint(), f);
  });

  test("given the graph, then a node answers as upstream's node tree: its subtree embedded, the transform as a 4×4 matrix, the asset URIs spelled as upstream spells them; /wow/scene/node/<id> answers the primary world's node", async () => {
    const root = (await get(`/wow/spatial/${world.spatialId}/node/n0`, 'node')).body;
    assert.equal('parent' in root, false);
    const ids = (ns: Loose[]) => ns.map((n) => n.id);
    assert.deepEqual(
      ids(root.children),
      Array.from({ length: 10 }, (_, i) => `n${i + 1}`),
    );
    assert.deepEqual(
      ids(root.children[0].children),
      Array.from({ length: 10 }, (_, i) => `n${i + 11}`),
    );
    assert.equal(root.children[0].parent, 'n0');
    const count = (n: Loose): number => 1 + n.children.reduce((sum: number, c: Loose) => sum + count(c), 0);
    assert.equal(count(root), 30);
    assert.equal(root.spatialAssetURI, 'https://assets.example/models/0.glb');
    assert.equal(root.appearanceURI, 'https://assets.example/looks/0.json');
    assert.equal('spatialAssetUri' in root, false);
    assert.deepEqual(root.localTransform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert.deepEqual(root.tributary.localTransform, {
      position: [0, 0, 0],
      rotation: [0, 0, 0, 1],
      scale: [1, 1, 1],
    });
    assert.equal(root.tributary.revision, 1);
    // The graph's document names its root, which is where an upstream client starts walking.
    assert.equal((await get(`/wow/spatial/${world.spatialId}`, 'spatial')).body.rootNodeID, 'n0');
    const scene = (await get('/wow/scene/node/n1', 'node')).body;
    assert.deepEqual(scene, (await get(`/wow/spatial/${world.spatialId}/node/n1`, 'node')).body);
  });

  test('given graph revisions, then each is kept and the public route serves the latest; a stale base is refused', async () => {
    const saved = await op(ada, 'svc.spatial.save_graph', {
      worldId: world.worldId,
      baseRevision: 1,
      nodes: graph(12),
    });
    assert.equal(saved.revision, 2);
    const old = await op(ada, 'svc.spatial.read_graph', { worldId: world.worldId, revision: 1 });
    assert.equal(old.nodes.length, 30);
    // A served body is checked against the read model about once a second, in the background
    // (docs/spatial.md#caching): the new revision shows within a few seconds.
    let latest: Loose = {};
    for (let i = 0; i < 40 && latest.tributary?.revision !== 2; i++) {
      latest = (await get(`/wow/spatial/${world.spatialId}`, 'spatial')).body;
      if (latest.tributary.revision !== 2) await new Promise((r) => setTimeout(r, 150));
    }
    assert.equal(latest.tributary.revision, 2);
    assert.equal(latest.tributary.nodes.length, 12);
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.save_graph', {
        worldId: world.worldId,
        baseRevision: 1,
        nodes: graph(3),
      }),
      {
        status: 409,
        code: 'spatial.graph_stale',
      },
    );
  });

  test('given bad graphs, then cycles, inconsistencies, size and bad URIs are refused and nothing is written', async () => {
    const f = await footprint();
    const cycle = graph(3);
    cycle[0]!.parent = 'n2';
    cycle[2]!.children = ['n0'];
    const refusals: [unknown, number, string][] = [
      [cycle, 400, 'spatial.graph_cycle'],
      [[...graph(3), graph(3)[1]], 400, 'spatial.graph_invalid'],
      [
        graph(SPATIAL_LIMITS.nodes + 1).map((n) => ({
          id: n.id,
          parent: null,
          children: [],
          localTransform: n.localTransform,
        })),
        413,
        'spatial.graph_too_large',
      ],
      [graph(2).map((n) => ({ ...n, spatialAssetUri: 'javascript:alert(1)' })), 400, 'input.invalid'],
    ];
    for (const [nodes, status, code] of refusals)
      assert.deepEqual(
        await refusedOp(ada, 'svc.spatial.save_graph', { worldId: world.worldId, baseRevision: 2, nodes }),
        { status, code },
        code,
      );
    assert.deepEqual(await footprint(), f);
  });

  test("given someone else's world, then every edit is the same 404 as no world, and nothing is written", async () => {
    const f = await footprint();
    const attempts: [string, Loose][] = [
      ['svc.spatial.update_world', { worldId: world.worldId, content: content('Mine') }],
      ['svc.spatial.save_graph', { worldId: world.worldId, baseRevision: 2, nodes: graph(2) }],
      ['svc.spatial.add_view', { worldId: world.worldId, name: 'x', geoPose: geoPose() }],
      ['svc.spatial.remove_portal', { worldId: world.worldId, portalId: portal.portalId }],
      ['svc.spatial.set_node_state', { worldId: world.worldId, nodeId: 'n1', value: 1 }],
      ['svc.spatial.read_world', { worldId: world.worldId }],
      ['svc.spatial.read_world', { worldId: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ];
    for (const [name, input] of attempts)
      assert.deepEqual(
        await refusedOp(bob, name, input),
        { status: 404, code: 'spatial.world_not_found' },
        name,
      );
    assert.deepEqual(await footprint(), f);
  });

  test('given portals to unknown places, then they are refused with a code', async () => {
    const f = await footprint();
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.add_portal', {
        worldId: world.worldId,
        destination: { instance: 'https://unregistered.example', worldId: second.worldId },
        geoPose: geoPose(),
      }),
      { status: 400, code: 'spatial.peer_not_registered' },
    );
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.add_portal', {
        worldId: world.worldId,
        destination: { worldId: '0f8fad5b-d9cb-469f-a165-70867728950e' },
        geoPose: geoPose(),
      }),
      { status: 400, code: 'spatial.portal_destination_unknown' },
    );
    assert.deepEqual(
      await refusedOp(ada, 'svc.spatial.add_view', {
        worldId: world.worldId,
        name: 'entrance',
        geoPose: geoPose(),
      }),
      { status: 409, code: 'spatial.view_name_taken' },
    );
    assert.deepEqual(await footprint(), f);
  });

  test('given malformed and unknown ids on the public routes, then 400 spatial.id_invalid and 404 with codes', async () => {
    const unknown = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const cases: [string, number, string][] = [
      ['/wow/world/not-a-uuid', 400, 'spatial.id_invalid'],
      [`/wow/world/${unknown}`, 404, 'spatial.world_not_found'],
      ['/wow/view/12', 400, 'spatial.id_invalid'],
      [`/wow/view/${unknown}`, 404, 'spatial.view_not_found'],
      ['/wow/portal/%27or%201=1', 400, 'spatial.id_invalid'],
      [`/wow/portal/${unknown}`, 404, 'spatial.portal_not_found'],
      ['/wow/spatial/x', 400, 'spatial.id_invalid'],
      [`/wow/spatial/${unknown}`, 404, 'spatial.spatial_not_found'],
      [`/wow/spatial/${world.spatialId}/node/${'a'.repeat(65)}`, 400, 'spatial.id_invalid'],
      [`/wow/spatial/${world.spatialId}/node/zz`, 404, 'spatial.node_not_found'],
      ['/wow/scene/node/zz', 404, 'spatial.node_not_found'],
      [`/wow/scene/node/${'a'.repeat(65)}`, 400, 'spatial.id_invalid'],
      // A view id is not a portal id.
      [`/wow/portal/${view.viewId}`, 404, 'spatial.portal_not_found'],
      ['/api/spatial-web/tags/qr/abc', 400, 'spatial.tag_scheme_unknown'],
      ['/api/spatial-web/tags/nfc/0011', 400, 'spatial.tag_invalid'],
      [
        `/api/spatial-web/tags/url/${encodeURIComponent('http://plain.example/t')}`,
        400,
        'spatial.tag_invalid',
      ],
      ['/api/spatial-web/tags/nfc/04a22b1c5d6e80', 404, 'spatial.tag_not_found'],
    ];
    for (const [path, status, code] of cases) {
      const { body } = await get(path, 'problem', status);
      assert.equal(body.code, code, path);
    }
  });

  test('given a preflight on each public route, then 204 with CORS for GET from any origin', async () => {
    for (const path of [
      '/wow/world',
      `/wow/view/${view.viewId}`,
      `/wow/portal/${portal.portalId}`,
      `/wow/spatial/${world.spatialId}`,
      `/wow/spatial/${world.spatialId}/node/n1`,
      '/wow/scene/node/n1',
      '/.well-known/spatial-fabric',
      '/api/spatial-web/tags/nfc/deadbeef',
    ]) {
      const r = await fetch(instance.url + path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://viewer.example', 'Access-Control-Request-Method': 'GET' },
      });
      assert.equal(r.status, 204, path);
      assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
      assert.match(r.headers.get('access-control-allow-methods') ?? '', /GET/, path);
    }
  });

  test('given tags of each scheme, then they resolve to their public object; another owner is refused; removal unregisters', async () => {
    const nfc = await op(ada, 'svc.spatial.register_tag', {
      scheme: 'nfc',
      id: '04:A2:2B:1C:5D:6E:80',
      target: { kind: 'view', id: view.viewId },
      label: 'Gate chip',
    });
    assert.equal(nfc.tagId, '04a22b1c5d6e80');
    const tagUrl = 'https://harbour.example/t/42?src=poster';
    await op(ada, 'svc.spatial.register_tag', {
      scheme: 'url',
      id: tagUrl,
      target: { kind: 'node', id: 'n3', worldId: world.worldId },
    });
    const r1 = (await get('/api/spatial-web/tags/nfc/04a22b1c5d6e80', 'tag-resolution')).body;
    assert.equal(r1.origin, 'local');
    assert.equal(r1.record, `${instance.url}/wow/view/${view.viewId}`);
    assert.equal(r1.target.worldId, world.worldId);
    const r2 = (await get(`/api/spatial-web/tags/url/${encodeURIComponent(tagUrl)}`, 'tag-resolution')).body;
    assert.equal(r2.record, `${instance.url}/wow/spatial/${world.spatialId}/node/n3`);
    assert.equal(r2.manifest, `${instance.url}/api/universal-manifest/world/${world.worldId}`);

    const f = await footprint();
    assert.deepEqual(
      await refusedOp(bob, 'svc.spatial.register_tag', {
        scheme: 'nfc',
        id: '04a22b1c5d6e80',
        target: { kind: 'agent', id: bob.agentId },
      }),
      { status: 409, code: 'spatial.tag_taken' },
    );
    assert.deepEqual(
      await refusedOp(bob, 'svc.spatial.register_tag', {
        scheme: 'nfc',
        id: 'deadbeef',
        target: { kind: 'world', id: world.worldId },
      }),
      { status: 400, code: 'spatial.tag_target_not_found' },
    );
    assert.deepEqual(
      await refusedOp(bob, 'svc.spatial.register_tag', {
        scheme: 'barcode',
        id: 'deadbeef',
        target: { kind: 'agent', id: bob.agentId },
      }),
      { status: 400, code: 'spatial.tag_scheme_unknown' },
    );
    assert.deepEqual(await footprint(), f);
    await op(bob, 'svc.spatial.register_tag', {
      scheme: 'nfc',
      id: 'cafebabe',
      target: { kind: 'agent', id: bob.agentId },
    });
    const r3 = (await get('/api/spatial-web/tags/nfc/cafebabe', 'tag-resolution')).body;
    assert.equal(r3.record, `${instance.url}/api/federation/registry/${bob.agentId}`);
    assert.equal(r3.manifest, `${instance.url}/api/universal-manifest/person/${bob.agentId}`);
    await op(ada, 'svc.spatial.remove_tag', { scheme: 'nfc', id: '04a22b1c5d6e80' });
    await get('/api/spatial-web/tags/nfc/04a22b1c5d6e80', 'problem', 404);
  });

  test('given a world made private, then it is no longer served; made public again, it is', async () => {
    await op(ada, 'svc.spatial.update_world', { worldId: second.worldId, visibility: 'private' });
    await get(`/wow/world/${second.worldId}`, 'problem', 404);
    const p = (await get(`/wow/portal/${portal.portalId}`, 'portal')).body;
    assert.equal(p.tributary.destination.resolvedFrom, 'unresolved');
    assert.equal(p.tributary.destination.world, null);
    const privateFabric = (await get('/.well-known/spatial-fabric', 'spatial-fabric')).body;
    assert.deepEqual(
      privateFabric.worlds.map((w: Loose) => w.id),
      [world.worldId],
    );
    await op(ada, 'svc.spatial.update_world', { worldId: second.worldId, visibility: 'public' });
    assert.equal((await get(`/wow/world/${second.worldId}`, 'world')).body.views.view_count, 1);
  });

  test('given the operator chooses the primary world, then /wow/world serves it; a private world cannot be it', async () => {
    await op(ada, 'svc.spatial.set_primary_world', { worldId: second.worldId });
    assert.equal((await get('/wow/world', 'world')).body.tributary.id, second.worldId);
    const priv = await op(ada, 'svc.spatial.create_world', {
      visibility: 'private',
      content: content('Vault'),
    });
    assert.deepEqual(await refusedOp(ada, 'svc.spatial.set_primary_world', { worldId: priv.worldId }), {
      status: 400,
      code: 'spatial.world_not_public',
    });
    assert.equal(
      (await refusedOp(bob, 'svc.spatial.set_primary_world', { worldId: world.worldId })).status,
      403,
    );
    await op(ada, 'svc.spatial.set_primary_world', { worldId: null });
    assert.equal((await get('/wow/world', 'world')).body.tributary.id, world.worldId);
  });

  test('given MCP tokens, then the spatial tools need svc.spatial.read to read and svc.spatial.write to edit', async () => {
    const reader = await issueToken(ada, { scopes: ['svc.spatial.read'] });
    const client = await mcpClient(instance.url, { bearer: reader.token });
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('svc.spatial.list_worlds'));
      assert.ok(!tools.includes('svc.spatial.create_world'));
      const listed = structured<{ worlds: Loose[] }>(
        await client.callTool({ name: 'svc.spatial.list_worlds', arguments: {} }),
      );
      assert.ok(listed.worlds.some((w) => w.worldId === world.worldId));
      const refused = await client.callTool({
        name: 'svc.spatial.create_world',
        arguments: { content: content('X') },
      });
      assert.equal(errorCodeOf(refused), 'auth.insufficient_scope');
    } finally {
      await client.close();
    }
    const writer = await issueToken(ada, { scopes: ['svc.spatial.write', 'svc.spatial.read'] });
    const w = await mcpClient(instance.url, { bearer: writer.token });
    try {
      const made = structured<Loose>(
        await w.callTool({
          name: 'svc.spatial.create_world',
          arguments: { content: content('From a tool') },
        }),
      );
      assert.equal(made.content.label, 'From a tool');
      const bad = await w.callTool({
        name: 'svc.spatial.save_graph',
        arguments: {
          worldId: made.worldId,
          baseRevision: 0,
          nodes: [
            {
              id: 'a',
              parent: 'a',
              children: ['a'],
              localTransform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
            },
          ],
        },
      });
      assert.equal(errorCodeOf(bad), 'spatial.graph_cycle');
    } finally {
      await w.close();
    }
  });

  test('given the spatial read models rebuilt from the log, then they equal the incremental ones', async () => {
    const before = (await footprint()).tables;
    await rebuildProjections(instance.instance.pool, [...spatialProjections]);
    const after = (await footprint()).tables;
    // Timestamps come from the events, so a rebuild reproduces them.
    assert.deepEqual(after, before);
  });
});
