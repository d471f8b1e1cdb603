import { openTestLog } from '@tributary/test';
import { isDomainError } from '@tributary/domain';
import { rebuildProjection } from '@tributary/infra';
import { agentsProjection } from '@tributary/projections';
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';

describe('PgEventStore', () => {
  let log: Awaited<ReturnType<typeof openTestLog>>;
  beforeAll(async () => {
    log = await openTestLog();
  });
  afterAll(async () => {
    await log?.close();
  });

  test('given an empty stream, when events are appended, then readStream returns them in version order', async () => {
    const result = await log.store.append([log.envelopes('s-read', 0, 3)]);
    assert.equal(result.events.length, 3);
    const events = await log.store.readStream('s-read');
    assert.deepEqual(
      events.map((e) => e.streamVersion),
      [1, 2, 3],
    );
    assert.equal(events[0]!.envelope.id, result.events[0]!.id);
  });

  test('given a stream at version 2, when a writer appends expecting version 1, then it gets log.stream_conflict and nothing is written', async () => {
    await log.store.append([log.envelopes('s-conflict', 0, 2)]);
    await assert.rejects(
      log.store.append([log.envelopes('s-conflict', 1, 1), log.envelopes('s-conflict-other', 0, 1)]),
      (e) => {
        assert.ok(isDomainError(e));
        assert.equal(e.code, 'log.stream_conflict');
        assert.equal(e.details?.stream, 's-conflict');
        return true;
      },
    );
    assert.equal((await log.store.readStream('s-conflict')).length, 2);
    // The other stream of the same append was rolled back with it: all-or-nothing.
    assert.equal((await log.store.readStream('s-conflict-other')).length, 0);
  });

  test('given a stream at version 1, when an append claims expected version 5, then the version chain refuses it', async () => {
    await log.store.append([log.envelopes('s-chain', 0, 1)]);
    await assert.rejects(
      log.store.append([log.envelopes('s-chain', 5, 1)]),
      (e) => isDomainError(e) && e.code === 'log.stream_conflict',
    );
    assert.equal((await log.store.readStream('s-chain')).length, 1);
  });

  test('given the same event id twice, when appended, then log.duplicate_event', async () => {
    const batch = log.envelopes('s-dup', 0, 1);
    await log.store.append([batch]);
    const again = { ...batch, stream: 's-dup-2', envelopes: batch.envelopes };
    await assert.rejects(
      log.store.append([
        {
          ...again,
          envelopes: again.envelopes.map((e) => ({ ...e, envelope: { ...e.envelope, stream: 's-dup-2' } })),
        },
      ]),
      (e) => isDomainError(e) && e.code === 'log.duplicate_event',
    );
  });

  test('given a large append (bulk path) creating an agent and updating it many times, then its read model equals folding one by one', async () => {
    const agentId = randomUUID();
    const stream = `agent-${agentId}`;
    const seal = (v: number, type: string, data: Record<string, unknown>) =>
      log.agentEvent(agentId, v, type, data, new Date(Date.UTC(2026, 0, 1, 0, 0, v)).toISOString());
    const envelopes = [seal(1, 'agent.created', { agentId, kind: 'person', name: 'First' })];
    for (let v = 2; v <= 24; v++)
      envelopes.push(
        seal(v, 'agent.profile_updated', v % 3 === 0 ? { name: `Name ${v}` } : { bio: `Bio ${v}` }),
      );
    await log.store.append([{ stream, expectedVersion: 0, envelopes }]);
    const row = async () =>
      (await log.pool.query('SELECT name, bio, updated_at FROM rm_agents WHERE agent_id = $1', [agentId]))
        .rows[0];
    const bulk = await row();
    assert.equal(bulk.name, 'Name 24');
    assert.equal(bulk.bio, 'Bio 23');
    assert.equal(bulk.updated_at.toISOString(), '2026-01-01T00:00:24.000Z');
    await rebuildProjection(log.pool, agentsProjection);
    assert.deepEqual(await row(), bulk);
  });

  test('given a bulk append of several agents with awkward text, then the read model equals folding one by one', async () => {
    const agents = Array.from({ length: 3 }, () => randomUUID());
    const awkward = [`Quote " and back\\slash \\"`, `'apos' {brace,comma} NULL`, 'ünï ✓ 😀 \u2028', ''];
    const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString();
    const seal = (agentId: string, v: number, type: string, data: Record<string, unknown>, i: number) =>
      log.agentEvent(agentId, v, type, data, at(i));
    // Creations first (one run), then updates of all three interleaved (one run), 30 events in all.
    const streams = agents.map((agentId, a) => ({
      stream: `agent-${agentId}`,
      expectedVersion: 0,
      envelopes: [seal(agentId, 1, 'agent.created', { agentId, kind: 'person', name: awkward[a]! }, a)],
    }));
    for (let v = 2; v <= 10; v++)
      agents.forEach((agentId, a) =>
        streams[a]!.envelopes.push(
          seal(agentId, v, 'agent.profile_updated', { bio: `${awkward[(v + a) % 4]} ${v}` }, v * 3 + a),
        ),
      );
    const ordered = agents.map((_, a) => streams[a]!);
    await log.store.append(ordered);
    const rows = async () =>
      (
        await log.pool.query(
          'SELECT agent_id, name, bio, created_at, updated_at FROM rm_agents WHERE agent_id = ANY($1) ORDER BY agent_id',
          [agents],
        )
      ).rows;
    const bulk = await rows();
    assert.equal(bulk.length, 3);
    for (const r of bulk) {
      const a = agents.findIndex((id) => id === r.agent_id);
      assert.equal(r.name, awkward[a]);
      assert.equal(r.bio, `${awkward[(10 + a) % 4]} 10`);
    }
    await rebuildProjection(log.pool, agentsProjection);
    assert.deepEqual(await rows(), bulk);
  });

  test('given many appends at once, when the slots are busy, then waiting ones commit together (group commit), each with its own positions', async () => {
    const appends = Array.from({ length: 30 }, (_, i) => log.envelopes(`s-group-${i}`, 0, 1 + (i % 3)));
    const results = await Promise.all(appends.map((a) => log.store.append([a])));
    results.forEach((r, i) => {
      assert.deepEqual(
        r.events.map((e) => e.id),
        appends[i]!.envelopes.map((e) => e.envelope.id),
      );
    });
    const positions = results.flatMap((r) => r.events.map((e) => e.position));
    assert.equal(new Set(positions).size, positions.length);
    const { rows } = await log.pool.query<{ stream: string; position: string; tx: string }>(
      `SELECT stream, position, tx_id::text AS tx FROM events WHERE stream LIKE 's-group-%'`,
    );
    assert.equal(rows.length, positions.length);
    // Each position answered is the row's own.
    const byId = new Map(
      results.flatMap((r) => r.events.map((e) => [`${e.stream}/${e.streamVersion}`, e.position])),
    );
    const stored = await log.pool.query<{ key: string; position: string }>(
      `SELECT stream || '/' || stream_version AS key, position FROM events WHERE stream LIKE 's-group-%'`,
    );
    for (const r of stored.rows) assert.equal(Number(r.position), byId.get(r.key));
    // Fewer transactions than appends: the ones that waited went together.
    assert.ok(new Set(rows.map((r) => r.tx)).size < appends.length);
  });

  test('given a group with one conflicting append, when it commits, then only that append fails (log.stream_conflict) and the others are written whole', async () => {
    await log.store.append([log.envelopes('s-group-clash', 0, 1)]);
    const good = Array.from({ length: 12 }, (_, i) => [
      log.envelopes(`s-group-good-${i}`, 0, 2),
      log.envelopes(`s-group-good-${i}-b`, 0, 1),
    ]);
    // A stale writer (expects version 0 of a stream at 1) and one that would leave a hole, among them.
    const stale = [log.envelopes('s-group-clash', 0, 1)];
    const ahead = [log.envelopes('s-group-hole', 3, 1)];
    const all = [...good.slice(0, 6), stale, ...good.slice(6, 9), ahead, ...good.slice(9)];
    const outcomes = await Promise.all(
      all.map((a) =>
        log.store.append(a).then(
          () => null,
          (e: unknown) => e,
        ),
      ),
    );
    for (const [i, outcome] of outcomes.entries()) {
      if (all[i] === stale || all[i] === ahead) {
        assert.ok(isDomainError(outcome), `append ${i} should have failed`);
        assert.equal(outcome.code, 'log.stream_conflict');
      } else assert.equal(outcome, null, `append ${i}: ${String(outcome)}`);
    }
    assert.equal((await log.store.readStream('s-group-clash')).length, 1);
    assert.equal((await log.store.readStream('s-group-hole')).length, 0);
    for (const [a, b] of good) {
      assert.equal((await log.store.readStream(a!.stream)).length, 2);
      assert.equal((await log.store.readStream(b!.stream)).length, 1);
    }
  });

  test('given the log, when anyone tries UPDATE, DELETE or TRUNCATE, then the database refuses', async () => {
    await log.store.append([log.envelopes('s-immutable', 0, 1)]);
    for (const sql of [
      `UPDATE events SET type = 'x' WHERE stream = 's-immutable'`,
      `DELETE FROM events WHERE stream = 's-immutable'`,
      `TRUNCATE events CASCADE`,
      `DELETE FROM event_sequence`,
    ]) {
      await assert.rejects(log.pool.query(sql), /append-only/, sql);
    }
    assert.equal((await log.store.readStream('s-immutable')).length, 1);
  });

  test('given 8 concurrent writers and a tailing reader, then the reader sees every committed event exactly once, in an order a re-read from 0 repeats', async () => {
    // Earlier tests' events must all be sequenced before `before` is taken: the horizon is cluster-wide,
    // so another database's open transaction can leave one behind, to be sequenced (and seen) mid-test.
    for (let until = Date.now() + 15_000; Date.now() < until;) {
      await log.sequence();
      const left = await log.pool.query(
        'SELECT 1 FROM events e WHERE NOT EXISTS (SELECT 1 FROM event_sequence s WHERE s.position = e.position) LIMIT 1',
      );
      if (left.rowCount === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const before = (await log.store.readAll({ since: 0, limit: 100000 })).head;
    const WRITERS = 8;
    const PER_WRITER = 60;
    const committed = new Set<string>();
    let writing = true;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < PER_WRITER; i++) {
        // Mix single-event and multi-stream appends so transactions differ in size and duration.
        const streams =
          i % 5 === 0
            ? [log.envelopes(`w${w}-multi-${i}-a`, 0, 2), log.envelopes(`w${w}-multi-${i}-b`, 0, 1)]
            : [log.envelopes(`w${w}-${i}`, 0, 1)];
        const r = await log.store.append(streams);
        for (const e of r.events) committed.add(e.id);
      }
    });
    const seen: { id: string; sequence: number }[] = [];
    const reader = (async () => {
      let since = before;
      for (;;) {
        const done = !writing;
        const page = await log.store.readAll({ since, limit: 50 });
        for (const e of page.events) seen.push({ id: e.envelope.id, sequence: e.sequence });
        if (page.events.length > 0) since = page.events[page.events.length - 1]!.sequence;
        else if (done) {
          // Writers are finished, but the horizon is cluster-wide: transactions of other databases can
          // hold it back for a moment. Keep sequencing and reading until every commit is visible.
          const until = Date.now() + 15_000;
          while (seen.length < committed.size && Date.now() < until) {
            await log.sequence();
            const tail = await log.store.readAll({ since, limit: 10000 });
            for (const e of tail.events) seen.push({ id: e.envelope.id, sequence: e.sequence });
            if (tail.events.length > 0) since = tail.events[tail.events.length - 1]!.sequence;
            else await new Promise((r) => setTimeout(r, 20));
          }
          return;
        } else await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await Promise.all(writers);
    writing = false;
    await reader;

    const ids = seen.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, 'no event seen twice');
    assert.equal(ids.length, committed.size, 'every committed event seen');
    for (const id of committed) assert.ok(ids.includes(id));
    // Gap-free as this reader sees it: sequences run before+1, before+2, …
    seen.forEach((s, i) => assert.equal(s.sequence, before + i + 1));
    const reread = await log.store.readAll({ since: before, limit: 100000 });
    assert.deepEqual(
      reread.events.map((e) => e.envelope.id),
      ids,
    );
  });
});
