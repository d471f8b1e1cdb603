// Agent access: the person's scoped MCP tokens — issue one with chosen scopes for themselves or one of
// their identities (personas in the API; the token is shown once), see each with when it was last used, revoke it — and a way to the
// OAuth apps connected to the account (/mcp/apps). The same operations as POST /api/mcp/token and the
// svc.tokens.* tools.
import { isDomainError, scopeGrantable, type DomainError } from '@tributary/domain';
import {
  issueToken,
  listPersonas,
  listTokens,
  revokeToken,
  TOKEN_DEFAULT_LIFETIME_SECONDS,
  TOKEN_MAX_LIFETIME_SECONDS,
} from '@tributary/services';
import { parse as parseCookies } from 'cookie';
import { Router, type Request, type Response } from 'express';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { runOperation, sessionToken, STATUS_OF_KIND, type HttpContext } from '../http/index.js';
import {
  badge,
  button,
  card,
  csrfField,
  field,
  notice,
  postButton,
  problemNotice,
  secretBox,
  selectField,
  table,
  when,
  type BadgeKind,
} from './components.js';
import { describeScope, tokenStatusWords } from './html-page.js';
import { html, raw } from './html.js';
import {
  fieldErrors,
  formList,
  formText,
  pageErrors,
  pageFormBody,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';

const DAY = 24 * 60 * 60;
const LIFETIMES: readonly (readonly [string, string])[] = [
  [String(DAY), '1 day'],
  [String(7 * DAY), '7 days'],
  [String(30 * DAY), '30 days'],
  [String(90 * DAY), '90 days (the longest)'],
  ['date', 'Until a date I choose'],
];
const STATUS_BADGE: Record<string, BadgeKind> = {
  active: 'ok',
  expired: 'neutral',
  revoked: 'danger',
  persona_deleted: 'warn',
};
const NOTICES: Record<string, string> = {
  'token-revoked': 'Token revoked: it is refused from now on.',
  // After the one showing: a reload lands here with the cookie already spent.
  'token-issued':
    'Your new token was shown once and is not shown again. Lost it? Revoke it and issue another.',
};

/** Scopes grouped by what they reach; a scope of an area in no group is listed under "Other". */
const SCOPE_GROUPS: readonly { id: string; title: string; hint: string; areas: readonly string[] }[] = [
  {
    id: 'sites',
    title: 'Sites',
    hint: 'your websites, worlds and their manifests',
    areas: ['builder', 'spatial', 'manifest'],
  },
  {
    id: 'assistant',
    title: 'Assistant',
    hint: 'your conversations and the plans it runs',
    areas: ['assistant'],
  },
  {
    id: 'agents',
    title: 'Agents',
    hint: 'you, your identities, their profiles, tokens and history',
    areas: ['agent', 'profile', 'tokens', 'audit', 'log', 'sso', 'account'],
  },
  { id: 'payments', title: 'Payments', hint: 'your wallet', areas: ['wallet'] },
  {
    id: 'instance',
    title: 'Instance',
    hint: 'this instance and its federation',
    areas: ['instance', 'federation', 'admin'],
  },
];
const areaOf = (scope: string) => scope.split('.')[1] ?? '';

/** The presets a person starts from; `custom` keeps the boxes they ticked. */
const PRESETS: readonly (readonly [string, string])[] = [
  ['custom', 'Choose below'],
  ['read', 'Read only: everything it may see, nothing it may change'],
  ['site', 'Manage my site: sites, worlds and manifests, and who you are'],
  ['all', 'Everything you may grant'],
];
const SITE_PRESET = new Set([
  'svc.builder.read',
  'svc.builder.write',
  'svc.spatial.read',
  'svc.spatial.write',
  'svc.manifest.read',
  'svc.manifest.write',
  'svc.profile.read',
  'svc.agent.read',
  'svc.instance.read',
]);
function presetScopes(preset: string, grantable: readonly string[]): string[] | null {
  if (preset === 'read') return grantable.filter((s) => s.endsWith('.read'));
  if (preset === 'site') return grantable.filter((s) => SITE_PRESET.has(s));
  if (preset === 'all') return [...grantable];
  return null;
}

/** The expiry date field (YYYY-MM-DD) as a lifetime: the token lasts to the end of that day, UTC. */
function lifetimeUntil(date: string, now: Date): number {
  const end = Date.parse(`${date}T23:59:59Z`);
  // Not a date: a lifetime the operation refuses, so the field shows why.
  return Number.isFinite(end) ? Math.ceil((end - now.getTime()) / 1000) : 0;
}

/**
 * What a few common MCP clients expect, ready to paste: each names the endpoint and the token.
 * Formats: docs/agent-access.md#clients.
 */
function clientConfigs(endpoint: string, token: string, name: string): [string, string, string][] {
  const header = `Bearer ${token}`;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    [
      'claude-code',
      'Claude Code (a command)',
      `claude mcp add --transport http ${name} ${endpoint} --header "Authorization: ${header}"`,
    ],
    [
      'cursor',
      'Cursor (~/.cursor/mcp.json) and other clients that speak Streamable HTTP',
      json({ mcpServers: { [name]: { url: endpoint, headers: { Authorization: header } } } }),
    ],
    [
      'vscode',
      'VS Code (.vscode/mcp.json)',
      json({ servers: { [name]: { type: 'http', url: endpoint, headers: { Authorization: header } } } }),
    ],
    [
      'claude-desktop',
      'Claude Desktop (claude_desktop_config.json, through mcp-remote)',
      json({
        mcpServers: {
          [name]: {
            command: 'npx',
            args: ['-y', 'mcp-remote', endpoint, '--header', `Authorization: ${header}`],
          },
        },
      }),
    ],
  ];
}

interface Issued {
  token: string;
  label: string;
  scopes: string[];
  expiresAt: string;
}

// The new token rides from the POST to the page it is shown on in a short-lived cookie, sealed with a
// key derived from the session secret (so only this session can open it) and cleared on that showing:
// a reload shows nothing and mints nothing.
const ISSUED_COOKIE = 'svc_new_token';
const ISSUED_SECONDS = 120;
const sealKey = (sessionSecret: string) => createHash('sha256').update(`new-token:${sessionSecret}`).digest();
function seal(issued: Issued, sessionSecret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', sealKey(sessionSecret), iv);
  const body = Buffer.concat([c.update(JSON.stringify(issued), 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}
function unseal(sealed: string, sessionSecret: string): Issued | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const d = createDecipheriv('aes-256-gcm', sealKey(sessionSecret), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    return JSON.parse(text) as Issued;
  } catch {
    return null;
  }
}

export function accessPages(ctx: HttpContext): Router {
  const r = Router();
  const body = pageFormBody(ctx);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.cookie.secure,
    path: '/access',
  };

  async function page(
    req: Request,
    res: Response,
    person: PagePerson,
    o: {
      status?: number;
      issued?: Issued;
      error?: DomainError;
      values?: {
        label: string;
        scopes: string[];
        preset: string;
        as: string;
        lifetime: string;
        expiresOn: string;
        client: string;
      };
    } = {},
  ) {
    const p = person.principal;
    const [me, personas, tokens] = await Promise.all([
      ctx.services.agents.read.agent(p.agentId),
      runOperation(ctx, listPersonas, {}, p).then((x) => x.result.personas),
      runOperation(ctx, listTokens, {}, p).then((x) => x.result.tokens),
    ]);
    const nameOf = (agentId: string) =>
      agentId === p.agentId
        ? `you (${me?.name ?? 'your agent'})`
        : (personas.find((x) => x.agentId === agentId)?.name ?? 'a deleted identity');
    const v = o.values ?? {
      label: '',
      scopes: [],
      preset: 'custom',
      as: p.agentId,
      lifetime: String(TOKEN_DEFAULT_LIFETIME_SECONDS),
      expiresOn: '',
      client: '',
    };
    const errors = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    const scopeError =
      errors.scopes ??
      (o.error?.code === 'token.scopes_required'
        ? 'Choose at least one thing it may do, or a preset.'
        : undefined);
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    const grantable = grantableScopes(ctx.services.config.scopesSupported, person.isOperator);
    const endpoint = `${ctx.baseUrl}/api/mcp`;
    const today = ctx.services.clock.now().toISOString().slice(0, 10);
    const lastDay = new Date(ctx.services.clock.now().getTime() + TOKEN_MAX_LIFETIME_SECONDS * 1000)
      .toISOString()
      .slice(0, 10);
    const groups = [
      ...SCOPE_GROUPS.map((g) => ({ ...g, scopes: grantable.filter((s) => g.areas.includes(areaOf(s))) })),
      {
        id: 'other',
        title: 'Other',
        hint: 'scopes of no group above',
        areas: [],
        scopes: grantable.filter((s) => !SCOPE_GROUPS.some((g) => g.areas.includes(areaOf(s)))),
      },
    ].filter((g) => g.scopes.length);
    sendPersonPage(
      res,
      person,
      {
        title: 'Agent access',
        current: '/access',
        scripts: ['access.js'],
        lede: 'Tokens let an agent (an MCP client, a script) act for you or one of your identities, with only what you allow.',
        body: html` ${NOTICES[key] && !(key === 'token-issued' && o.issued) ? notice(key === 'token-issued' ? 'info' : 'success', html`<p>${NOTICES[key]}</p>`) : ''}
        ${
          o.issued
            ? html`${secretBox({ id: 'new-token', label: `Your new token “${o.issued.label}”`, value: o.issued.token })}
              ${notice('info', html`<p>It can ${o.issued.scopes.map((s) => describeScope(s)).join('; ')}. It works until ${when(o.issued.expiresAt)}.</p>`)}
              ${card(
                'Connect your agent',
                html`<p>
                    Your agent sends the token as <code>Authorization: Bearer …</code> to
                    <code>${endpoint}</code>. Ready to paste for some common clients (each holds the token:
                    keep it private):
                  </p>
                  ${clientConfigs(endpoint, o.issued.token, configName(ctx.baseUrl)).map(
                    ([id, label, text]) =>
                      html`<details class="client-config">
                        <summary>${label}</summary>
                        <pre id="config-${id}">${text}</pre>
                        <p><button type="button" class="btn" data-copy="config-${id}" hidden>Copy</button></p>
                      </details>`,
                  )}
                  <p class="small">
                    <a href="/docs/connect">How to connect an agent</a>, in the reference.
                  </p>`,
                { id: 'connect' },
              )}`
            : ''
        }
        ${card(
          'Your tokens',
          table({
            caption: 'Your tokens',
            stack: true,
            head: ['Token', 'Acts as', 'May', 'Status', 'Last used', ''],
            rows: tokens.map((t) => [
              html`<strong>${t.label}</strong
                >${t.client ? html`<br /><span class="small muted">held by ${t.client}</span>` : ''}<br /><span
                  class="small muted"
                  >created ${when(t.createdAt)}</span
                >`,
              nameOf(t.agentId),
              t.scopes.length
                ? html`<ul class="plain small">
                    ${t.scopes.map((s) => html`<li>${describeScope(s)} <code class="muted">${s}</code></li>`)}
                  </ul>`
                : html`<span class="muted">nothing</span>`,
              html`${badge(tokenStatusWords(t.status), STATUS_BADGE[t.status] ?? 'neutral')}${t.status === 'active' ? html`<br /><span class="small muted">until ${when(t.expiresAt)}</span>` : ''}`,
              html`${when(t.lastUsedAt)}${t.lastUsedClient ? html`<br /><span class="small muted">from ${t.lastUsedClient}</span>` : ''}`,
              t.status === 'active'
                ? postButton({
                    action: '/access/revoke',
                    csrf: person.csrf,
                    label: html`Revoke<span class="visually-hidden"> ${t.label}</span>`,
                    fields: { jti: t.jti },
                    kind: 'danger',
                    confirm: `Revoke “${t.label}”? Agents using it are refused at once.`,
                  })
                : '',
            ]),
            empty: 'No tokens yet. Issue one below.',
          }),
          { id: 'tokens' },
        )}
        ${card(
          'Issue a token',
          // The failed form comes back as a new page: focus (and the form's #errors) bring the reader to
          // what went wrong instead of the top of a page that looks unchanged.
          html`${
              o.error
                ? html`<div id="errors" tabindex="-1" autofocus>
                    ${
                      o.error.code === 'input.invalid' || o.error.code === 'token.scopes_required'
                        ? notice(
                            'error',
                            html`<p><strong>Please correct the fields marked below.</strong></p>
                              <p class="small muted">
                                Error code: <code data-error-code="${o.error.code}">${o.error.code}</code>
                              </p>`,
                          )
                        : problemNotice(o.error, 'Could not issue the token.')
                    }
                  </div>`
                : ''
            }
            <form method="post" action="/access/tokens#errors" novalidate data-token-form>
              ${csrfField(person.csrf)}
              ${field({ name: 'label', label: 'What it is for', value: v.label, required: true, maxlength: 100, hint: 'Shown in this list, e.g. “laptop agent”.', error: errors.label })}
              ${selectField({ name: 'as', label: 'Acts as', value: v.as, options: [[p.agentId, `You (${me?.name ?? 'your agent'})`], ...personas.map((x) => [x.agentId, `${x.name}${x.handle ? ` (@${x.handle})` : ''}`] as const)], hint: 'A token bound to an identity acts only as that identity.', error: errors.targetAgentId })}
              <fieldset class="field${scopeError ? ' has-error' : ''}" id="scopes">
                <legend>What it may do</legend>
                <span class="hint">Start from a preset, or tick what it needs. It can do nothing else.</span>
                ${scopeError ? html`<span class="error" id="scopes-error">${scopeError}</span>` : ''}
                <div class="checks presets">
                  ${PRESETS.map(
                    ([value, label]) =>
                      html`<label class="check"
                        ><input
                          type="radio"
                          name="preset"
                          value="${value}"
                          data-scopes="${(presetScopes(value, grantable) ?? []).join(' ')}"
                          ${v.preset === value ? raw(' checked') : ''}
                        /><span>${label}</span></label
                      >`,
                  )}
                </div>
                ${groups.map(
                  (g) =>
                    html`<fieldset class="scope-group">
                      <legend>${g.title} <span class="small muted">— ${g.hint}</span></legend>
                      <div class="checks">
                        ${g.scopes.map(
                          (sc) =>
                            html`<label class="check"
                              ><input
                                type="checkbox"
                                name="scopes"
                                value="${sc}"
                                ${v.scopes.includes(sc) ? raw(' checked') : ''}
                              /><span
                                >${sc.endsWith('.read') ? badge('read') : badge('write', 'warn')}
                                ${describeScope(sc)}<br /><code class="small muted">${sc}</code></span
                              ></label
                            >`,
                        )}
                      </div>
                    </fieldset>`,
                )}
              </fieldset>
              ${selectField({ name: 'lifetime', label: 'Expires', value: v.lifetime, options: LIFETIMES, error: v.lifetime === 'date' ? undefined : errors.lifetimeSeconds })}
              ${field({ name: 'expires_on', label: 'Expiry date (with “Until a date I choose”)', type: 'date', value: v.expiresOn, hint: `The token works until the end of that day (UTC); at most ${TOKEN_MAX_LIFETIME_SECONDS / DAY} days from now.`, attrs: `min="${today}" max="${lastDay}"`, error: v.lifetime === 'date' ? errors.lifetimeSeconds && 'Choose a date from today up to 90 days ahead.' : undefined })}
              ${field({ name: 'client', label: 'Agent or app (optional)', value: v.client, maxlength: 100, hint: 'Who will hold it, for your own reference.', error: errors.client })}
              <div class="actions">${button('Issue token', { kind: 'primary' })}</div>
            </form>`,
          { id: 'issue' },
        )}
        ${card('Connected apps', html`<p>Apps you connected through OAuth (sign-in with this instance, or a device code) hold their own tokens: <a href="/mcp/apps">see and revoke connected apps</a>.</p>`, { id: 'apps' })}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/access', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (!person) return;
    const sealed = parseCookies(req.headers.cookie ?? '')[ISSUED_COOKIE];
    const secret = sessionToken(req, ctx.cookie);
    const issued = sealed && secret ? unseal(sealed, secret) : null;
    // Shown on this answer only: the cookie is spent whether or not it opened.
    if (sealed) res.clearCookie(ISSUED_COOKIE, cookieOptions);
    await page(req, res, person, issued ? { issued } : {});
  });

  // Post, redirect, show once: the token travels to the GET in the sealed cookie above, never in a URL.
  r.post('/access/tokens', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const values = {
      label: formText(req, 'label').trim(),
      scopes: formList(req, 'scopes'),
      preset: formText(req, 'preset') || 'custom',
      as: formText(req, 'as'),
      lifetime: formText(req, 'lifetime'),
      expiresOn: formText(req, 'expires_on').trim(),
      client: formText(req, 'client').trim(),
    };
    const scopes =
      presetScopes(values.preset, grantableScopes(ctx.services.config.scopesSupported, person.isOperator)) ??
      values.scopes;
    const lifetimeSeconds =
      values.lifetime === 'date'
        ? lifetimeUntil(values.expiresOn, ctx.services.clock.now())
        : values.lifetime
          ? Number(values.lifetime)
          : undefined;
    try {
      const { result } = await runOperation(
        ctx,
        issueToken,
        {
          label: values.label,
          scopes,
          ...(values.as && values.as !== person.principal.agentId && { targetAgentId: values.as }),
          ...(lifetimeSeconds !== undefined && { lifetimeSeconds }),
          ...(values.client && { client: values.client }),
        },
        person.principal,
      );
      const issued: Issued = {
        token: result.token,
        label: result.label,
        scopes: result.scopes,
        expiresAt: result.expiresAt,
      };
      res.cookie(ISSUED_COOKIE, seal(issued, sessionToken(req, ctx.cookie)!), {
        ...cookieOptions,
        maxAge: ISSUED_SECONDS * 1000,
      });
      res.redirect(303, '/access?notice=token-issued#new-token-label');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await page(req, res, person, {
        status: STATUS_OF_KIND[e.kind] ?? 400,
        error: e,
        values: { ...values, scopes },
      });
    }
  });

  r.post('/access/revoke', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    await runOperation(ctx, revokeToken, { jti: formText(req, 'jti') }, person.principal);
    redirectWithNotice(res, '/access', 'token-revoked');
  });
  r.use(pageErrors(ctx));
  return r;
}

/** The scopes a person may put on a token, in order: svc.admin only for an operator. */
function grantableScopes(supported: readonly string[], isOperator: boolean): string[] {
  return [...supported].filter((s) => scopeGrantable(s, { isInstanceController: isOperator })).sort();
}

/** A name for this instance's entry in a client's configuration: its host, in the characters they allow. */
const configName = (baseUrl: string) =>
  new URL(baseUrl).host.replace(/[^a-zA-Z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'tributary';
