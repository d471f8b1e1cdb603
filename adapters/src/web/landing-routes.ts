// GET / — a small page saying what this instance is and where to go from here: for a person who opens
// the address in a browser, and for anyone checking which instance and key answer at it. The same for
// every visitor (no session is read), so it may be cached like the discovery documents.
import { Router } from 'express';
import { type HttpContext, CACHE_DOCUMENT, publicDocument } from '../http/index.js';
import { card, linkButton } from './components.js';
import { html } from './html.js';
import { contentSecurityPolicy, renderPage } from './page-shell.js';

export function landingRoutes(ctx: HttpContext): Router {
  const r = Router();
  const base = ctx.baseUrl;
  const doc = publicDocument(ctx, { limit: 'discovery', cacheControl: CACHE_DOCUMENT });
  r.options('/', doc);
  r.get('/', doc, async (_req, res) => {
    const instance = await ctx.services.read.instance.get();
    const name = instance?.name ?? 'Tributary';
    const role = instance?.role ?? 'starting';
    const body = html`<p>
        A <strong>Tributary</strong> instance: a federated server where every change is a signed event in one
        append-only log.
      </p>
      <div class="cluster">
        ${linkButton('/signup', 'Create an account', 'primary')}${linkButton('/signin', 'Sign in')}${linkButton('/docs', 'Read the reference')}
      </div>
      ${card(
        'This instance',
        html`<dl class="kv">
          <dt>Role</dt>
          <dd data-field="role">${role}</dd>
          <dt>Address</dt>
          <dd data-field="base-url"><code>${base}</code></dd>
          <dt>Instance id</dt>
          <dd data-field="instance-id"><code>${instance?.instanceId ?? '—'}</code></dd>
          <dt>Signing key id</dt>
          <dd data-field="key-id"><code>${ctx.services.signer.keyId}</code></dd>
        </dl>`,
      )}
      <div class="grid">
        ${card(
          'People',
          html`<ul>
            <li><a href="/home">Your home page</a>: your personas and what your agents did.</li>
            <li><a href="/mcp/apps">Connected apps</a>: see and revoke the apps acting for you.</li>
            <li><a href="/mcp/authorize">Connect a device</a> that shows you a code.</li>
          </ul>`,
        )}
        ${card(
          'Agents and developers',
          html`<ul>
            <li>
              MCP endpoint: <code data-field="mcp-endpoint">${`${base}/api/mcp`}</code> (Streamable HTTP;
              <a href="/docs/connect">how to connect</a>, <a href="/.well-known/mcp">discovery document</a>)
            </li>
            <li>
              <a href="/llms.txt">/llms.txt</a>: the instance described for language models, with every tool.
            </li>
            <li>
              <a href="/docs/api">HTTP API</a> (<a href="/api/openapi.json">OpenAPI</a>) and
              <a href="/.well-known/oauth-authorization-server">OAuth metadata</a>.
            </li>
          </ul>`,
        )}
        ${card(
          'Federation',
          html`<ul>
            <li>
              <a href="/api/federation/manifest">Signed manifest</a> (keys and endpoints) and the
              <a href="/api/federation/events">public event feed</a>.
            </li>
            <li><a href="/docs/federation">The federation documents</a>.</li>
          </ul>`,
        )}
      </div>`;
    res
      .setHeader('Content-Security-Policy', contentSecurityPolicy())
      .setHeader('X-Frame-Options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: name, body, viewer: { instanceName: name, person: null } }));
  });
  return r;
}
