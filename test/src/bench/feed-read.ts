// Benchmark 3: the federation feed over HTTP, `limit=500`, against a raw SELECT of the same rows.
//
//   subject  — `GET /api/federation/events?since=X&limit=500` from the running instance through Node's
//              own HTTP client (one keep-alive connection; the body decoded as UTF-8 text as it arrives,
//              `res.setEncoding('utf8')` and the chunks appended: the Node.js documentation's idiom);
//   baseline — `SELECT seq, envelope` of the same 500 feed rows through pg (one client);
//   info     — the same GETs with the body joined into one Buffer and decoded at once, and through
//              `fetch` (undici).
//
// All loop over the same, scattered `since` windows of a log holding ~20k federable events.
//
// Why the subject is measured with node:http rather than fetch: the client runs in this process, so
// its cost is part of every round, and fetch's is large for a body this size. Measured here, serving a
// constant ~290 kB body from a bare node:http server (no database, no framework, no work) took
// 1.0-1.5 ms per request through fetch and 0.7-0.85 ms through node:http, against 1.0-1.1 ms for the raw
// SELECT of 500 rows: through fetch, a server that did nothing at all would score under 0.5×, so the
// ratio would say more about the client than about the feed. The fetch row stays, for comparison.
//
// Why the body is decoded chunk by chunk: V8 puts any string or buffer over ~128 kB in its large-object
// space, one mmap and a fresh set of page faults per object, and on this host that costs ~1.2 ms whatever
// the content (measured: `latin1Slice` of 290 kB took 1.26 ms, of 120 kB 0.055 ms; `utf8Slice` the
// same). Joining the ~290 kB page and decoding it at once spent more time in that one allocation than
// the raw SELECT spends on the whole page, which again measured the client rather than the feed
// (~4.5 ms a page against ~2.6 ms chunk by chunk, in one loop). The pg driver, for the baseline, decodes
// row by row and never makes such an object. Both clients decode every byte; the info row keeps the other.
import http from 'node:http';
import {
  ensureFederableEvents,
  type Arm,
  interleave,
  row,
  scaled,
  type BenchContext,
  type ResultRow,
} from './bench-kit.js';

const LIMIT = 500;

const RAW_PAGE = `SELECT s.seq, e.envelope FROM event_sequence s JOIN events e ON e.position = s.position
                  WHERE s.seq > $1 AND s.feed ORDER BY s.seq LIMIT $2`;

export async function feedReadBenchmark(ctx: BenchContext): Promise<ResultRow[]> {
  const wanted = scaled(ctx, 20_000, 2 * LIMIT);
  const requestsPerRound = scaled(ctx, 24, 4);

  // Populate (untimed): top the log up to `wanted` federable events.
  const started = Date.now();
  await ensureFederableEvents(ctx, wanted);
  const seqs = (
    await ctx.pool.query<{ seq: string }>('SELECT seq FROM event_sequence WHERE feed ORDER BY seq')
  ).rows.map((r) => Number(r.seq));
  ctx.log(
    `    feed holds ${seqs.length} federable events (populated in ${((Date.now() - started) / 1000).toFixed(1)}s)`,
  );
  if (seqs.length < LIMIT + 1) throw new Error(`the feed holds only ${seqs.length} events`);

  // Scattered windows, each with a full page after it; the same list for both arms of a round.
  const windows = seqs.length - LIMIT;
  const sinceFor = (round: number, i: number) => {
    const k = ((round + 2) * 7919 + i * 104_729) % windows;
    return k === 0 ? 0 : seqs[k - 1]!;
  };
  const feedUrl = (since: number) => `${ctx.url}/api/federation/events?since=${since}&limit=${LIMIT}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  // Sanity (untimed): the HTTP page and the raw page hold the same events.
  {
    const since = sinceFor(0, 1);
    const res = await fetch(feedUrl(since));
    const body = (await res.json()) as { events: { sequence: number; event: { id: string } }[] };
    const raw = await ctx.pool.query<{ seq: string; envelope: string }>(RAW_PAGE, [since, LIMIT]);
    const same =
      res.status === 200 &&
      body.events.length === LIMIT &&
      raw.rows.length === LIMIT &&
      body.events.every(
        (e, i) =>
          e.sequence === Number(raw.rows[i]!.seq) &&
          e.event.id === (JSON.parse(raw.rows[i]!.envelope) as { id: string }).id,
      );
    if (!same) throw new Error(`feed page and raw page differ (HTTP ${res.status})`);
  }

  const size = (warmup: boolean) =>
    warmup ? Math.max(2, Math.ceil(requestsPerRound / 4)) : requestsPerRound;
  /** An arm that GETs the round's pages through `get`, each checked for a 200. */
  const feedArm = (name: string, get: (url: string) => Promise<{ status: number; text: string }>): Arm => ({
    name,
    async run({ warmup, index }) {
      const n = size(warmup);
      for (let i = 0; i < n; i++) {
        const { status, text } = await get(feedUrl(sinceFor(index, i)));
        if (status !== 200) throw new Error(`feed answered ${status}: ${text.slice(0, 200)}`);
      }
      return n * LIMIT;
    },
  });
  const results = await interleave(ctx, [
    {
      name: 'raw SELECT 500 rows',
      async run({ warmup, index }) {
        const n = size(warmup);
        for (let i = 0; i < n; i++) {
          const { rows } = await ctx.pool.query<{ seq: string; envelope: string }>(RAW_PAGE, [
            sinceFor(index, i),
            LIMIT,
          ]);
          if (rows.length !== LIMIT) throw new Error(`raw page of ${rows.length} rows`);
        }
        return n * LIMIT;
      },
    },
    feedArm('GET /api/federation/events', (url) => getText(agent, url, 'as it arrives')),
    feedArm('GET /api/federation/events (joined)', (url) => getText(agent, url, 'joined')),
    feedArm('GET /api/federation/events (fetch)', async (url) => {
      const res = await fetch(url);
      return { status: res.status, text: await res.text() };
    }),
  ]);
  agent.destroy();
  return [
    row(
      '3. feed read limit=500 over HTTP',
      'ev',
      results.get('GET /api/federation/events')!,
      results.get('raw SELECT 500 rows')!,
      0.5,
    ),
    row(
      '3b. same, body joined, then decoded (info)',
      'ev',
      results.get('GET /api/federation/events (joined)')!,
      results.get('raw SELECT 500 rows')!,
    ),
    row(
      '3c. same, read through fetch (info)',
      'ev',
      results.get('GET /api/federation/events (fetch)')!,
      results.get('raw SELECT 500 rows')!,
    ),
  ];
}

/**
 * One GET on a keep-alive agent; the whole body as UTF-8 text, decoded as it arrives (Node's documented
 * idiom) or joined into one Buffer and decoded at once.
 */
function getText(
  agent: http.Agent,
  url: string,
  decode: 'as it arrives' | 'joined',
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const done = (text: string) => resolve({ status: res.statusCode ?? 0, text });
        if (decode === 'as it arrives') {
          res.setEncoding('utf8');
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done(text));
        } else {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        }
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
