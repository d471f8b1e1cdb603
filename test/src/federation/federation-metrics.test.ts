// The federation cursors as /metrics shows them (docs/operations.md#metrics), between two real
// instances on loopback with background sync: caught up, then a peer gone while events wait for it.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { register, startNode, type Node } from './federation-helpers.js';

const SYNC_ENV = {
  FEDERATION_SYNC: 'on',
  FEDERATION_QUEUE: 'in-process',
  FEDERATION_SWEEP_MS: '50',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
};

/** `name{labels} value` samples of a scrape, as a lookup by name and labels (the format itself is tested in e2e/metrics.test.ts). */
async function gauges(node: Node) {
  const r = await fetch(`${node.url}/metrics`);
  assert.equal(r.status, 200);
  const text = await r.text();
  return (name: string, labels: Record<string, string>): number | undefined => {
    for (const line of text.split('\n')) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m || m[1] !== name) continue;
      const have = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]),
      );
      if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
    }
    return undefined;
  };
}

describe('federation metrics between two instances', () => {
  let a: Node;
  let b: Node;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startNode('group', 'Riverside', SYNC_ENV),
      startNode('person', 'Ada', SYNC_ENV),
    ]);
    await register(a, b);
    await register(b, a);
  });
  afterAll(async () => {
    await Promise.all([a?.instance.destroy(), b?.instance.destroy()]);
  });

  test('given a peer that took our events, then push backlog and lag are 0 and the events are counted once crossed (by A’s push, or by B’s pull when it came first); the other side shows its pull lag', async () => {
    const persona = await a.operator.post('/api/ops/svc.agent.create_persona', {
      name: 'Bakers',
      handle: 'bakers',
    });
    assert.equal(persona.status, 201, persona.text);
    const peer = { peer: b.id };
    const m = await eventually('A’s push to B caught up', async () => {
      const g = await gauges(a);
      // B may pull the persona from A's feed before A's push reaches it: the push then starts behind
      // B's cursor and is skipped (resendFrom), or B answers it with duplicates. Either way the events
      // crossed once: counted by A's push cursor (accepted or duplicate) or by B's pull cursor.
      const pushed = (['accepted', 'duplicate'] as const).reduce(
        (n, result) =>
          n + (g('tributary_federation_cursor_events', { ...peer, direction: 'push', result }) ?? 0),
        0,
      );
      const pulled =
        (await gauges(b))('tributary_federation_cursor_events', {
          peer: a.id,
          direction: 'pull',
          result: 'accepted',
        }) ?? 0;
      return g('tributary_federation_push_backlog_events', peer) === 0 && pushed + pulled > 0 && g;
    });
    assert.equal(m('tributary_federation_push_lag_seconds', peer), 0);
    assert.equal(m('tributary_federation_consecutive_failures', { ...peer, direction: 'push' }), 0);
    assert.ok(m('tributary_federation_last_success_age_seconds', { ...peer, direction: 'push' })! >= 0);
    // B pulled from A at least once: its pull lag toward A is known, and small.
    const onB = await eventually('B’s pull lag toward A', async () => {
      const g = await gauges(b);
      return g('tributary_federation_pull_lag_events', { peer: a.id }) !== undefined && g;
    });
    assert.ok(onB('tributary_federation_pull_lag_events', { peer: a.id })! >= 0);
  });

  test('given the peer gone, when we write, then the backlog, its age and the failures grow', async () => {
    await b.instance.stop();
    const persona = await a.operator.post('/api/ops/svc.agent.create_persona', {
      name: 'Millers',
      handle: 'millers',
    });
    assert.equal(persona.status, 201, persona.text);
    const peer = { peer: b.id };
    const m = await eventually('a failing push with a backlog', async () => {
      const g = await gauges(a);
      return (
        (g('tributary_federation_push_backlog_events', peer) ?? 0) >= 1 &&
        (g('tributary_federation_consecutive_failures', { ...peer, direction: 'push' }) ?? 0) >= 1 &&
        (g('tributary_federation_push_lag_seconds', peer) ?? 0) > 0 &&
        g
      );
    });
    assert.ok(m('tributary_federation_push_backlog_events', peer)! >= 1);
  });
});
