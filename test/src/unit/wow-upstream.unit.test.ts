// The upstream check of the /wow documents (spatial-helpers.ts, assertUpstream) bites: the shapes an
// upstream client could not read are refused by it, the shapes we answer pass.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { assertUpstream } from '../e2e/spatial-helpers.js';

const transform = { position: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

describe("upstream's OpenSpatialWorld schemas", () => {
  test('given a node in our saved shape (object transform, child ids, Uri spellings), then it is refused', () => {
    assert.throws(() =>
      assertUpstream('Node', {
        id: 'n0',
        parent: null,
        children: ['n1'],
        localTransform: transform,
        spatialAssetUri: 'https://a.example/m.glb',
      }),
    );
  });

  test('given a node tree in upstream shape with our transform under tributary, then it passes', () => {
    const leaf = {
      id: 'n1',
      parent: 'n0',
      children: [],
      localTransform: identity,
      tributary: { localTransform: transform },
    };
    assertUpstream('Node', {
      id: 'n0',
      children: [leaf],
      localTransform: identity,
      spatialAssetURI: 'https://a.example/m.glb',
      appearanceURI: 'https://a.example/look.json',
      tributary: { localTransform: transform },
    });
  });

  test('given a member outside upstream’s schema and not under tributary, or a longitude spelled lon, then it is refused', () => {
    const geoPose = { position: { lat: 1, lan: 2, h: 3 }, angles: { yaw: 0, pitch: 0, roll: 0 } };
    assertUpstream('View', { id: 'v', geoPose, tributary: {} });
    assert.throws(() => assertUpstream('View', { id: 'v', geoPose, name: 'entrance', tributary: {} }));
    assert.throws(() =>
      assertUpstream('View', {
        id: 'v',
        geoPose: { ...geoPose, position: { lat: 1, lon: 2, h: 3 } },
        tributary: {},
      }),
    );
    assert.throws(() => assertUpstream('World', {}));
  });

  test('given a presence in its former shape (our members beside id, avatarAssetURI), then it is refused; in upstream’s User shape, it passes', () => {
    const id = '0b6f3c8e-6a53-4b58-9b8e-2f0a3c9d1e4f';
    const ours = {
      subject: `urn:uuid:${id}`,
      worldId: id,
      issuer: { instanceId: id, baseUrl: 'https://a.example' },
      admittedAt: '2026-12-06T09:00:00.000Z',
      renewedAt: '2026-12-06T09:00:00.000Z',
      expiresAt: '2026-12-06T09:15:00.000Z',
      presence: `https://b.example/wow/user/${id}`,
    };
    assert.throws(() =>
      assertUpstream('User', {
        id,
        ...ours,
        content: { name: 'Ada', avatarAssetURI: 'https://a.example/a.glb' },
      }),
    );
    assert.throws(() =>
      assertUpstream('User', { id, avatarURI: 'https://a.example/a.glb', tributary: ours }),
    );
    assertUpstream('User', { id, name: 'Ada', AvatarURI: 'https://a.example/a.glb', tributary: ours });
  });
});
