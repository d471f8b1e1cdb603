// The universal-manifest publication flag, given/when/then: off until chosen, the last choice wins, and
// the same choice again decides nothing.
import {
  decideSetManifestPublication,
  fold,
  manifestPublicationStream,
  type ManifestPublicationState,
  type NewEvent,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const AGENT = '0f8fad5b-d9cb-469f-a165-70867728950e';
const stream = manifestPublicationStream(AGENT);
const stored = (events: NewEvent[]) => events.map((e, i) => ({ ...e, streamVersion: i + 1 }));
const state = (events: NewEvent[] = []) => fold<ManifestPublicationState>(stream, stored(events));

describe('manifest publication', () => {
  test('given no choice, when folded, then not published', () => {
    assert.deepEqual(state(), { published: false, changes: 0 });
  });

  test('given no choice, when the owner publishes, then one event and the stream reads published', () => {
    const events = decideSetManifestPublication({ agentId: AGENT, published: true }, state());
    assert.deepEqual(events, [
      { stream, type: 'manifest.publication_set', data: { agentId: AGENT, published: true } },
    ]);
    assert.deepEqual(state(events), { published: true, changes: 1 });
  });

  test('given published, when published again, then nothing; when withdrawn, then unpublished', () => {
    const on = decideSetManifestPublication({ agentId: AGENT, published: true }, state());
    assert.deepEqual(decideSetManifestPublication({ agentId: AGENT, published: true }, state(on)), []);
    const off = decideSetManifestPublication({ agentId: AGENT, published: false }, state(on));
    assert.equal(off.length, 1);
    assert.deepEqual(state([...on, ...off]), { published: false, changes: 2 });
  });

  test('given never published, when withdrawn, then nothing (off is the default)', () => {
    assert.deepEqual(decideSetManifestPublication({ agentId: AGENT, published: false }, state()), []);
  });
});
