// What every EventStore promises, as one suite run against each implementation: PgEventStore in
// infra/test/event-store-contract.test.ts, the in-memory store in test/src/unit. The in-memory store
// stands in for PostgreSQL in unit tests only as far as this suite holds for both.
import { isDomainError } from '@tributary/domain';
import type { AppendStream, EventStore } from '@tributary/services';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';

export interface ContractLog {
  store: EventStore;
  /** `count` signed events on `stream` after `fromVersion`, of `type` (default `handle.claimed`, off the feed). */
  envelopes(
    stream: string,
    fromVersion: number,
    count: number,
    type?: string,
    actorId?: string,
  ): AppendStream;
  close(): Promise<void>;
  /**
   * Resolves once every appended event has its sequence number. A store whose sequencer numbers only
   * below the oldest open transaction (PostgreSQL's, cluster-wide: another suite on the same server may
   * hold it) needs this before a read of the sequence can be asked to hold what was just appended.
   */
  sequenced?(): Promise<void>;
}

const FEED_TYPE = 'agent.profile_updated';

export function eventStoreContract(name: string, open: () => Promise<ContractLog>): void {
  describe(`EventStore contract: ${name}`, () => {
    let log: ContractLog;
    /** Stream names unique to this run, so the suite can share one store with other tests. */
    const s = (label: string) => `contract-${label}-${randomUUID()}`;
    beforeAll(async () => {
      log = await open();
    });
    afterAll(async () => {
      await log?.close();
    });

    test('given a new stream, when events are appended expecting version 0, then readStream returns them in version order with rising positions', async () => {
      const stream = s('new');
      const batch = log.envelopes(stream, 0, 3);
      const result = await log.store.append([batch]);
      assert.deepEqual(
        result.events.map((e) => [e.id, e.stream, e.streamVersion]),
        batch.envelopes.map((e, i) => [e.envelope.id, stream, i + 1]),
      );
      const positions = result.events.map((e) => e.position);
      assert.deepEqual(
        positions,
        [...positions].sort((a, b) => a - b),
      );
      const read = await log.store.readStream(stream);
      assert.deepEqual(
        read.map((e) => [e.envelope.id, e.streamVersion, e.position, e.text]),
        batch.envelopes.map((e, i) => [e.envelope.id, i + 1, positions[i], e.text]),
      );
      await log.store.append([log.envelopes(stream, 3, 2)]);
      assert.deepEqual(
        (await log.store.readStream(stream)).map((e) => e.streamVersion),
        [1, 2, 3, 4, 5],
      );
    });

    test('given a stream at version 2, when an append of two streams expects version 1 of it, then log.stream_conflict naming it and neither stream is written', async () => {
      const stream = s('stale');
      const other = s('other');
      await log.store.append([log.envelopes(stream, 0, 2)]);
      await assert.rejects(
        log.store.append([log.envelopes(other, 0, 1), log.envelopes(stream, 1, 1)]),
        (e) => {
          assert.ok(isDomainError(e));
          assert.equal(e.code, 'log.stream_conflict');
          assert.equal(e.details?.stream, stream);
          return true;
        },
      );
      assert.equal((await log.store.readStream(stream)).length, 2);
      assert.equal((await log.store.readStream(other)).length, 0);
    });

    test('given a stream at version 1, when an append expects version 5, then log.stream_conflict and nothing is written', async () => {
      const stream = s('ahead');
      await log.store.append([log.envelopes(stream, 0, 1)]);
      await assert.rejects(
        log.store.append([log.envelopes(stream, 5, 1)]),
        (e) => isDomainError(e) && e.code === 'log.stream_conflict',
      );
      assert.equal((await log.store.readStream(stream)).length, 1);
    });

    test('given a new stream, when two writers both append expecting version 0, then exactly one wins and the other gets log.stream_conflict', async () => {
      const stream = s('race');
      const outcomes = await Promise.allSettled([
        log.store.append([log.envelopes(stream, 0, 1)]),
        log.store.append([log.envelopes(stream, 0, 1)]),
      ]);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      const refused = outcomes.find((o) => o.status === 'rejected');
      assert.ok(refused && isDomainError(refused.reason) && refused.reason.code === 'log.stream_conflict');
      assert.equal((await log.store.readStream(stream)).length, 1);
    });

    test('given an event already in the log, when the same id from the same origin is appended again, then log.duplicate_event and nothing is written', async () => {
      const first = log.envelopes(s('dup'), 0, 1);
      await log.store.append([first]);
      const again = s('dup-again');
      const envelope = first.envelopes[0]!;
      await assert.rejects(
        log.store.append([
          {
            stream: again,
            expectedVersion: 0,
            envelopes: [{ ...envelope, envelope: { ...envelope.envelope, stream: again } }],
          },
        ]),
        (e) => isDomainError(e) && e.code === 'log.duplicate_event',
      );
      assert.equal((await log.store.readStream(again)).length, 0);
    });

    test('given an append of several streams, then all are written at once, in the order given', async () => {
      const streams = [s('multi-a'), s('multi-b'), s('multi-c')];
      const result = await log.store.append(streams.map((stream, i) => log.envelopes(stream, 0, i + 1)));
      assert.deepEqual(
        result.events.map((e) => e.stream),
        [streams[0], streams[1], streams[1], streams[2], streams[2], streams[2]],
      );
      const positions = result.events.map((e) => e.position);
      for (let i = 1; i < positions.length; i++) assert.ok(positions[i]! > positions[i - 1]!);
      const read = await log.store.readStreams(streams);
      assert.deepEqual(
        streams.map((stream) => read.get(stream)!.length),
        [1, 2, 3],
      );
    });

    test('given streams with events, when readStreams names versions already held, then only the events past them come back, and unknown streams come back empty', async () => {
      const a = s('after-a');
      const b = s('after-b');
      const none = s('after-none');
      await log.store.append([log.envelopes(a, 0, 4), log.envelopes(b, 0, 2)]);
      const read = await log.store.readStreams([a, b, none], new Map([[a, 2]]));
      assert.deepEqual(
        read.get(a)!.map((e) => e.streamVersion),
        [3, 4],
      );
      assert.deepEqual(
        read.get(b)!.map((e) => e.streamVersion),
        [1, 2],
      );
      assert.deepEqual(read.get(none), []);
    });

    test('given appended events, when readAll pages through them, then each comes once in sequence order, the head covers them, and a re-read repeats the order', async () => {
      const before = (await log.store.readAll({ since: 0, limit: 1_000_000 })).head;
      const streams = [s('all-a'), s('all-b')];
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await log.store.append([log.envelopes(streams[i % 2]!, Math.floor(i / 2), 1)]);
        ids.push(...r.events.map((e) => e.id));
      }
      await log.sequenced?.();
      const seen: { id: string; sequence: number }[] = [];
      let since = before;
      for (;;) {
        const page = await log.store.readAll({ since, limit: 2 });
        assert.ok(page.events.length <= 2);
        if (page.events.length === 0) break;
        for (const e of page.events) seen.push({ id: e.envelope.id, sequence: e.sequence });
        since = page.events.at(-1)!.sequence;
        assert.ok(page.head >= since);
      }
      const mine = seen.filter((e) => ids.includes(e.id));
      assert.deepEqual(
        mine.map((e) => e.id),
        ids,
      );
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.sequence > seen[i - 1]!.sequence);
      const reread = await log.store.readAll({ since: before, limit: 1_000_000 });
      assert.deepEqual(
        reread.events.map((e) => e.envelope.id),
        seen.map((e) => e.id),
      );
    });

    test('given writers appending feed and non-feed events while a reader pages the feed, then the reader sees every feed event exactly once, in rising sequence, and nothing off the feed', async () => {
      const start = await log.store.readFeedPage({ since: 0, limit: 0 });
      const feedIds = new Set<string>();
      const offFeedIds = new Set<string>();
      let writing = true;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 15; i++) {
          const feed = log.envelopes(s(`feed-${w}-${i}`), 0, 1 + (i % 2), FEED_TYPE);
          const off = log.envelopes(s(`off-${w}-${i}`), 0, 1);
          const r = await log.store.append(i % 3 === 0 ? [feed, off] : [feed]);
          for (const e of r.events) (e.stream === feed.stream ? feedIds : offFeedIds).add(e.id);
        }
      });
      const seen: { id: string; sequence: number; type: string }[] = [];
      const reader = (async () => {
        let since = start.head;
        const read = async () => {
          const page = await log.store.readFeedPage({ since, limit: 7 });
          for (const row of page.rows) {
            const envelope = JSON.parse(row.text) as { id: string; type: string };
            seen.push({ id: envelope.id, sequence: row.sequence, type: envelope.type });
            assert.ok(row.sequence <= page.head, 'no row past the head of its page');
          }
          if (page.rows.length > 0) since = page.rows.at(-1)!.sequence;
          return page.rows.length;
        };
        while (writing) if ((await read()) === 0) await new Promise((r) => setTimeout(r, 2));
        // Writers are done; PostgreSQL may still be sequencing the last commits (its horizon is
        // cluster-wide), so read on until each one shows up or time is out.
        for (const until = Date.now() + 15_000; Date.now() < until;) {
          if ((await read()) > 0) continue;
          if ([...feedIds].every((id) => seen.some((e) => e.id === id))) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      await Promise.all(writers);
      writing = false;
      await reader;

      const ids = seen.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'no feed event seen twice');
      for (const id of feedIds) assert.ok(ids.includes(id), `feed event ${id} seen`);
      for (const id of offFeedIds) assert.ok(!ids.includes(id), `off-feed event ${id} not on the feed`);
      for (const e of seen) assert.equal(e.type, FEED_TYPE);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.sequence > seen[i - 1]!.sequence);
    });

    test('given events by several actors, when readByActors names one, then only its events after since come back, in sequence order', async () => {
      const stream = s('actors');
      const mine = await log.store.append([log.envelopes(stream, 0, 3)]);
      const actorId = (await log.store.readStream(stream))[0]!.actorId;
      await log.sequenced?.();
      const all = await log.store.readByActors({ actorIds: [actorId], since: 0, limit: 1_000_000 });
      const ids = all.map((e) => e.envelope.id);
      for (const e of mine.events) assert.ok(ids.includes(e.id));
      for (const e of all) assert.equal(e.actorId, actorId);
      for (let i = 1; i < all.length; i++) assert.ok(all[i]!.sequence > all[i - 1]!.sequence);
      const none = await log.store.readByActors({ actorIds: [randomUUID()], since: 0, limit: 10 });
      assert.deepEqual(none, []);
    });

    test('given events by several actors, when readLatestByActors names two of them, then their latest come back newest first, and before pages on without a gap or a repeat', async () => {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const streams = [s('latest-a'), s('latest-b'), s('latest-c')];
      for (let round = 0; round < 3; round++)
        for (const [i, stream] of streams.entries())
          await log.store.append([log.envelopes(stream, round * 2, 2, undefined, [a, b, c][i])]);
      await log.sequenced?.();
      // What the oldest-first read says, reversed, is the truth to compare with.
      const all = await log.store.readByActors({ actorIds: [a, b], since: 0, limit: 1_000_000 });
      const expected = all.map((e) => e.sequence).reverse();
      const latest = await log.store.readLatestByActors({ actorIds: [a, b], limit: 5 });
      assert.deepEqual(
        latest.map((e) => e.sequence),
        expected.slice(0, 5),
      );
      for (const e of latest) assert.ok(e.actorId === a || e.actorId === b, 'only the actors named');
      assert.equal(all.length, 12);
      // Page through with before: every event once, newest first.
      const seen: number[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await log.store.readLatestByActors({ actorIds: [a, b], before, limit: 4 });
        if (page.length === 0) break;
        seen.push(...page.map((e) => e.sequence));
        before = page.at(-1)!.sequence;
      }
      assert.deepEqual(seen, expected);
      // A `before` past the head is the head; one at the first event gives nothing.
      const past = await log.store.readLatestByActors({ actorIds: [a], before: 2 ** 40, limit: 1 });
      assert.equal(
        past[0]!.sequence,
        (await log.store.readLatestByActors({ actorIds: [a], limit: 1 }))[0]!.sequence,
      );
      const none = await log.store.readLatestByActors({
        actorIds: [a, b],
        before: expected.at(-1)!,
        limit: 10,
      });
      assert.deepEqual(none, []);
    });
  });
}
