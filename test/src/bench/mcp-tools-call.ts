// Benchmark: MCP `tools/call` of a read tool through the whole stack, against a bare SDK server.
//
//   subject  — `svc.profile.read` on a running instance's /api/mcp: Host/Origin checks, bearer → scoped
//              token (JWT + token record), scope check, actor resolution, the tool, and the provenance
//              entry appended to the signed log (its own transaction);
//   baseline — an `McpServer` of the official SDK with one equivalent tool (returns the same profile
//              object from memory) and no auth, served the SDK's documented stateless way (a server and
//              a transport per request, JSON responses), in the same process.
//
// Clients: 10 concurrent official SDK clients per arm (`Client` + `StreamableHTTPClientTransport`), each
// connected once before timing; a round is every client calling the tool N times back to back. Arms
// alternate (A B A B …); the rate is the median of rounds; p50/p99 are over every timed call of an arm.
//
//   benchMcpToolsCall(ctx?) → Promise<McpBenchRow[]>  (ctx: optional rounds/scale/log of bench-kit)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express from 'express';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { median, type ResultRow } from './bench-kit.js';
import { z } from 'zod';
import { browser, startTestInstance } from '../harness/instance.js';

const CLIENTS = 10;
const TOOL = 'svc.profile.read';
const MCP_TOOLS_CALL_TARGET = 0.5;

type McpBenchRow = ResultRow & {
  ratio: number;
  target: number;
  latencyMs: { subject: { p50: number; p99: number }; baseline: { p50: number; p99: number } };
  note: string;
};

interface McpBenchOptions {
  rounds?: number;
  scale?: number;
  log?: (line: string) => void;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function connect(url: URL, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'tributary-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** The baseline: the SDK's stateless Streamable HTTP server with one tool and no auth. */
async function startBareServer(
  profile: Record<string, unknown>,
): Promise<{ url: URL; close(): Promise<void> }> {
  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const server = new McpServer({ name: 'bare', version: '1.0.0' });
    server.registerTool(
      TOOL,
      {
        description: 'The profile of the acting agent.',
        inputSchema: { targetAgentId: z.string().optional() },
      },
      async () => ({
        content: [{ type: 'text', text: JSON.stringify(profile) }],
        structuredContent: profile,
      }),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.all('/mcp', (_req, res) => {
    res
      .status(405)
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ArmState {
  clients: Client[];
  rates: number[];
  latencies: number[];
}

async function round(arm: ArmState, perClient: number, timed: boolean): Promise<void> {
  const started = performance.now();
  await Promise.all(
    arm.clients.map(async (client) => {
      for (let i = 0; i < perClient; i++) {
        const t = performance.now();
        const r = await client.callTool({ name: TOOL, arguments: {} });
        if (r.isError) throw new Error(`tool failed: ${JSON.stringify(r.content)}`);
        if (timed) arm.latencies.push(performance.now() - t);
      }
    }),
  );
  if (timed) arm.rates.push((arm.clients.length * perClient) / ((performance.now() - started) / 1000));
}

export async function benchMcpToolsCall(options: McpBenchOptions = {}): Promise<McpBenchRow[]> {
  const rounds = options.rounds ?? 3;
  const perClient = Math.max(20, Math.round(200 * (options.scale ?? 1)));
  const log = options.log ?? (() => undefined);

  const instance = await startTestInstance({ env: { DATABASE_POOL_SIZE: '20' } });
  const clients: Client[] = [];
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    // Setup (untimed): a person and a token that may read profiles, and the same profile for the baseline.
    const person = browser(instance.url);
    const signedUp = await person.post('/api/auth/signup', {
      handle: 'bench',
      password: 'benchmark password',
    });
    if (signedUp.status !== 201) throw new Error(`sign-up failed: ${signedUp.text}`);
    const issued = await person.post('/api/mcp/token', { label: 'bench', scopes: ['svc.profile.read'] });
    if (issued.status !== 201) throw new Error(`token issue failed: ${issued.text}`);
    const profile = (await instance.instance.services.agents.read.agent(
      signedUp.json.agentId,
    )) as unknown as Record<string, unknown>;
    bare = await startBareServer(profile);

    const subject: ArmState = { clients: [], rates: [], latencies: [] };
    const baseline: ArmState = { clients: [], rates: [], latencies: [] };
    for (let c = 0; c < CLIENTS; c++) {
      subject.clients.push(
        await connect(new URL('/api/mcp', instance.url), { Authorization: `Bearer ${issued.json.token}` }),
      );
      baseline.clients.push(await connect(bare.url, {}));
    }
    clients.push(...subject.clients, ...baseline.clients);

    await round(subject, Math.ceil(perClient / 4), false);
    await round(baseline, Math.ceil(perClient / 4), false);
    for (let i = 0; i < rounds; i++) {
      await round(subject, perClient, true);
      await round(baseline, perClient, true);
    }

    const lat = (arm: ArmState) => {
      const sorted = [...arm.latencies].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const row: McpBenchRow = {
      name: 'mcp tools/call, full stack vs bare SDK server',
      unit: 'req',
      subject: median(subject.rates),
      baseline: median(baseline.rates),
      ratio: median(subject.rates) / median(baseline.rates),
      target: MCP_TOOLS_CALL_TARGET,
      subjectRates: subject.rates,
      baselineRates: baseline.rates,
      latencyMs: { subject: lat(subject), baseline: lat(baseline) },
      note: '',
    };
    const ms = (n: number) => n.toFixed(2);
    row.note =
      `${CLIENTS} SDK clients; p50/p99 ${ms(row.latencyMs.subject.p50)}/${ms(row.latencyMs.subject.p99)} ms ` +
      `vs ${ms(row.latencyMs.baseline.p50)}/${ms(row.latencyMs.baseline.p99)} ms`;
    log(
      `    subject ${Math.round(row.subject)} req/s, baseline ${Math.round(row.baseline)} req/s, ratio ` +
        `${row.ratio.toFixed(2)} (target ≥ ${MCP_TOOLS_CALL_TARGET}); ${row.note}`,
    );
    return [row];
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await bare?.close();
    await instance.destroy();
  }
}

// Run on its own: `node --import tsx test/src/bench/mcp-tools-call.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchMcpToolsCall({
    rounds: Number(process.env.BENCH_ROUNDS ?? 5),
    scale: Number(process.env.BENCH_SCALE ?? 1),
    log: (l) => console.log(l),
  });
  console.log(JSON.stringify(rows, null, 2));
}
