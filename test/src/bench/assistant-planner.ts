// Benchmark: the built-in planner's reply latency (issue 20: "it must not be the slow part of a turn").
//
//   11 — built-in planner replies (replies/s; latency p50/p99 printed) against the same turns answered by
//        the OpenAI-compatible client over loopback by the test harness's model server replying at once
//        with the same answer: the least a configured model can cost (one HTTP exchange, JSON both ways,
//        no thinking). Info: the planner should be far faster than that baseline.
//
// The turns are those of its vocabulary, both halves where it reads first (the request, then the request
// with the tool's result: 20 site versions, 100 activity entries), each with a 20-message history and the
// catalogue's tools offered, as a turn loop sends them. Arms alternate per round; rates are medians.
//
//   benchAssistantPlanner(options?) → Promise<ResultRow[]>
import { createOutboundHttp } from '@tributary/adapters';
import { createOpenAiLanguageModel } from '@tributary/infra';
import {
  catalogueOperations,
  createBuiltinPlanner,
  type LanguageModel,
  type ModelMessage,
  type ModelToolSpec,
  type ModelTurnRequest,
} from '@tributary/services';
import { performance } from 'node:perf_hooks';
import { startOpenAiCompatibleServer, type ScriptedReply } from '../harness/openai-compatible-server.js';
import { median, type ResultRow } from './bench-kit.js';

export interface AssistantPlannerOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The catalogue's tools as a turn loop offers them (name, description, an object schema). */
function offeredTools(): ModelToolSpec[] {
  return catalogueOperations().map((op) => ({
    name: op.name,
    description: op.description,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
  }));
}

function turns(tools: ModelToolSpec[]): ModelTurnRequest[] {
  const history: ModelMessage[] = Array.from({ length: 20 }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: `An earlier request, number ${i}, about my sites and personas.` }
      : { role: 'assistant', content: `An earlier answer, number ${i}, saying what was proposed.` },
  );
  const system: ModelMessage = { role: 'system', content: 'You are the organization assistant.' };
  const withResult = (request: string, tool: string, result: unknown): ModelMessage[] => [
    system,
    ...history,
    { role: 'user', content: request },
    { role: 'assistant', content: '', toolCalls: [{ id: 'builtin_1', name: tool, arguments: '{}' }] },
    { role: 'tool', toolCallId: 'builtin_1', content: JSON.stringify(result) },
  ];
  const day = new Date().toISOString().slice(0, 10);
  const plain = [
    'list my personas',
    'create a persona called Night Owl',
    'list my sites',
    'publish my site',
    'roll back my site to the previous version',
    'what did my agents do today?',
    'book me a flight to Lisbon',
  ].map((request): ModelMessage[] => [system, ...history, { role: 'user', content: request }]);
  return [
    ...plain,
    withResult('roll back my site to the previous version', 'svc.builder.read_site', {
      site: { siteId: 's-1' },
      publication: { versionId: 'v-19' },
      versions: Array.from({ length: 20 }, (_, i) => ({
        versionId: `v-${i}`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    }),
    withResult('what did my agents do today?', 'svc.audit.recent', {
      entries: Array.from({ length: 100 }, (_, i) => ({
        at: `${day}T${String(i % 24).padStart(2, '0')}:00:00Z`,
        tool: ['svc.builder.publish', 'svc.agent.create_persona', 'svc.profile.update'][i % 3],
        outcome: i % 7 === 0 ? 'error' : 'ok',
      })),
    }),
    withResult('list my personas', 'svc.agent.list_personas', {
      personas: Array.from({ length: 10 }, (_, i) => ({
        agentId: `a-${i}`,
        name: `Persona ${i}`,
        handle: null,
      })),
    }),
  ].map((messages) => ({ messages, tools }));
}

export async function benchAssistantPlanner(o: AssistantPlannerOptions = {}): Promise<ResultRow[]> {
  const rounds = o.rounds ?? 5;
  const log = o.log ?? (() => undefined);
  const perRound = Math.max(20, Math.round(500 * (o.scale ?? 1)));
  const tools = offeredTools();
  const requests = turns(tools);
  const planner = createBuiltinPlanner();
  const server = await startOpenAiCompatibleServer();
  try {
    // The server answers each request with what the planner answered for it: same size, no thinking.
    // The turns differ in their last message's text, so that is the key.
    const lastText = (messages: { content?: unknown }[]) => String(messages.at(-1)?.content ?? '');
    const answers = new Map<string, ScriptedReply>();
    for (const r of requests) {
      const turn = await planner.complete(r);
      answers.set(lastText(r.messages), {
        text: turn.text,
        toolCalls: turn.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
      });
    }
    server.respond((received) => answers.get(lastText(received.body.messages)) ?? { text: 'ok' });
    const model = createOpenAiLanguageModel({
      baseUrl: server.url,
      model: 'bench',
      timeoutMs: 30_000,
      acceptsImages: false,
      outbound: createOutboundHttp({ allowedAddresses: '127.0.0.1' }),
    });

    const arms: { name: string; model: LanguageModel; count: number }[] = [
      { name: 'planner', model: planner, count: perRound },
      // HTTP round trips are slower; fewer per round keeps the rounds comparable in length.
      { name: 'loopback model', model, count: Math.max(10, Math.round(perRound / 10)) },
    ];
    const times = new Map(arms.map((a) => [a.name, [] as number[]]));
    const rates = new Map(arms.map((a) => [a.name, [] as number[]]));
    for (const arm of arms) for (const r of requests) await arm.model.complete(r); // warm-up
    for (let round = 0; round < rounds; round++)
      for (const arm of arms) {
        let total = 0;
        for (let i = 0; i < arm.count; i++) {
          const request = requests[i % requests.length]!;
          const started = performance.now();
          await arm.model.complete(request);
          const ms = performance.now() - started;
          times.get(arm.name)!.push(ms);
          total += ms;
        }
        rates.get(arm.name)!.push(arm.count / (total / 1000));
      }
    const latency = (name: string) => {
      const sorted = [...times.get(name)!].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
    const p = latency('planner');
    const b = latency('loopback model');
    log(
      `    built-in planner reply: p50 ${us(p.p50)}, p99 ${us(p.p99)} (${requests.length} kinds of turn, ${tools.length} tools offered)`,
    );
    log(`    loopback model reply:   p50 ${us(b.p50)}, p99 ${us(b.p99)}`);
    return [
      {
        name: `built-in planner reply (p50 ${us(p.p50)}, p99 ${us(p.p99)}) vs a loopback model reply`,
        unit: 'reply',
        subject: median(rates.get('planner')!),
        baseline: median(rates.get('loopback model')!),
        subjectRates: rates.get('planner')!,
        baselineRates: rates.get('loopback model')!,
      },
    ];
  } finally {
    await server.close();
  }
}

// Run on its own: `node --import tsx test/src/bench/assistant-planner.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchAssistantPlanner({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
