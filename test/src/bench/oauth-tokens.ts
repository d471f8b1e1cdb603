// Benchmark: OAuth tokens against directly issued ones, same instance, same run (the bar: ≥ 0.8×).
//
//   oauth-refresh-grant — subject: POST /api/mcp/oauth/token grant_type=refresh_token (rotation: a JWT,
//                         a token record and a refresh link in one append); baseline: POST /api/mcp/token
//                         (direct issue with a session: a JWT and a token record).
//   oauth-mcp-call      — subject: `svc.profile.read` on /api/mcp with an OAuth access token; baseline: the
//                         same call with a directly issued token.
//
// 10 concurrent workers per arm; arms alternate (A B A B …); the rate is the median of rounds.
//
//   benchOAuthTokens(ctx?) → Promise<OAuthBenchRow[]>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oidc from 'openid-client';
import { performance } from 'node:perf_hooks';
import { median, type ResultRow } from './bench-kit.js';
import { startTestInstance } from '../harness/instance.js';
import { issueToken, signUp } from '../e2e/mcp-helpers.js';
import { authorizeUrl, consent, registeredClient } from '../e2e/oauth-helpers.js';

const WORKERS = 10;
const OAUTH_TOKENS_TARGET = 0.8;

type OAuthBenchRow = ResultRow & { ratio: number; target: number };

/** Runs `op(worker)` `perWorker` times on each worker concurrently; returns operations per second. */
async function rate(perWorker: number, op: (w: number) => Promise<void>): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = 0; i < perWorker; i++) await op(w);
    }),
  );
  return (WORKERS * perWorker) / ((performance.now() - started) / 1000);
}

async function compare(
  rounds: number,
  perWorker: number,
  subject: (w: number) => Promise<void>,
  baseline: (w: number) => Promise<void>,
) {
  await rate(Math.max(1, perWorker / 5), subject); // warm-up
  await rate(Math.max(1, perWorker / 5), baseline);
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    s.push(await rate(perWorker, subject));
    b.push(await rate(perWorker, baseline));
  }
  return { subject: median(s), baseline: median(b), subjectRates: s, baselineRates: b };
}

export async function benchOAuthTokens(
  o: { rounds?: number; scale?: number; log?: (l: string) => void } = {},
): Promise<OAuthBenchRow[]> {
  const rounds = o.rounds ?? 3;
  const perWorker = Math.max(5, Math.round(30 * (o.scale ?? 1)));
  const instance = await startTestInstance();
  try {
    const url = instance.url;
    const ada = await signUp(url, 'bench');
    const config = await registeredClient(url);
    const refresh: string[] = [];
    const oauthAccess: string[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const a = await authorizeUrl(config, 'svc.profile.read');
      const c = await consent(url, ada, a.url);
      const t = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
        pkceCodeVerifier: a.verifier,
        expectedState: a.state,
      });
      refresh.push(t.refresh_token!);
      oauthAccess.push(t.access_token);
    }
    const clientId = config.clientMetadata().client_id;
    const refreshOnce = async (w: number) => {
      const r = await fetch(`${url}/api/mcp/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refresh[w]!,
          client_id: clientId,
        }),
      });
      if (r.status !== 200) throw new Error(`refresh: ${r.status} ${await r.text()}`);
      refresh[w] = ((await r.json()) as { refresh_token: string }).refresh_token;
    };
    const issueOnce = async () => {
      await issueToken(ada, { scopes: ['svc.profile.read'], label: 'bench' });
    };
    o.log?.('[bench] oauth-refresh-grant');
    const grants = await compare(rounds, perWorker, refreshOnce, issueOnce);

    const connectAll = async (tokens: readonly string[]) =>
      Promise.all(
        tokens.map(async (t) => {
          const client = new Client({ name: 'bench', version: '1.0.0' });
          await client.connect(
            new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
              requestInit: { headers: { Authorization: `Bearer ${t}` } },
            }),
          );
          return client;
        }),
      );
    const direct = await Promise.all(
      Array.from({ length: WORKERS }, () =>
        issueToken(ada, { scopes: ['svc.profile.read'], label: 'bench' }),
      ),
    );
    const oauthClients = await connectAll(oauthAccess);
    const directClients = await connectAll(direct.map((d) => d.token));
    const call = (clients: Client[]) => async (w: number) => {
      const r = await clients[w]!.callTool({ name: 'svc.profile.read', arguments: {} });
      if (r.isError) throw new Error(JSON.stringify(r.content));
    };
    o.log?.('[bench] oauth-mcp-call');
    const calls = await compare(rounds, perWorker, call(oauthClients), call(directClients));
    await Promise.all([...oauthClients, ...directClients].map((c) => c.close()));

    return [
      {
        name: 'oauth-refresh-grant',
        unit: 'grants',
        ...grants,
        ratio: grants.subject / grants.baseline,
        target: OAUTH_TOKENS_TARGET,
      },
      {
        name: 'oauth-mcp-call',
        unit: 'calls',
        ...calls,
        ratio: calls.subject / calls.baseline,
        target: OAUTH_TOKENS_TARGET,
      },
    ];
  } finally {
    await instance.stop();
  }
}
