// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node 22:
// npx fetches node@22 from the npm registry) against a running instance.
//
// The suite's server scenarios speak MCP without credentials, and /api/mcp requires a bearer. So the
// instance runs behind a small reverse proxy that adds `Authorization: Bearer <OAuth access token>`
// (obtained through the real consent flow) and passes everything else — Host and Origin included —
// through unchanged. BASE_URL is the proxy's address, as it would be behind a real reverse proxy, so
// the DNS-rebinding scenario tests the instance's own Host/Origin checks.
import { startTestInstance, type TestInstance } from '@tributary/test';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { signUp } from './mcp-helpers.js';
import { authorizeUrl, consent, registeredClient } from './oauth-helpers.js';

const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const CONFORMANCE_NODE = 'node@22';

interface Check {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  description?: string;
  errorMessage?: string;
}

/** An instance behind an authorizing reverse proxy; `mcpUrl` is what the suite is pointed at. */
export async function instanceBehindProxy(scope: string) {
  let bearer = '';
  let upstreamPort = 0;
  // The proxy listens first, on a port the kernel picks: BASE_URL is its address.
  const proxy = http.createServer((req, res) => {
    const headers = {
      ...req.headers,
      ...(bearer && !req.headers.authorization && { authorization: `Bearer ${bearer}` }),
    };
    const up = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.listen(0, '127.0.0.1');
  await new Promise((r) => proxy.once('listening', r));
  const publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  let instance: TestInstance;
  try {
    instance = await startTestInstance({ env: { BASE_URL: publicUrl } });
  } catch (e) {
    await new Promise((r) => proxy.close(r));
    throw e;
  }
  upstreamPort = (instance.server.address() as AddressInfo).port;

  // A person consents through the real pages; the client is openid-client.
  const person = await signUp(publicUrl, 'conformance');
  const config = await registeredClient(publicUrl);
  const a = await authorizeUrl(config, scope);
  const c = await consent(publicUrl, person, a.url);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(c.location!), {
    pkceCodeVerifier: a.verifier,
    expectedState: a.state,
  });
  bearer = tokens.access_token;
  return {
    instance,
    publicUrl,
    mcpUrl: `${publicUrl}/api/mcp`,
    async stop() {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      await instance.stop();
    },
  };
}

/** Runs one server scenario; resolves with its checks (from the suite's checks.json) and its output. */
export async function runServerScenario(
  mcpUrl: string,
  scenario: string,
  o: { timeoutMs?: number } = {},
): Promise<{ checks: Check[]; exitCode: number | null; output: string }> {
  const outDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const args = [
      '-y',
      '-p',
      CONFORMANCE_NODE,
      '-p',
      CONFORMANCE_PACKAGE,
      'conformance',
      'server',
      '--url',
      mcpUrl,
      '--scenario',
      scenario,
      '-o',
      outDir,
    ];
    const child = spawn('npx', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), o.timeoutMs ?? 300_000);
    const exitCode = await new Promise<number | null>((r) => child.on('close', r));
    clearTimeout(timer);
    const checks: Check[] = [];
    for (const entry of await readdir(outDir, { recursive: true })) {
      if (!entry.endsWith('checks.json')) continue;
      checks.push(...(JSON.parse(await readFile(join(outDir, entry), 'utf8')) as Check[]));
    }
    return { checks, exitCode, output };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
