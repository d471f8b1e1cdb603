// The public reference site at /docs (docs/web.md#reference): what this instance is, how to connect an
// agent, the HTTP API rendered from the OpenAPI document the instance serves, the MCP tool catalogue
// with scopes, and the federation documents. Generated on each request from the same sources as
// /api/openapi.json, tools/list and the discovery documents, so it cannot drift from them.
import { catalogueOperations, type Operation } from '@tributary/services';
import { Router, type Request } from 'express';
import { openApiJson, type HttpContext } from '../http/index.js';
import {
  badge,
  card,
  describeScope,
  html,
  keyValues,
  pageViewer,
  sendHtml,
  table,
  type Html,
  type HtmlValue,
} from '../web/index.js';
import { openApiDocument } from './openapi.js';

const SECTIONS: readonly (readonly [string, string])[] = [
  ['/docs/guide', 'Start here'],
  ['/docs', 'This instance'],
  ['/docs/connect', 'Connect an agent'],
  ['/docs/api', 'HTTP API'],
  ['/docs/tools', 'MCP tools'],
  ['/docs/federation', 'Federation'],
];

const docsNav = (current: string): Html =>
  html`<nav aria-label="Reference" class="cluster tabs">
    ${SECTIONS.map(([href, label]) =>
      href === current
        ? html`<a href="${href}" aria-current="page" class="btn btn-primary">${label}</a>`
        : html`<a href="${href}" class="btn">${label}</a>`,
    )}
  </nav>`;

/** The tools an MCP client can be offered: operations enabled for a credential kind, never own-endpoint ones. */
export const toolCatalogue = (): Operation<unknown, unknown>[] =>
  catalogueOperations()
    .filter((op) => op.enabledFor.length > 0 && !op.ownEndpoint)
    .sort((a, b) => a.name.localeCompare(b.name));

/**
 * A label the guide quotes from a page (a button, a heading, a choice), marked so a test can check that
 * the page still says it (web-docs.test.ts): the guide names what a person will really see.
 */
const ui = (label: string): Html => html`<strong data-ui>${label}</strong>`;

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
}

export function docsPages(ctx: HttpContext): Router {
  const r = Router();
  const send = async (
    req: Request,
    res: Parameters<typeof sendHtml>[0],
    current: string,
    title: string,
    body: Html,
  ) =>
    sendHtml(res, 200, {
      title,
      viewer: await pageViewer(ctx, req),
      lede: 'Reference',
      body: html`${docsNav(current)}${body}`,
    });
  const code = (s: HtmlValue) => html`<code>${s}</code>`;
  const link = (path: string) => html`<a href="${path}"><code>${path}</code></a>`;

  // The guide for people: what they can do here, in their words, before any developer reference.
  r.get('/docs/guide', async (req, res) => {
    const instance = await ctx.services.instance.read.get();
    const noMail = ctx.services.mail?.transport.mode !== 'smtp';
    await sendHtml(res, 200, {
      title: `Start here: ${instance?.name ?? 'Tributary'}`,
      viewer: await pageViewer(ctx, req),
      lede: 'A guide for people',
      body: html`${docsNav('/docs/guide')}
        <p>
          Here you can make <strong>your own website</strong>, talk to <strong>an assistant</strong> that
          builds and changes it with you, and let <strong>your own AI agents</strong> work on your behalf —
          each with only the permissions you give it. Everything is yours: you can see what was done and undo
          access at any time.
        </p>
        <nav aria-label="In this guide">
          <ol>
            <li><a href="#account">Your account</a></li>
            <li><a href="#site">Your site</a></li>
            <li><a href="#assistant">Your assistant</a></li>
            <li><a href="#agent">Connecting an agent</a></li>
            <li><a href="#mail">Email from this instance</a></li>
          </ol>
        </nav>
        ${card(
          '1. Your account',
          html`<p>
            <a href="/signup">Create an account</a> with a name, a handle (how others find you, in lowercase:
            <code>ada</code>) and a password. Your <a href="/home">home page</a> shows who you are, your other
            identities — names you work under, for a project or a shop (personas, in the API) — and everything
            done in your name.
          </p>`,
          { id: 'account' },
        )}
        ${card(
          '2. Your site',
          html`<p>
              Open the <a href="/builder">Builder</a> and make your site: under ${ui('Start from')} pick
              ${ui('Blank')} or a template (${ui('A person')}, ${ui('A small shop')}, ${ui('A portfolio')},
              ${ui('An event')}), give it a ${ui('Title')} and press ${ui('Create site')}.
            </p>
            <p>
              The editor opens with a ${ui('Preview')} of the page beside it. Change the blocks the template
              gave you (${ui('Edit this block')}), move them, or add your own under ${ui('Add a block')}:
              text, headings, pictures, buttons, a contact form. What you type is saved as you go, and
              ${ui('Undo')} takes the last change back. The theme and the title are under
              ${ui('Site settings')}.
            </p>
            <p>
              Nothing is public until you publish (${ui('Publish…')}): the first publish gives the site its
              address, and ${ui('View site')} opens it. Under ${ui('Publish and versions')} you can go back to
              any earlier publish; under ${ui('Address and domains')} you can choose the address or
              ${ui('Connect domain')}: a domain you own.
            </p>`,
          { id: 'site' },
        )}
        ${card(
          '3. Your assistant',
          html`<p>
            The <a href="/assistant">Assistant</a> is a chat. Ask it for what you want (“add a page with our
            opening hours”) and it proposes a <strong>plan</strong>: the exact steps it would take. Nothing
            happens until you confirm the plan, and each plan runs once. To use it, connect an account with a
            model provider in <a href="/assistant/account">the assistant's account page</a>.
          </p>`,
          { id: 'assistant' },
        )}
        ${card(
          '4. Connecting an agent',
          html`<p>
              An agent — Claude, Cursor, VS Code, or a script of your own — talks to this instance over MCP.
              Give it a <strong>token</strong> on <a href="/access">Agent access</a>:
            </p>
            <ol>
              <li>Say what it is for, and whether it acts as you or as one of your identities.</li>
              <li>
                Choose what it may do: a preset (<em>read only</em>, <em>manage my site</em>,
                <em>everything</em>) or each permission by hand. It can do nothing else.
              </li>
              <li>Choose when it expires.</li>
              <li>
                Copy the ready-made configuration for your client. The token is shown once; you can revoke it
                on the same page, and see when it was last used.
              </li>
            </ol>
            <p>
              Clients that can sign in by themselves (OAuth) ask you to approve them instead; they appear
              under <a href="/mcp/apps">Connected apps</a>. The details for developers:
              <a href="/docs/connect">Connect an agent</a>.
            </p>`,
          { id: 'agent' },
        )}
        ${card(
          '5. Email from this instance',
          html`<p>
              The instance mails you a link to confirm your address, or to choose a new password, and tells
              you when a visitor sends one of your site's forms (new messages also show on your home page).
              ${
                noMail
                  ? html`<strong>This instance has no mail server</strong>, so it mails nothing: each message
                      waits in its <strong>outbox</strong>, where its operator can read it and pass the link
                      on.`
                  : 'It sends them through its mail server; check your spam folder if one does not arrive.'
              }
            </p>
            <p>
              <strong>For whoever runs the instance:</strong> mail is set up in its environment, not on a
              page. Set <code>SMTP_URL</code> to your mail server (<code>smtp://user:password@host:587</code>,
              or <code>smtps://…</code> for TLS from the start) and, if you like, <code>MAIL_FROM</code> (the
              sender, <code>Name &lt;address&gt;</code>), then restart the instance. The operator's
              <a href="/operator/settings">settings</a> then say <em>Mail sending: running</em>.
            </p>`,
          { id: 'mail' },
        )}
        <p>
          For developers: the <a href="/docs">reference</a> — the HTTP API, the MCP tools and the federation
          documents.
        </p>`,
    });
  });

  r.get('/docs', async (req, res) => {
    const instance = await ctx.services.instance.read.get();
    await send(
      req,
      res,
      '/docs',
      `${instance?.name ?? 'Tributary'}: reference`,
      html`<p>
          New here? <a href="/docs/guide"><strong>Start here</strong></a
          >: your site, your assistant and connecting an agent, in a few minutes.
        </p>
        <p>
          This is a <strong>Tributary</strong> instance: a federated server where every change — by a person
          on these pages, an agent over MCP, or a peer instance — is a signed event in one append-only log.
        </p>
        ${card(
          'This instance',
          keyValues([
            ['Name', instance?.name ?? '—'],
            ['Role', instance?.role ?? '—'],
            ['Address', code(ctx.baseUrl)],
            ['Instance id', code(instance?.instanceId ?? '—')],
            ['Signing key id', html`<code data-field="key-id">${ctx.services.signer.keyId}</code>`],
          ]),
        )}
        <div class="grid">
          ${card(
            'Connect an agent',
            html`<p>The MCP endpoint, OAuth sign-in, the device flow and scoped tokens.</p>
              <p><a href="/docs/connect">How to connect</a></p>`,
            { level: 3 },
          )}
          ${card(
            'HTTP API',
            html`<p>Every route, from the OpenAPI document this instance serves.</p>
              <p><a href="/docs/api">API reference</a></p>`,
            { level: 3 },
          )}
          ${card(
            'MCP tools',
            html`<p>${toolCatalogue().length} tools, with the scopes each needs.</p>
              <p><a href="/docs/tools">Tool catalogue</a></p>`,
            { level: 3 },
          )}
          ${card(
            'Federation',
            html`<p>The signed manifest, the public feed and the other documents peers read.</p>
              <p><a href="/docs/federation">Federation documents</a></p>`,
            { level: 3 },
          )}
        </div>`,
    );
  });

  r.get('/docs/connect', async (req, res) => {
    const b = ctx.baseUrl;
    await send(
      req,
      res,
      '/docs/connect',
      'Connect an agent',
      html`${card(
        'The MCP endpoint',
        html`<p>Tributary speaks the Model Context Protocol over Streamable HTTP at</p>
          <pre data-field="mcp-endpoint">${b}/api/mcp</pre>
          <p>
            An agent authenticates with a bearer token. Discovery: ${link('/.well-known/mcp')},
            ${link('/.well-known/oauth-protected-resource')} and ${link('/llms.txt')} (the instance and every
            tool, for language models).
          </p>`,
      )}
      ${card(
        'Option 1: a scoped token',
        html`<ol>
            <li>Sign in and open <a href="/access">Agent access</a>.</li>
            <li>
              Choose the scopes and, if you like, an identity the token acts as; issue it. It is shown once.
            </li>
            <li>
              Give it to your agent: <code>Authorization: Bearer &lt;token&gt;</code> on
              <code>${b}/api/mcp</code>.
            </li>
          </ol>
          <p>Revoke it on the same page at any time; it is refused at once.</p>`,
      )}
      ${card(
        'Option 2: OAuth (the app asks, you allow)',
        html`<p>
          An MCP client that supports OAuth 2.1 finds everything from the endpoint’s <code>401</code> answer:
          authorization server metadata at ${link('/.well-known/oauth-authorization-server')}, dynamic client
          registration (RFC 7591) or a Client ID Metadata Document, the authorization code flow with PKCE
          (S256). You sign in here, see what it asks for in plain words, choose which of your identities it
          acts as, and allow or deny. Connected apps are listed, and revocable, at
          <a href="/mcp/apps">/mcp/apps</a>.
        </p>`,
      )}
      ${card(
        'Option 3: the device flow (no browser on the agent’s side)',
        html`<p>
          A command-line agent asks for a code at <code>${b}/api/mcp/device/code</code> (RFC 8628), shows it
          to you, and polls the token endpoint. You open <a href="/mcp/authorize">/mcp/authorize</a>, sign in,
          type the code and approve.
        </p>`,
      )}
      ${card(
        'Scopes',
        html`<p>
          A token carries scopes such as ${code('svc.profile.read')}; a tool runs only when the token holds
          every scope the tool lists (see <a href="/docs/tools">the tool catalogue</a>). Every call, allowed
          or refused, is written to the provenance log, which the person sees on their home page.
        </p>`,
      )}`,
    );
  });

  r.get('/docs/api', async (req, res) => {
    const doc = openApiDocument(ctx.baseUrl) as {
      info?: { title?: string; version?: string };
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    const byTag = new Map<string, { method: string; path: string; op: OpenApiOperation }[]>();
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const tag = op.tags?.[0] ?? 'other';
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
      }
    const tags = [...byTag.keys()].sort();
    const count = [...byTag.values()].reduce((n, l) => n + l.length, 0);
    await send(
      req,
      res,
      '/docs/api',
      'HTTP API',
      html`<p>
          ${count} routes, rendered from <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI
          ${(doc as { openapi?: string }).openapi ?? '3'}), the document this instance serves. Errors are
          <code>application/problem+json</code> with a stable <code>code</code>. A browser session
          authenticates with its cookie; writes must come from this origin and be JSON.
        </p>
        <ul class="toc">
          ${tags.map((t) => html`<li><a href="#tag-${t}">${t}</a> (${byTag.get(t)!.length})</li>`)}
        </ul>
        ${tags.map((t) =>
          card(
            t,
            table({
              caption: `${t} routes`,
              head: ['Route', 'What', 'Operation'],
              rows: byTag
                .get(t)!
                .sort((x, y) => x.path.localeCompare(y.path) || x.method.localeCompare(y.method))
                .map((e) => [
                  html`<span class="method">${e.method.toUpperCase()}</span> <code>${e.path}</code>`,
                  html`${e.op.summary ?? ''}${e.op.security?.length ? html` ${badge('session', 'neutral')}` : ''}`,
                  e.op.operationId ? code(e.op.operationId) : '',
                ]),
            }),
            { id: `tag-${t}` },
          ),
        )}`,
    );
  });

  r.get('/docs/tools', async (req, res) => {
    const tools = toolCatalogue();
    const areas = [...new Set(tools.map((t) => t.name.split('.')[1]!))].sort();
    await send(
      req,
      res,
      '/docs/tools',
      'MCP tools',
      html`<p>
          ${tools.length} tools, from the catalogue that <code>tools/list</code> answers from. A caller sees
          only the tools its credential may call: the token must hold every listed scope;
          <em>operators only</em> tools need an operator of this instance.
        </p>
        <ul class="toc">
          ${areas.map((a) => html`<li><a href="#area-${a}">${a}</a></li>`)}
        </ul>
        ${areas.map((a) =>
          card(
            a,
            html`${tools
              .filter((t) => t.name.split('.')[1] === a)
              .map(
                (t) =>
                  html`<div class="op" id="${t.name}">
                    <h3><code>${t.name}</code></h3>
                    <p><strong>${t.title}.</strong> ${t.description}</p>
                    <p class="small">
                      Scopes:
                      ${t.scopes.length ? t.scopes.map((s, i) => html`${i ? ', ' : ''}<code data-scope>${s}</code> <span class="muted">(${describeScope(s)})</span>`) : 'none'}
                      · for
                      ${t.enabledFor.join(', ')}${t.controllerOnly ? html` · ${badge('operators only', 'warn')}` : ''}
                    </p>
                    <details>
                      <summary>Input<span class="visually-hidden"> of ${t.name}</span></summary>
                      <pre>${JSON.stringify(openApiJson(t.input), null, 2)}</pre>
                    </details>
                  </div>`,
              )}`,
            { id: `area-${a}` },
          ),
        )}`,
    );
  });

  r.get('/docs/federation', async (req, res) => {
    const docs: readonly (readonly [string, string])[] = [
      [
        '/api/federation/manifest',
        'The signed instance manifest: id, role, base URL, current and retired keys, endpoints.',
      ],
      [
        '/api/federation/events',
        'The public event feed: signed envelopes after a sequence number (?since=N&limit=L), in order.',
      ],
      ['/api/federation/status', 'A public summary: the feed head and the health of sync with each peer.'],
      ['/api/federation/query', 'Queries over public events (by type, stream, agent).'],
      ['/api/federation/registry', 'The public registry of agents known here, local and from peers.'],
      ['/.well-known/universal-manifest.json', 'The universal manifest of this instance.'],
      ['/.well-known/mcp', 'How to reach the MCP endpoint.'],
      ['/.well-known/oauth-authorization-server', 'OAuth authorization server metadata (RFC 8414).'],
    ];
    await send(
      req,
      res,
      '/docs/federation',
      'Federation',
      html`<p>
          Instances federate by reading each other’s feed and pushing signed events to each other; every
          request between peers is signed (RFC 9421) by a key the other side registered. The documents a peer
          (or anyone) reads:
        </p>
        ${table({ caption: 'Federation documents', head: ['Document', 'What'], rows: docs.map(([p, what]) => [link(p), what]) })}
        <p>
          The signing key id of this instance is
          <code data-field="key-id">${ctx.services.signer.keyId}</code>; an operator who adds this instance as
          a peer confirms it with its operator.
        </p>`,
    );
  });
  return r;
}
