// Benchmark 2: batch append, 100 events per transaction, signed, one client.
//
//   subject  — seal 100 `agent.profile_updated` events (one per agent stream, 100 streams; signed on the
//              thread pool with `sealMany`) and append
//              them in one `PgEventStore.append` (one transaction, with the agents inline projection);
//   baseline — one raw multi-row INSERT (unnest) of 100 equivalent rows (same columns, same envelope
//              text size, no signing) into `bench_raw`, autocommit;
//   info     — the same sealed batch through a PgEventStore with no inline projections (on other
//              agents), to separate the projection's cost from signing and inserting.
import { agentStream } from '@tributary/domain';
import { PgEventStore } from '@tributary/infra';
import type { AppendStream, EventStore } from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  interleave,
  RAW_COLUMNS,
  row,
  scaled,
  unsignedEnvelope,
  type BenchContext,
  type ResultRow,
} from './bench-kit.js';

const BATCH = 100;

interface Agent {
  agentId: string;
  stream: string;
  version: number;
}

export async function batchAppendBenchmark(ctx: BenchContext): Promise<ResultRow[]> {
  const { signer, store } = ctx.instance.services;
  const batchesPerRound = scaled(ctx, 20, 2);
  const bare = new PgEventStore(ctx.instance.pool, {
    inlineProjections: [],
    onAppended: ctx.instance.sequencer.poke,
  });

  const createAgents = async (label: string): Promise<Agent[]> => {
    const agents = Array.from({ length: BATCH }, () => {
      const agentId = randomUUID();
      return { agentId, stream: agentStream(agentId), version: 0 };
    });
    await store.append(
      agents.map((a, i) => ({
        stream: a.stream,
        expectedVersion: 0,
        envelopes: [
          signer.seal(
            unsignedEnvelope(signer, {
              stream: a.stream,
              streamVersion: 1,
              type: 'agent.created',
              actorId: a.agentId,
              data: { agentId: a.agentId, kind: 'person', name: `Batch ${label} agent ${i}` },
            }),
          ),
        ],
      })),
    );
    for (const a of agents) a.version = 1;
    return agents;
  };
  const projected = await createAgents('projected');
  const unprojected = await createAgents('unprojected');
  const bio = (i: number, j: number) => `Batch ${i}, member ${j}: keeps bees by the weir.`;

  /** Seals one event per agent (signing on the thread pool: `sealMany`) and appends the 100 in one transaction. */
  const sealedBatch = async (target: EventStore, agents: Agent[], i: number) => {
    const sealed = await signer.sealMany(
      agents.map((a, j) =>
        unsignedEnvelope(signer, {
          stream: a.stream,
          streamVersion: a.version + 1,
          type: 'agent.profile_updated',
          actorId: a.agentId,
          data: { bio: bio(i, j) },
        }),
      ),
    );
    const streams: AppendStream[] = agents.map((a, j) => ({
      stream: a.stream,
      expectedVersion: a.version,
      envelopes: [sealed[j]!],
    }));
    await target.append(streams);
    for (const a of agents) a.version += 1;
  };

  // The baseline's rows: the same columns, with envelope texts of the same size (sealed once, untimed).
  const templates = projected.map(
    (a, j) =>
      signer.seal(
        unsignedEnvelope(signer, {
          stream: a.stream,
          streamVersion: 2,
          type: 'agent.profile_updated',
          actorId: a.agentId,
          data: { bio: bio(100000, j) },
        }),
      ).text,
  );
  let rawVersion = 0;

  let batchNo = 0;
  const size = (warmup: boolean) => (warmup ? Math.max(1, Math.ceil(batchesPerRound / 4)) : batchesPerRound);
  const results = await interleave(ctx, [
    {
      name: 'raw batch INSERT (unnest)',
      async run({ warmup }) {
        const n = size(warmup);
        for (let i = 0; i < n; i++) {
          const occurredAt = new Date().toISOString();
          rawVersion += 1;
          await ctx.pool.query(
            `INSERT INTO bench_raw (${RAW_COLUMNS})
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[],
                                  $7::timestamptz[], $8::bool[], $9::text[])`,
            [
              projected.map(() => uuidv7()),
              projected.map(() => signer.origin),
              projected.map((a) => a.stream),
              projected.map(() => rawVersion),
              projected.map(() => 'agent.profile_updated'),
              projected.map((a) => a.agentId),
              projected.map(() => occurredAt),
              projected.map(() => true),
              templates,
            ],
          );
        }
        return n * BATCH;
      },
    },
    {
      name: 'seal + append, 100/tx',
      async run({ warmup }) {
        const n = size(warmup);
        for (let i = 0; i < n; i++) await sealedBatch(store, projected, ++batchNo);
        return n * BATCH;
      },
    },
    {
      name: 'seal + append, 100/tx, no projection',
      async run({ warmup }) {
        const n = size(warmup);
        for (let i = 0; i < n; i++) await sealedBatch(bare, unprojected, ++batchNo);
        return n * BATCH;
      },
    },
  ]);
  const raw = results.get('raw batch INSERT (unnest)')!;
  return [
    row('2. batch append 100/tx, 1 client', 'ev', results.get('seal + append, 100/tx')!, raw, 0.5),
    row(
      '2b. same, no inline projection (info)',
      'ev',
      results.get('seal + append, 100/tx, no projection')!,
      raw,
    ),
  ];
}
