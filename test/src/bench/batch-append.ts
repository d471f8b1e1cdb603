// Benchmark 2: batch append, 100 events per transaction, signed, one client.
//
//   subject  — seal 100 `agent.profile_updated` events (one per agent stream, 100 streams; signed with
//              `sealMany`, libsodium on the event loop where it loads) and append them in one
//              `PgEventStore.append` (one transaction, with the agents inline projection);
//   baseline — what a signed batch append cannot go below: per batch, the same 100 envelopes built the
//              same way, each signed bare with the fastest signer the project has (its canonical text,
//              UTF-8, `createEd25519Sign` — libsodium where it loads — no store, no checks), then one
//              raw multi-row INSERT (unnest) of those 100 rows (same columns, the signed texts) into
//              `bench_raw`, autocommit; timed together, interleaved with the subject;
//   info 2a  — the raw INSERT alone (no signing), as the baseline was before: how far the append is
//              from the database's floor;
//   info 2b  — the same sealed batch through a PgEventStore with no inline projections (on other
//              agents), against the signing + INSERT baseline, to separate the projection's cost.
import { agentStream } from '@tributary/domain';
import { canonicalUnsignedText, createEd25519Sign, generateSigningKey, PgEventStore } from '@tributary/infra';
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
  // The floor arm's streams live in `bench_raw` only: no agent needs to exist for them.
  const floorAgents = Array.from({ length: BATCH }, () => {
    const agentId = randomUUID();
    return { agentId, stream: agentStream(agentId) };
  });
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

  // The bare signer, as the instance builds its own (`auto`: libsodium where it loads, the faster one).
  // The instance does not hand out its key; Ed25519's cost does not depend on the key, so a key of our
  // own signing the same canonical bytes costs what the instance's would.
  const bareSign = createEd25519Sign(generateSigningKey().privateKey);
  ctx.log(`    bare signer: ${bareSign.library}`);
  let floorVersion = 0;
  /** The same columns as the store writes, for `envelopes` and their texts. */
  const insertRows = (
    envelopes: readonly { id: string; stream: string; actorId: string; occurredAt: string }[],
    versions: readonly number[],
    texts: readonly string[],
  ) =>
    ctx.pool.query(
      `INSERT INTO bench_raw (${RAW_COLUMNS})
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[],
                            $7::timestamptz[], $8::bool[], $9::text[])`,
      [
        envelopes.map((e) => e.id),
        envelopes.map(() => signer.origin),
        envelopes.map((e) => e.stream),
        versions,
        envelopes.map(() => 'agent.profile_updated'),
        envelopes.map((e) => e.actorId),
        envelopes.map((e) => e.occurredAt),
        envelopes.map(() => true),
        texts,
      ],
    );

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
          await insertRows(
            projected.map((a) => ({ id: uuidv7(), stream: a.stream, actorId: a.agentId, occurredAt })),
            projected.map(() => rawVersion),
            templates,
          );
        }
        return n * BATCH;
      },
    },
    {
      name: 'bare sign + raw INSERT, 100/tx',
      async run({ warmup }) {
        const n = size(warmup);
        for (let i = 0; i < n; i++) {
          // The subject's envelopes, made the same way; their streams are in `bench_raw` only.
          const envelopes = floorAgents.map((a, j) =>
            unsignedEnvelope(signer, {
              stream: a.stream,
              streamVersion: floorVersion + 2,
              type: 'agent.profile_updated',
              actorId: a.agentId,
              data: { bio: bio(++batchNo, j) },
            }),
          );
          floorVersion += 1;
          // Bare signing: the canonical text's bytes, signed; the row keeps the text with `sig` added
          // (its members' order is no concern of this table's, only its size is).
          const texts = envelopes.map((e) => {
            const text = canonicalUnsignedText(e);
            const sig = bareSign(Buffer.from(text, 'utf8')).toString('base64url');
            return `${text.slice(0, -1)},"sig":"${sig}"}`;
          });
          await insertRows(
            envelopes,
            envelopes.map((e) => e.streamVersion),
            texts,
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
  const floor = results.get('bare sign + raw INSERT, 100/tx')!;
  const subject = results.get('seal + append, 100/tx')!;
  return [
    row('2. batch append 100/tx vs sign + INSERT', 'ev', subject, floor, 0.6),
    row('2a. same vs the raw INSERT alone (info)', 'ev', subject, raw),
    row(
      '2b. same, no inline projection (info)',
      'ev',
      results.get('seal + append, 100/tx, no projection')!,
      floor,
    ),
  ];
}
