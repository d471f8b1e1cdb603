// Projections opt in to peers' (imported) events with `foldsImported`; the runners hand the others only
// this instance's own events. Which projections take peers' events is a decision, so it is listed here.
import { allEventDefinitions } from '@tributary/domain';
import { allProjections, foldsEvent, type ProjectedEvent, type Projection } from '@tributary/projections';
import { describe, expect, test } from 'vitest';

const event = (type: string, imported?: true): ProjectedEvent => ({
  id: 'e1',
  type,
  origin: 'peer.example',
  stream: 'world-1',
  streamVersion: 1,
  actorId: 'agent-1',
  occurredAt: '2026-01-01T00:00:00.000Z',
  data: {},
  ...(imported && { imported }),
});

const projection = (handles: string[], foldsImported?: true): Projection => ({
  name: 'p',
  mode: 'inline',
  tables: [],
  handles,
  ...(foldsImported && { foldsImported }),
  apply: async () => undefined,
});

describe('foldsImported', () => {
  test('a projection is handed its own types, and a peer’s event only when it opts in', () => {
    expect(foldsEvent(projection(['world.created']), event('world.created'))).toBe(true);
    expect(foldsEvent(projection(['world.created']), event('world.updated'))).toBe(false);
    expect(foldsEvent(projection(['world.created']), event('world.created', true))).toBe(false);
    expect(foldsEvent(projection(['world.created'], true), event('world.created', true))).toBe(true);
    expect(foldsEvent(projection(['*']), event('world.created'))).toBe(true);
    expect(foldsEvent(projection(['*']), event('world.created', true))).toBe(false);
    expect(foldsEvent(projection(['*'], true), event('world.created', true))).toBe(true);
  });

  test('the projections that fold peers’ events are these, and the others of a federated type are about us', () => {
    const federable = new Set(
      allEventDefinitions()
        .filter((d) => d.federable)
        .map((d) => d.type),
    );
    const takesFederated = (p: Projection) => p.handles.some((t) => t === '*' || federable.has(t));
    const optedIn = allProjections.filter((p) => p.foldsImported).map((p) => p.name);
    expect(optedIn.sort()).toEqual(['agents', 'event-counts', 'peers', 'relay', 'spatial-worlds', 'sso']);
    const ownOnly = allProjections.filter((p) => takesFederated(p) && !p.foldsImported).map((p) => p.name);
    expect(ownOnly.sort()).toEqual([
      'builder-addresses',
      'builder-history',
      'builder-site-serving',
      'builder-sites',
      'instance',
    ]);
  });
});
