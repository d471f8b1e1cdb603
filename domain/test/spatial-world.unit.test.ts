// The world and tag aggregates and the spatial deciders, given/when/then.
import {
  decideAddPortal,
  decideAddView,
  decideCreateWorld,
  decideRegisterTag,
  decideRemoveTag,
  decideRemoveView,
  decideSaveGraph,
  decideSetNodeState,
  decideSetPrimaryWorld,
  decideUpdateWorld,
  fold,
  initialPrimaryWorldState,
  initialTagState,
  initialWorldState,
  normalizeTagId,
  ORIGIN_GEOPOSE,
  requireValidGraph,
  SPATIAL_LIMITS,
  spatialTagStream,
  worldStream,
  type NewEvent,
  type SpatialNode,
  type TagState,
  type WorldState,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { codeOf } from './support.js';

const WORLD = '0f8fad5b-d9cb-469f-a165-70867728950e';
const SPATIAL = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const OWNER = 'owner-1';
const content = {
  label: 'Harbour',
  age_restriction: 0,
  license: 'CC-BY-4.0',
  cost: 'free',
  version: 1,
  duration: 0,
};

const stored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const created = (visibility: 'public' | 'private' = 'public') =>
  decideCreateWorld(
    { worldId: WORLD, spatialId: SPATIAL, ownerAgentId: OWNER, visibility, content },
    initialWorldState(),
  );
const world = (events: NewEvent[]): WorldState => fold(worldStream(WORLD), stored(events));
const node = (id: string, parent: string | null, children: string[] = []): SpatialNode => ({
  id,
  parent,
  children,
  localTransform: { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
});
const tree = [node('root', null, ['a', 'b']), node('a', 'root'), node('b', 'root')];

describe('a world', () => {
  test('given a public world is created, then it is recorded as a public event with the defaults', () => {
    const events = created();
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'world.created');
    assert.equal(events[0]!.stream, `world-${WORLD}`);
    const w = world(events);
    assert.equal(w.visibility, 'public');
    assert.deepEqual(w.geoPose, ORIGIN_GEOPOSE);
    assert.equal(w.graphRevision, 0);
  });

  test('given a private world, then its changes are private events', () => {
    const events = created('private');
    assert.equal(events[0]!.type, 'world.private.created');
    const saved = decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 0, nodes: tree }, world(events));
    assert.equal(saved[0]!.type, 'world.private.graph_saved');
  });

  test('given someone else edits it, then it is not found and nothing is decided', () => {
    const w = world(created());
    assert.equal(
      codeOf(() => decideUpdateWorld({ ownerAgentId: 'other', content }, w)),
      'spatial.world_not_found',
    );
    assert.equal(
      codeOf(() => decideSaveGraph({ ownerAgentId: 'other', baseRevision: 0, nodes: tree }, w)),
      'spatial.world_not_found',
    );
  });

  test('given an update that changes nothing, then no event; a changed section is recorded alone', () => {
    const w = world(created());
    assert.deepEqual(decideUpdateWorld({ ownerAgentId: OWNER, content }, w), []);
    const e = decideUpdateWorld({ ownerAgentId: OWNER, content: { ...content, label: 'Quay' } }, w);
    assert.deepEqual(e[0]!.data, { worldId: WORLD, content: { ...content, label: 'Quay' } });
  });

  test('given a private world made public, then world.published carries the whole state after the change', () => {
    const before = [...created('private')];
    before.push(...decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 0, nodes: tree }, world(before)));
    const e = decideUpdateWorld(
      { ownerAgentId: OWNER, visibility: 'public', content: { ...content, label: 'Open' } },
      world(before),
    );
    assert.deepEqual(
      e.map((x) => x.type),
      ['world.private.updated', 'world.published'],
    );
    const snap = e[1]!.data as { content: { label: string }; graphRevision: number; nodes: unknown[] };
    assert.equal(snap.content.label, 'Open');
    assert.equal(snap.graphRevision, 1);
    assert.equal(snap.nodes.length, 3);
    const after = world([...before, ...e]);
    assert.equal(after.visibility, 'public');
    // Made private again: unpublished first, then the changes are private.
    const back = decideUpdateWorld({ ownerAgentId: OWNER, visibility: 'private', content }, after);
    assert.deepEqual(
      back.map((x) => x.type),
      ['world.unpublished', 'world.private.updated'],
    );
  });

  test('given graph revisions, then each save is the next revision and a stale base is refused', () => {
    const events = created();
    events.push(...decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 0, nodes: tree }, world(events)));
    events.push(
      ...decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 1, nodes: [node('x', null)] }, world(events)),
    );
    const w = world(events);
    assert.equal(w.graphRevision, 2);
    assert.deepEqual(
      w.nodes.map((n) => n.id),
      ['x'],
    );
    assert.equal(
      codeOf(() => decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 1, nodes: tree }, w)),
      'spatial.graph_stale',
    );
  });

  test('given malformed graphs, then each is refused with its code', () => {
    assert.equal(
      codeOf(() => requireValidGraph(tree)),
      'no error',
    );
    assert.equal(
      codeOf(() => requireValidGraph([node('a', null), node('a', null)])),
      'spatial.graph_invalid',
    );
    assert.equal(
      codeOf(() => requireValidGraph([node('a', 'zz')])),
      'spatial.graph_invalid',
    );
    assert.equal(
      codeOf(() => requireValidGraph([node('a', null, ['b']), node('b', null)])),
      'spatial.graph_invalid',
    );
    assert.equal(
      codeOf(() => requireValidGraph([node('r', null), node('a', 'r')])),
      'spatial.graph_invalid',
    );
    // A two-node cycle is consistent parent/children-wise, and still refused.
    assert.equal(
      codeOf(() => requireValidGraph([node('a', 'b', ['b']), node('b', 'a', ['a'])])),
      'spatial.graph_cycle',
    );
    assert.equal(
      codeOf(() => requireValidGraph([node('a', 'a', ['a'])])),
      'spatial.graph_cycle',
    );
    const many = Array.from({ length: SPATIAL_LIMITS.nodes + 1 }, (_, i) => node(`n${i}`, null));
    assert.equal(
      codeOf(() => requireValidGraph(many)),
      'spatial.graph_too_large',
    );
    const chain = Array.from({ length: SPATIAL_LIMITS.depth + 1 }, (_, i) =>
      node(`c${i}`, i === 0 ? null : `c${i - 1}`, i === SPATIAL_LIMITS.depth ? [] : [`c${i + 1}`]),
    );
    assert.equal(
      codeOf(() => requireValidGraph(chain)),
      'spatial.graph_too_large',
    );
    assert.equal(
      codeOf(() =>
        requireValidGraph(
          chain
            .slice(0, SPATIAL_LIMITS.depth)
            .map((n, i) => (i === SPATIAL_LIMITS.depth - 1 ? { ...n, children: [] } : n)),
        ),
      ),
      'no error',
    );
  });

  test('given views and portals, then names are unique, removals need the id, and limits hold', () => {
    let events = created();
    const add = (name: string, id: string) =>
      decideAddView({ ownerAgentId: OWNER, viewId: id, name, geoPose: ORIGIN_GEOPOSE }, world(events));
    events = [...events, ...add('entrance', 'v1')];
    assert.equal(
      codeOf(() => add('entrance', 'v2')),
      'spatial.view_name_taken',
    );
    assert.equal(
      codeOf(() => decideRemoveView({ ownerAgentId: OWNER, viewId: 'nope' }, world(events))),
      'spatial.view_not_found',
    );
    events = [...events, ...decideRemoveView({ ownerAgentId: OWNER, viewId: 'v1' }, world(events))];
    assert.equal(world(events).views.length, 0);
    const portal = (i: number) =>
      decideAddPortal(
        {
          ownerAgentId: OWNER,
          portalId: `p${i}`,
          destination: { kind: 'peer', instance: 'https://b.example', worldId: WORLD },
          geoPose: ORIGIN_GEOPOSE,
        },
        world(events),
      );
    for (let i = 0; i < SPATIAL_LIMITS.portals; i++) events = [...events, ...portal(i)];
    assert.equal(
      codeOf(() => portal(999)),
      'spatial.too_many',
    );
  });

  test('given a node state, then the node must be in the latest graph and the value within its limit', () => {
    let events = created();
    const set = (nodeId: string, bytes = 10) =>
      decideSetNodeState(
        {
          ownerAgentId: OWNER,
          nodeId,
          value: { on: true },
          valueBytes: bytes,
          updatedAt: '2026-01-01T00:00:00Z',
        },
        world(events),
      );
    assert.equal(
      codeOf(() => set('a')),
      'spatial.node_not_found',
    );
    events = [
      ...events,
      ...decideSaveGraph({ ownerAgentId: OWNER, baseRevision: 0, nodes: tree }, world(events)),
    ];
    assert.equal(
      codeOf(() => set('a', SPATIAL_LIMITS.stateBytes + 1)),
      'spatial.state_too_large',
    );
    events = [...events, ...set('a')];
    assert.deepEqual(world(events).nodeStates.a, { value: { on: true }, updatedAt: '2026-01-01T00:00:00Z' });
  });

  test('given the primary world, then only a public world can be it', () => {
    const priv = world(created('private'));
    assert.equal(
      codeOf(() =>
        decideSetPrimaryWorld({ worldId: WORLD }, { primary: initialPrimaryWorldState(), world: priv }),
      ),
      'spatial.world_not_public',
    );
    const e = decideSetPrimaryWorld(
      { worldId: WORLD },
      { primary: initialPrimaryWorldState(), world: world(created()) },
    );
    assert.equal(e[0]!.type, 'spatial.primary_world_set');
    assert.deepEqual(
      decideSetPrimaryWorld({ worldId: WORLD }, { primary: { worldId: WORLD }, world: world(created()) }),
      [],
    );
  });
});

describe('a tag', () => {
  test('given each scheme, then ids are validated and normalized', () => {
    assert.deepEqual(normalizeTagId('nfc', '04:A2:2B:1C:5D:6E:80'), {
      scheme: 'nfc',
      tagId: '04a22b1c5d6e80',
    });
    assert.deepEqual(normalizeTagId('nfc', 'deadbeef'), { scheme: 'nfc', tagId: 'deadbeef' });
    assert.equal(
      codeOf(() => normalizeTagId('nfc', 'deadbee')),
      'spatial.tag_invalid',
    );
    assert.equal(
      codeOf(() => normalizeTagId('nfc', '0011223344')),
      'spatial.tag_invalid',
    );
    assert.equal(
      codeOf(() => normalizeTagId('url', 'https://a.example/t/1')),
      'no error',
    );
    assert.equal(
      codeOf(() => normalizeTagId('url', 'http://a.example/t/1')),
      'spatial.tag_invalid',
    );
    assert.equal(
      codeOf(() => normalizeTagId('url', 'javascript:alert(1)')),
      'spatial.tag_invalid',
    );
    assert.equal(
      codeOf(() => normalizeTagId('qr', 'x')),
      'spatial.tag_scheme_unknown',
    );
  });

  test('given a registered tag, then another owner is refused, the same registration is no event, removal is the owner’s', () => {
    const cmd = {
      scheme: 'nfc' as const,
      tagId: 'deadbeef',
      key: 'deadbeef',
      ownerAgentId: OWNER,
      target: { kind: 'world' as const, id: WORLD, worldId: WORLD },
    };
    const events = decideRegisterTag(cmd, initialTagState());
    assert.equal(events[0]!.stream, spatialTagStream('nfc', 'deadbeef'));
    const tag: TagState = fold(spatialTagStream('nfc', 'deadbeef'), stored(events));
    assert.equal(tag.exists, true);
    assert.deepEqual(decideRegisterTag(cmd, tag), []);
    assert.equal(
      codeOf(() => decideRegisterTag({ ...cmd, ownerAgentId: 'other' }, tag)),
      'spatial.tag_taken',
    );
    assert.equal(
      codeOf(() => decideRemoveTag({ ...cmd, ownerAgentId: 'other' }, tag)),
      'spatial.tag_not_found',
    );
    const removed = fold<TagState>(
      spatialTagStream('nfc', 'deadbeef'),
      stored([...events, ...decideRemoveTag(cmd, tag)]),
    );
    assert.equal(removed.exists, false);
  });
});
