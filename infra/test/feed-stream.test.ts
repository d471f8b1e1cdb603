// The feed route streams its page as the rows arrive; the pieces must make exactly the page's JSON text.
import { readFeed, streamFeed } from '@tributary/services';
import { feedPageJson, openTestLog } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';

describe('the streamed feed page', () => {
  let log: Awaited<ReturnType<typeof openTestLog>>;
  let head = 0;
  beforeAll(async () => {
    log = await openTestLog();
    // Feed events (agent.created) with ASCII, multi-byte and astral text, and private ones between them.
    const names = ['plain', 'Zoë ✓', '😀 astral', '漢字 "quoted" \\ back', 'sep \u2028 line'];
    for (let i = 0; i < 40; i++) {
      const agentId = randomUUID();
      const at = new Date().toISOString();
      await log.store.append([
        {
          stream: `agent-${agentId}`,
          expectedVersion: 0,
          envelopes: [
            log.agentEvent(agentId, 1, 'agent.created', { agentId, kind: 'person', name: names[i % 5] }, at),
          ],
        },
      ]);
      if (i % 4 === 0) await log.store.append([log.envelopes(`handle-${agentId}`, 0, 1)]);
    }
    // The sequencer numbers only rows below the cluster-wide horizon, which other suites' transactions
    // can hold back for a moment: read (each read sequences first) until all 40 are on the feed.
    const until = Date.now() + 15_000;
    for (;;) {
      const page = await log.store.readFeedPage({ since: 0, limit: 500 });
      head = page.head;
      if (page.rows.length === 40 && head === 50) break;
      if (Date.now() > until) throw new Error(`only ${page.rows.length} of 40 feed events were sequenced`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    await log?.close();
  });

  const streamed = async (since: number, limit: number) => {
    const pieces: string[] = [];
    await streamFeed({ store: log.store }, { since, limit }, { write: (t) => pieces.push(t) });
    return pieces;
  };

  test('given windows across the log, when streamed, then the pieces are exactly the page JSON', async () => {
    const seqs = (await readFeed({ store: log.store }, { since: 0, limit: 500 })).items.map(
      (i) => i.sequence,
    );
    assert.equal(seqs.length, 40);
    const windows: [number, number][] = [
      [0, 2],
      [0, 500],
      [seqs[10]!, 5],
      [seqs[29]!, 10], // exactly the rest: hasMore false
      [seqs[28]!, 10], // one more than the limit: hasMore true
      [head, 100], // at the head: an empty page
    ];
    for (const [since, limit] of windows) {
      const pieces = await streamed(since, limit);
      const expected = feedPageJson(await readFeed({ store: log.store }, { since, limit }));
      assert.equal(pieces.join(''), expected, `since ${since} limit ${limit}`);
      const page = JSON.parse(pieces.join('')) as { events: { sequence: number }[]; head: number };
      assert.ok(page.events.every((e) => e.sequence > since && e.sequence <= page.head));
    }
    // A page of many events comes in many pieces (one per event, and the tail).
    assert.equal((await streamed(0, 500)).length, 41);
  });

  test('given since past the head, when streamed, then feed.since_after_head and nothing written', async () => {
    const pieces: string[] = [];
    await assert.rejects(
      streamFeed({ store: log.store }, { since: head + 1000, limit: 10 }, { write: (t) => pieces.push(t) }),
      (e: { code?: string }) => e.code === 'feed.since_after_head',
    );
    assert.deepEqual(pieces, []);
  });

  test('given a sink that throws mid-page, when streamed, then that error comes back and the store still serves', async () => {
    let rows = 0;
    await assert.rejects(
      log.store.streamFeedPage(
        { since: 0, limit: 500 },
        {
          head: () => undefined,
          row: () => {
            if (++rows === 3) throw new Error('the reader went away');
          },
        },
      ),
      /the reader went away/,
    );
    assert.equal(rows, 3, 'no row is handed over after the failure');
    const again = await streamed(0, 2);
    assert.equal(again.join(''), feedPageJson(await readFeed({ store: log.store }, { since: 0, limit: 2 })));
  });
});
