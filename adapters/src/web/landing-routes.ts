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
    const instance = await ctx.services.instance.read.get();
    const name = instance?.name ?? 'Tributary';
    const role = instance?.role ?? 'starting';
    const body = html`<p class="intro">
        Make <strong>your own website</strong>, ask <strong>an assistant</strong> to build and change it with
        you, and let <strong>your AI agents</strong> work for you — each with only the permissions you give
        it.
      </p>
      <div class="cluster">
        ${linkButton('/signup', 'Create an account', 'primary')}${linkButton('/signin', 'Sign in')}${linkButton('/docs/guide', 'How it works')}
      </div>
      <div class="grid">
        ${card(
          'Your website',
          html`<p>
            Build pages from blocks in the <a href="/builder">builder</a>, preview every change, publish when
            you are ready and go back to any earlier version.
          </p>`,
        )}
        ${card(
          'Your assistant',
          html`<p>
            Ask the <a href="/assistant">assistant</a> for what you want in plain words. It proposes a plan,
            and nothing happens until you confirm it.
          </p>`,
        )}
        ${card(
          'Your agents',
          html`<p>
            Connect Claude, Cursor or your own scripts with a token that can do only what you choose, and see
            everything they did.
          </p>`,
        )}
      </div>
      <p class="small muted">
        Under the hood, every change — by you, your agents or another instance — is signed and kept, so it can
        be checked and nothing is silently rewritten. Instances federate with each other.
      </p>
      <div class="grid">
        ${card(
          'People',
          html`<ul>
            <li>
              <a href="/home">Your home page</a>: who you are, the other names you work under and what was
              done for you.
            </li>
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
      </div>
      <details class="small instance-details">
        <summary>Technical details of this instance</summary>
        <dl class="kv">
          <dt>Role</dt>
          <dd data-field="role">${role}</dd>
          <dt>Address</dt>
          <dd data-field="base-url"><code>${base}</code></dd>
          <dt>Instance id</dt>
          <dd data-field="instance-id"><code>${instance?.instanceId ?? '—'}</code></dd>
          <dt>Signing key id</dt>
          <dd data-field="key-id"><code>${ctx.services.signer.keyId}</code></dd>
        </dl>
      </details>`;
    res
      .setHeader('Content-Security-Policy', contentSecurityPolicy())
      .setHeader('X-Frame-Options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(renderPage({ title: name, body, viewer: { instanceName: name, person: null } }));
  });
  return r;
}
