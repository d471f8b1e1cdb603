// The operator's and auditor's tools over a log written by a real instance.
import { rebuildProjections, runAsyncProjectionBatch, verifyLog } from '@tributary/infra';
import { allProjections, eventCountsProjection } from '@tributary/projections';
import { browser, startTestInstance, type TestInstance, runCli } from '@tributary/test';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

const password = 'correct horse battery staple';

async function snapshot(instance: TestInstance) {
  const out: Record<string, unknown[]> = {};
  for (const p of allProjections)
    for (const table of p.tables)
      out[table] = (await instance.instance.pool.query(`SELECT * FROM ${table} ORDER BY 1`)).rows;
  return out;
}

function cli(instance: TestInstance, ...args: string[]) {
  return runCli(instance, args);
}

describe('log verify and projection rebuild', () => {
  let instance: TestInstance;
  beforeAll(async () => {
    instance = await startTestInstance({ env: { INSTANCE_ROLE: 'locale', INSTANCE_NAME: 'Lyon' } });
    for (const handle of ['ana', 'bob', 'cleo']) {
      const c = browser(instance.url);
      await c.post('/api/auth/signup', { handle, password, email: `${handle}@example.org` });
      const p = await c.post('/api/ops/svc.agent.create_persona', {
        name: `${handle} at work`,
        handle: `${handle}_work`,
      });
      await c.post('/api/ops/svc.profile.update', {
        targetAgentId: p.json.result.agentId,
        bio: `Soups by ${handle}`,
      });
      await c.post('/api/auth/signout');
    }
    await instance.instance.sequencer.drain();
    await instance.instance.asyncProjections.catchUp();
  });
  afterAll(async () => {
    await instance?.destroy();
  });

  test('given an untouched log, when verified, then every signature and chain checks out', async () => {
    const report = await verifyLog(instance.instance.pool);
    assert.equal(report.ok, true, JSON.stringify(report.firstBad));
    const total = Number((await instance.instance.pool.query('SELECT count(*) FROM events')).rows[0].count);
    assert.equal(report.events, total);
    assert.equal(report.origins[instance.instance.instanceId], total);
  });

  test('given the incremental read models, when every projection is rebuilt from zero, then the result is identical', async () => {
    const incremental = await snapshot(instance);
    assert.ok((incremental.rm_agents as unknown[]).length >= 7);
    const counts = await rebuildProjections(instance.instance.pool, allProjections);
    assert.ok(counts.agents! > 0);
    assert.deepEqual(await snapshot(instance), incremental);
  });

  test('given the async event-counts projection, then it agrees with the log behind its checkpoint', async () => {
    const { rows } = await instance.instance.pool.query<{ type: string; n: string }>(
      'SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY type',
    );
    const counts = await instance.instance.pool.query<{ type: string; count: string }>(
      'SELECT type, count FROM rm_event_counts ORDER BY type',
    );
    assert.deepEqual(
      counts.rows.map((r) => [r.type, Number(r.count)]),
      rows.map((r) => [r.type, Number(r.n)]),
    );
  });

  test('given the event counts reset, when two folders fold in SQL batches of 4 at once, then every event is counted exactly once', async () => {
    const pool = instance.instance.pool;
    const logCounts = async () =>
      (
        await pool.query<{ type: string; n: string }>(
          `SELECT e.type, count(*) AS n FROM event_sequence s JOIN events e ON e.position = s.position
           GROUP BY e.type ORDER BY e.type`,
        )
      ).rows.map((r) => [r.type, Number(r.n)]);
    const expected = await logCounts();
    const sequenced = expected.reduce((sum, [, n]) => sum + (n as number), 0);
    assert.ok(sequenced > 8, 'more events than two batches');
    // Reset under the checkpoint's lock, as a folder would take it, so the background runner cannot interleave.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM projection_checkpoints WHERE name = 'event-counts' FOR UPDATE`);
      await client.query('TRUNCATE rm_event_counts');
      await client.query(`UPDATE projection_checkpoints SET seq = 0 WHERE name = 'event-counts'`);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    let passed = 0;
    const folder = async () => {
      for (;;) {
        const n = await runAsyncProjectionBatch(pool, eventCountsProjection, 4);
        assert.ok(n >= 0 && n <= 4);
        passed += n;
        if (n < 4) return;
      }
    };
    await Promise.all([folder(), folder()]);
    const counts = await pool.query<{ type: string; count: string; last_seq: string }>(
      'SELECT type, count, last_seq FROM rm_event_counts ORDER BY type',
    );
    assert.deepEqual(
      counts.rows.map((r) => [r.type, Number(r.count)]),
      expected,
    );
    const head = await pool.query<{ seq: string; last: string }>(
      `SELECT (SELECT seq FROM projection_checkpoints WHERE name = 'event-counts') AS seq,
              (SELECT max(seq) FROM event_sequence) AS last`,
    );
    assert.equal(head.rows[0]!.seq, head.rows[0]!.last);
    // The background runner may have taken some batches; together nothing was passed twice.
    assert.ok(passed <= sequenced);
    // Each type's last_seq is the sequence of its latest event.
    const lastSeqs = await pool.query<{ type: string; last: string }>(
      `SELECT e.type, max(s.seq) AS last FROM event_sequence s JOIN events e ON e.position = s.position
       GROUP BY e.type ORDER BY e.type`,
    );
    assert.deepEqual(
      counts.rows.map((r) => [r.type, r.last_seq]),
      lastSeqs.rows.map((r) => [r.type, r.last]),
    );
  });

  test('given the CLI, then --help lists the commands and `log verify` and `projections rebuild` succeed', async () => {
    const help = await cli(instance, '--help');
    for (const c of ['start', 'migrate', 'log', 'projections', 'admin'])
      assert.match(help.stdout, new RegExp(`\\b${c}\\b`));
    const verified = await cli(instance, 'log', 'verify');
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /log verify: OK/);
    const rebuilt = await cli(instance, 'projections', 'rebuild', 'agents');
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /agents: rebuilt from \d+ events/);
    const unknown = await cli(instance, 'projections', 'rebuild', 'nope');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^tributary: unknown projection nope/);
  });

  test('given the operator CLI, when granting and moving the operator role, then `admin list` follows', async () => {
    const names = async () =>
      (JSON.parse((await cli(instance, 'admin', 'list', '--json')).stdout) as { handle: string }[]).map(
        (a) => a.handle,
      );
    assert.deepEqual(await names(), ['ana']);
    assert.equal((await cli(instance, 'admin', 'grant', 'bob')).code, 0);
    assert.deepEqual((await names()).sort(), ['ana', 'bob']);
    assert.equal((await cli(instance, 'admin', 'move', 'bob', 'cleo@example.org')).code, 0);
    assert.deepEqual((await names()).sort(), ['ana', 'cleo']);
    const unknown = await cli(instance, 'admin', 'grant', 'nobody');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^tributary: .+ \(account\.not_found\)$/m);
    const twice = await cli(instance, 'admin', 'grant', 'ana');
    assert.match(twice.stderr, /instance\.already_controller/);
  });

  test('given an attacker who disables the guard and alters one row, when verified, then it fails naming that event', async () => {
    const pool = instance.instance.pool;
    const { rows } = await pool.query<{ id: string; envelope: string }>(
      `SELECT id, envelope FROM events WHERE type = 'agent.profile_updated' ORDER BY position LIMIT 1`,
    );
    const target = rows[0]!;
    await pool.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    await pool.query('UPDATE events SET envelope = $2 WHERE id = $1', [
      target.id,
      target.envelope.replace('Soups by', 'Soaps by'),
    ]);
    await pool.query('ALTER TABLE events ENABLE TRIGGER events_append_only');

    const report = await verifyLog(pool);
    assert.equal(report.ok, false);
    assert.equal(report.firstBad?.id, target.id);
    assert.equal(report.firstBad?.code, 'envelope.bad_signature');
    const viaCli = await cli(instance, 'log', 'verify');
    assert.equal(viaCli.code, 1);
    assert.match(viaCli.stderr, /^tributary: log verify FAILED/m);
    assert.match(viaCli.stderr, new RegExp(target.id));
    assert.match(viaCli.stderr, /envelope\.bad_signature/);
  });
});
