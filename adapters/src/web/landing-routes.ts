// GET / — a small page saying what this instance is and where to go from here: for a person who opens
// the address in a browser, and for anyone checking which instance and key answer at it. The same for
// every visitor (no session is read), so it may be cached like the discovery documents.
import { Router } from 'express';
import { esc } from './html-page.js';
import { type HttpContext, CACHE_DOCUMENT, publicDocument } from '../http/index.js';

export function landingRoutes(ctx: HttpContext): Router {
  const r = Router();
  const base = ctx.baseUrl;
  const doc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  r.options('/', doc);
  r.get('/', doc, async (_req, res) => {
    const instance = await ctx.services.read.instance.get();
    const name = instance?.name ?? 'Tributary';
    const role = instance?.role ?? 'starting';
    const link = (path: string, text: string) => `<a href="${esc(path)}">${esc(text)}</a>`;
    res
      .setHeader(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .setHeader('X-Frame-Options', 'DENY')
      .type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(name)} · Tributary</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}
code{font-size:.95em;overflow-wrap:anywhere}li{margin:.3rem 0}.muted{color:#555}</style>
</head><body><h1>${esc(name)}</h1>
<p>A <strong>Tributary</strong> instance: a federated server where every change is a signed event in one append-only log.</p>
<dl>
<dt>Role</dt><dd data-field="role">${esc(role)}</dd>
<dt>Address</dt><dd data-field="base-url"><code>${esc(base)}</code></dd>
<dt>Instance id</dt><dd data-field="instance-id"><code>${esc(instance?.instanceId ?? '—')}</code></dd>
<dt>Signing key id</dt><dd data-field="key-id"><code>${esc(ctx.services.signer.keyId)}</code></dd>
</dl>
<h2>People</h2>
<ul>
<li>${link('/mcp/apps', 'Sign in')} to see and revoke the apps connected to your account.</li>
<li>${link('/mcp/authorize', 'Connect a device')} that shows you a code.</li>
</ul>
<h2>Agents and developers</h2>
<ul>
<li>MCP endpoint: <code data-field="mcp-endpoint">${esc(`${base}/api/mcp`)}</code> (Streamable HTTP; ${link('/.well-known/mcp', 'how to connect')})</li>
<li>${link('/llms.txt', '/llms.txt')}: the instance described for language models, with every tool.</li>
<li>${link('/api/openapi.json', 'HTTP API')} (OpenAPI) and ${link('/.well-known/oauth-authorization-server', 'OAuth metadata')}.</li>
</ul>
<h2>Federation</h2>
<ul>
<li>${link('/api/federation/manifest', 'Signed manifest')} (keys and endpoints) and the ${link('/api/federation/events', 'public event feed')}.</li>
</ul>
</body></html>`);
  });
  return r;
}
