// Benchmark 1: signed append, 8 concurrent clients, one event per command.
//
//   subject  — seal (canonical JSON + Ed25519) an `agent.profile_updated` event and
//              `PgEventStore.append` it (insert + the agents inline projection, one transaction),
//              through the instance's own store (sequencer poked after each commit, as in production);
//   baseline — a raw single-row INSERT of an equivalent row (same columns, same envelope text size,
//              no signing, autocommit) into `bench_raw`, the log table's equivalent without triggers;
//   info     — the whole command pipeline: `execute(services, svc.profile.update, …, session, 'http')`.
//
// Each client owns its own agents and tracks their stream versions locally, so no append conflicts.
import { agentStream } from '@tributary/domain';
import { execute, getOperation, signUp, type Principal } from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import {
  concurrently,
  interleave,
  RAW_COLUMNS,
  row,
  scaled,
  unsignedEnvelope,
  type BenchContext,
  type ResultRow,
} from './bench-kit.js';

const CLIENTS = 8;
const AGENTS_PER_CLIENT = 4;

interface OwnedAgent {
  agentId: string;
  stream: string;
  version: number;
}

export async function signedAppendBenchmark(ctx: BenchContext): Promise<ResultRow[]> {
  const { services } = ctx.instance;
  const { signer, store } = services;
  const perClient = scaled(ctx, 200, 8);
  const pipelinePerClient = scaled(ctx, 50, 4);

  // Setup (untimed): each client gets its own agents, created through the store like any other event.
  const clients: OwnedAgent[][] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const agents: OwnedAgent[] = Array.from({ length: AGENTS_PER_CLIENT }, () => {
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
              data: { agentId: a.agentId, kind: 'person', name: `Bench client ${c} agent ${i}` },
            }),
          ),
        ],
      })),
    );
    for (const a of agents) a.version = 1;
    clients.push(agents);
  }
  const bio = (c: number, i: number) => `Benchmark client ${c}, update ${i}: tends the river garden.`;

  // The same row shape for the baseline: a sealed text of the same size as the subject's (made once).
  const templates = clients.map((agents, c) => {
    const a = agents[0]!;
    const sealed = signer.seal(
      unsignedEnvelope(signer, {
        stream: a.stream,
        streamVersion: 2,
        type: 'agent.profile_updated',
        actorId: a.agentId,
        data: { bio: bio(c, 100000) },
      }),
    );
    return sealed.text;
  });
  let rawVersion = 0;

  // Sessions for the pipeline arm: real accounts, signed up through the pipeline (bcrypt rounds 4).
  const principals: Principal[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const { result } = await execute(
      services,
      signUp,
      {
        handle: `bench${c}${Date.now().toString(36)}`,
        password: 'correct horse battery staple',
        name: `Bench ${c}`,
      },
      { kind: 'anonymous' },
      'http',
    );
    principals.push({
      kind: 'session',
      sessionId: result.session.sessionId,
      accountId: result.accountId,
      agentId: result.agentId,
    });
  }
  const updateProfile = getOperation('svc.profile.update');
  if (!updateProfile) throw new Error('svc.profile.update is not in the catalogue');
  let pipelineCounter = 0;

  const size = (warmup: boolean, n: number) => (warmup ? Math.max(1, Math.ceil(n / 4)) : n);

  /** The baseline: one raw single-row INSERT per command into `table`, 8 clients. */
  const rawInsertArm = (name: string, table: string) => ({
    name,
    async run({ warmup }: { warmup: boolean }) {
      const n = size(warmup, perClient);
      await concurrently(CLIENTS, async (c) => {
        const a = clients[c]![0]!;
        for (let i = 0; i < n; i++) {
          await ctx.pool.query(
            `INSERT INTO ${table} (${RAW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              uuidv7(),
              signer.origin,
              a.stream,
              ++rawVersion,
              'agent.profile_updated',
              a.agentId,
              new Date().toISOString(),
              true,
              templates[c]!,
            ],
          );
        }
      });
      return n * CLIENTS;
    },
  });

  const results = await interleave(ctx, [
    rawInsertArm('raw INSERT (8 clients)', 'bench_raw'),
    rawInsertArm('raw INSERT, bare table (8 clients)', 'bench_raw_bare'),
    {
      name: 'seal + PgEventStore.append (8 clients)',
      async run({ warmup }) {
        const n = size(warmup, perClient);
        await concurrently(CLIENTS, async (c) => {
          const agents = clients[c]!;
          for (let i = 0; i < n; i++) {
            const a = agents[i % agents.length]!;
            // As the pipeline seals: signing on the thread pool.
            const [sealed] = await signer.sealMany([
              unsignedEnvelope(signer, {
                stream: a.stream,
                streamVersion: a.version + 1,
                type: 'agent.profile_updated',
                actorId: a.agentId,
                data: { bio: bio(c, i) },
              }),
            ]);
            await store.append([{ stream: a.stream, expectedVersion: a.version, envelopes: [sealed!] }]);
            a.version += 1;
          }
        });
        return n * CLIENTS;
      },
    },
    {
      name: 'execute(svc.profile.update) (8 clients)',
      async run({ warmup }) {
        const n = size(warmup, pipelinePerClient);
        await concurrently(CLIENTS, async (c) => {
          for (let i = 0; i < n; i++) {
            const out = await execute(
              services,
              updateProfile,
              { bio: `Pipeline client ${c}, update ${++pipelineCounter}: tends the river garden.` },
              principals[c]!,
              'http',
            );
            if (out.commit?.events.length !== 1) throw new Error('svc.profile.update wrote no event');
          }
        });
        return n * CLIENTS;
      },
    },
  ]);

  const raw = results.get('raw INSERT (8 clients)')!;
  return [
    row(
      '1. signed append, 8 clients',
      'ev',
      results.get('seal + PgEventStore.append (8 clients)')!,
      raw,
      0.5,
    ),
    row(
      '1a. same vs a bare table (info)',
      'ev',
      results.get('seal + PgEventStore.append (8 clients)')!,
      results.get('raw INSERT, bare table (8 clients)')!,
    ),
    row(
      '1b. command pipeline, 8 clients (info)',
      'ev',
      results.get('execute(svc.profile.update) (8 clients)')!,
      raw,
    ),
  ];
}
