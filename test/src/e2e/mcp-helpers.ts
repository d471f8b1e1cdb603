// Helpers for the agent-access suites: a person with a browser session, tokens issued over HTTP, and
// MCP clients that are the official SDK's Client + StreamableHTTPClientTransport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { browser } from '@tributary/test';
import assert from 'node:assert/strict';

export const password = 'correct horse battery staple';

/** Tool results and JSON bodies as the tests read them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

type Browser = ReturnType<typeof browser>;

export interface Person {
  browser: Browser;
  accountId: string;
  agentId: string;
}

export async function signUp(url: string, handle: string): Promise<Person> {
  const b = browser(url);
  const r = await b.post('/api/auth/signup', { handle, password, name: handle });
  assert.equal(r.status, 201, r.text);
  return { browser: b, accountId: r.json.accountId, agentId: r.json.agentId };
}

interface Issued {
  token: string;
  jti: string;
  scopes: string[];
  agentId: string;
  expiresAt: string;
  audience: string;
}

export async function issueToken(
  person: Person,
  body: {
    label?: string;
    scopes: string[];
    targetAgentId?: string;
    lifetimeSeconds?: number;
    client?: string;
  },
): Promise<Issued> {
  const r = await person.browser.post('/api/mcp/token', { label: 'test agent', ...body });
  assert.equal(r.status, 201, r.text);
  return r.json as Issued;
}

/** An SDK client connected to /api/mcp with a bearer and/or a cookie. */
export async function mcpClient(
  url: string,
  auth: { bearer?: string; cookie?: string; userAgent?: string } = {},
): Promise<Client> {
  const headers: Record<string, string> = {};
  if (auth.userAgent) headers['User-Agent'] = auth.userAgent;
  if (auth.bearer) headers.Authorization = `Bearer ${auth.bearer}`;
  if (auth.cookie) headers.Cookie = auth.cookie;
  const client = new Client({ name: 'tributary-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', url), { requestInit: { headers } }),
  );
  return client;
}

/** The stable error code of a failed tool call (`isError` result). */
export function errorCodeOf(result: unknown): string | undefined {
  const r = result as CallToolResult;
  assert.equal(r.isError, true, `expected a tool error, got ${JSON.stringify(r)}`);
  return (r.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
}

export function structured<T = Loose>(result: unknown): T {
  const r = result as CallToolResult;
  assert.notEqual(r.isError, true, `expected success, got ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}

/** A raw JSON-RPC POST, for what the SDK client would never send. */
export async function rawMcp(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL('/api/mcp', url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body,
  });
  const text = await res.text();
  let json: Loose = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: the assertions on json fail with a clear diff */
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A movable clock for expiry and sunset tests. */
export function movableClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance(ms: number) {
      offsetMs += ms;
    },
  };
}

/** The HTTP status and our error code of a call the transport refused (401 and friends). */
export async function refused(call: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  try {
    await call;
  } catch (e) {
    assert.ok(e instanceof StreamableHTTPError, `expected a transport error, got ${String(e)}`);
    const body = /\{.*\}$/s.exec(e.message)?.[0];
    return { status: e.code ?? 0, code: body ? JSON.parse(body).error?.data?.code : undefined };
  }
  assert.fail('the call succeeded');
}

/** A new persona of `person`, made over HTTP; its agent id. */
export async function createPersona(person: Person, name: string): Promise<string> {
  const r = await person.browser.post('/api/ops/svc.agent.create_persona', { name });
  assert.equal(r.status, 201, r.text);
  return r.json.result.agentId;
}

/** Deletes `person`'s persona over HTTP, with the password given again. */
export async function deletePersona(person: Person, personaId: string): Promise<void> {
  const r = await person.browser.post('/api/ops/svc.agent.delete_persona', {
    targetAgentId: personaId,
    password,
  });
  assert.equal(r.status, 201, r.text);
}

/** The agent a bearer acts as: what `svc.profile.read` answers for it over the MCP SDK client. */
export async function actsAs(url: string, bearer: string): Promise<string> {
  const client = await mcpClient(url, { bearer });
  try {
    return structured(await client.callTool({ name: 'svc.profile.read', arguments: {} })).agentId;
  } finally {
    await client.close();
  }
}
