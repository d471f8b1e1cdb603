// Helpers for the OAuth suites: openid-client configurations against a test instance and a person who
// consents through the real HTML form (hidden fields read from the page, posted form-encoded).
import assert from 'node:assert/strict';
import * as oidc from 'openid-client';
import type { Person } from './mcp-helpers.js';

export const insecure = { execute: [oidc.allowInsecureRequests] };
export const REDIRECT = 'http://127.0.0.1:9999/callback';
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export async function registeredClient(url: string, metadata: Partial<oidc.ClientMetadata> = {}) {
  return oidc.dynamicClientRegistration(
    new URL(url),
    { redirect_uris: [REDIRECT], client_name: 'Test Agent', token_endpoint_auth_method: 'none', ...metadata },
    oidc.None(),
    insecure,
  );
}

/** The hidden and selected fields of the page's first POST form to `action`. */
export function formFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `no form posting to ${action}`);
  const formHtml = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  const unesc = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  for (const m of formHtml.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g))
    fields[m[1]!] = unesc(m[2]!);
  const opt = /<option value="([^"]+)"/.exec(formHtml);
  if (opt) fields.persona = opt[1]!;
  return fields;
}

interface Consent {
  status: number;
  location: string | null;
  html: string;
}

/** GETs the authorize URL with the person's cookie, then posts the consent form. */
export async function consent(
  url: string,
  person: Person,
  authorizeUrl: URL,
  o: {
    decision?: 'approve' | 'deny';
    override?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<Consent> {
  const page = await fetch(authorizeUrl, { headers: { cookie: person.browser.cookie }, redirect: 'manual' });
  const html = await page.text();
  assert.equal(page.status, 200, html);
  const fields = {
    ...formFields(html, '/api/mcp/oauth/authorize'),
    decision: o.decision ?? 'approve',
    ...o.override,
  };
  const r = await fetch(`${url}/api/mcp/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: person.browser.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      origin: url,
      ...o.headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: r.status, location: r.headers.get('location'), html: await r.text() };
}

export async function authorizeUrl(
  config: oidc.Configuration,
  scope: string,
  extra: Record<string, string> = {},
): Promise<{ url: URL; verifier: string; state: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  return { url, verifier, state };
}

/** The RFC 6749 error code of an openid-client failure. */
export function oauthCode(e: unknown): string | undefined {
  return (
    (e as { error?: string; cause?: { error?: string } }).error ??
    (e as { cause?: { error?: string } }).cause?.error
  );
}

/** HTTP status of an MCP `ping` with this bearer: 200 while the token is good, 401 once it is not. */
export const mcpPing = (url: string, bearer: string) =>
  fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  }).then((r) => r.status);
