// The metrics' own rules (docs/operations.md#metrics), over a pool that cannot reach its database: the
// state gauges are left out rather than 0, and a failure the edge answers as 503 is counted with that code.
import assert from 'node:assert/strict';
import type pg from 'pg';
import { describe, test } from 'vitest';
import { createInstanceMetrics } from '../src/metrics/instance-metrics.js';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const downPool = {
  query: () => Promise.reject(refused()),
  options: { max: 10 },
  totalCount: 0,
  idleCount: 0,
  waitingCount: 0,
} as unknown as pg.Pool;

const lines = (text: string, name: string) =>
  text.split('\n').filter((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));

describe('instance metrics while the database is unreachable', () => {
  test('given the scrape-time queries fail, then the unlabelled state gauges are absent, not 0, and database_up is 0', async () => {
    const metrics = createInstanceMetrics(downPool, ['event_counts']);
    const text = await metrics.render();
    assert.deepEqual(lines(text, 'tributary_metrics_database_up'), ['tributary_metrics_database_up 0']);
    for (const gauge of [
      'tributary_sequencer_head',
      'tributary_sequencer_unsequenced_events',
      'tributary_sequencer_oldest_unsequenced_age_seconds',
      'tributary_projection_lag_events',
    ])
      assert.deepEqual(lines(text, gauge), [], gauge);
  });

  test('given an invocation that failed on an unreachable database, then it is counted as service.unavailable', async () => {
    const metrics = createInstanceMetrics(downPool, []);
    metrics.operations.operation(
      'svc.agent.create_persona',
      'command',
      'mcp',
      'error',
      'server.internal',
      0.01,
      refused(),
    );
    metrics.operations.operation(
      'svc.agent.create_persona',
      'command',
      'mcp',
      'error',
      'server.internal',
      0.01,
      new Error('a bug'),
    );
    const counted = lines(await metrics.render(), 'tributary_operations_total');
    assert.equal(
      counted.filter((l) => l.includes('code="service.unavailable"')).length,
      1,
      counted.join('\n'),
    );
    assert.equal(counted.filter((l) => l.includes('code="server.internal"')).length, 1, counted.join('\n'));
  });
});
