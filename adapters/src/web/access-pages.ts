// Agent access: the person's scoped MCP tokens — issue one with chosen scopes for themselves or a
// persona (the token is shown once), see each with when it was last used, revoke it — and a way to the
// OAuth apps connected to the account (/mcp/apps). The same operations as POST /api/mcp/token and the
// svc.tokens.* tools.
import { isDomainError, type DomainError } from '@tributary/domain';
import {
  issueToken,
  listPersonas,
  listTokens,
  revokeToken,
  TOKEN_DEFAULT_LIFETIME_SECONDS,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import {
  badge,
  button,
  card,
  checkboxes,
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
import { describeScope } from './html-page.js';
import { html } from './html.js';
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
];
const STATUS_BADGE: Record<string, BadgeKind> = {
  active: 'ok',
  expired: 'neutral',
  revoked: 'danger',
  persona_deleted: 'warn',
};
const NOTICES: Record<string, string> = { 'token-revoked': 'Token revoked: it is refused from now on.' };

interface Issued {
  token: string;
  label: string;
  scopes: string[];
  expiresAt: string;
}

export function accessPages(ctx: HttpContext): Router {
  const r = Router();
  const body = pageFormBody(ctx);

  async function page(
    req: Request,
    res: Response,
    person: PagePerson,
    o: {
      status?: number;
      issued?: Issued;
      error?: DomainError;
      values?: { label: string; scopes: string[]; as: string; lifetime: string; client: string };
    } = {},
  ) {
    const p = person.principal;
    const [me, personas, tokens] = await Promise.all([
      ctx.services.read.agents.agent(p.agentId),
      runOperation(ctx, listPersonas, {}, p).then((x) => x.result.personas),
      runOperation(ctx, listTokens, {}, p).then((x) => x.result.tokens),
    ]);
    const nameOf = (agentId: string) =>
      agentId === p.agentId
        ? `you (${me?.name ?? 'your agent'})`
        : (personas.find((x) => x.agentId === agentId)?.name ?? 'a deleted persona');
    const v = o.values ?? {
      label: '',
      scopes: [],
      as: p.agentId,
      lifetime: String(TOKEN_DEFAULT_LIFETIME_SECONDS),
      client: '',
    };
    const errors = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    const scopes = [...ctx.services.config.scopesSupported].sort();
    const endpoint = `${ctx.baseUrl}/api/mcp`;
    sendPersonPage(
      res,
      person,
      {
        title: 'Agent access',
        current: '/access',
        lede: 'Tokens let an agent (an MCP client, a script) act for you or one of your personas, with only the scopes you choose.',
        body: html` ${NOTICES[key] ? notice('success', html`<p>${NOTICES[key]}</p>`) : ''}
        ${
          o.issued
            ? html`${secretBox({ id: 'new-token', label: `Your new token “${o.issued.label}”`, value: o.issued.token })}
              ${notice('info', html`<p>Give it to your agent as <code>Authorization: Bearer &lt;token&gt;</code> on <code>${endpoint}</code>. It can use ${o.issued.scopes.length ? o.issued.scopes.join(', ') : 'no scopes'} until ${when(o.issued.expiresAt)}. <a href="/docs/connect">How to connect an agent</a>.</p>`)}`
            : ''
        }
        ${card(
          'Your tokens',
          table({
            caption: 'Your tokens',
            head: ['Token', 'Acts as', 'Scopes', 'Status', 'Last used', ''],
            rows: tokens.map((t) => [
              html`<strong>${t.label}</strong
                >${t.client ? html`<br /><span class="small muted">${t.client}</span>` : ''}<br /><span
                  class="small muted"
                  >created ${when(t.createdAt)}</span
                >`,
              nameOf(t.agentId),
              t.scopes.length
                ? html`${t.scopes.map((s, i) => html`${i ? ' ' : ''}<code>${s}</code>`)}`
                : html`<span class="muted">none</span>`,
              html`${badge(t.status.replace('_', ' '), STATUS_BADGE[t.status] ?? 'neutral')}${t.status === 'active' ? html`<br /><span class="small muted">until ${when(t.expiresAt)}</span>` : ''}`,
              when(t.lastUsedAt),
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
          html`${o.error ? (o.error.code === 'input.invalid' ? notice('error', html`<p><strong>Please correct the fields marked below.</strong></p>`) : problemNotice(o.error, 'Could not issue the token.')) : ''}
            <form method="post" action="/access/tokens" novalidate>
              ${csrfField(person.csrf)}
              ${field({ name: 'label', label: 'What it is for', value: v.label, required: true, maxlength: 100, hint: 'Shown in this list, e.g. “laptop agent”.', error: errors.label })}
              ${selectField({ name: 'as', label: 'Acts as', value: v.as, options: [[p.agentId, `You (${me?.name ?? 'your agent'})`], ...personas.map((x) => [x.agentId, `${x.name}${x.handle ? ` (@${x.handle})` : ''}`] as const)], hint: 'A token bound to a persona acts only as that persona.', error: errors.targetAgentId })}
              ${checkboxes({
                name: 'scopes',
                mono: true,
                legend: 'Scopes',
                hint: 'What it may do. A tool needs every scope it lists (see the tool catalogue in the reference).',
                items: scopes.map((s) => ({
                  value: s,
                  label: s,
                  note: describeScope(s),
                  checked: v.scopes.includes(s),
                })),
                error: errors.scopes,
              })}
              ${selectField({ name: 'lifetime', label: 'Expires after', value: v.lifetime, options: LIFETIMES })}
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
    if (person) await page(req, res, person);
  });

  // The token is in this answer only (never stored): the page is not cached and is not redirected to.
  r.post('/access/tokens', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const values = {
      label: formText(req, 'label').trim(),
      scopes: formList(req, 'scopes'),
      as: formText(req, 'as'),
      lifetime: formText(req, 'lifetime'),
      client: formText(req, 'client').trim(),
    };
    try {
      const { result } = await runOperation(
        ctx,
        issueToken,
        {
          label: values.label,
          scopes: values.scopes,
          ...(values.as && values.as !== person.principal.agentId && { targetAgentId: values.as }),
          ...(values.lifetime && { lifetimeSeconds: Number(values.lifetime) }),
          ...(values.client && { client: values.client }),
        },
        person.principal,
      );
      await page(req, res, person, { status: 201, issued: result });
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await page(req, res, person, { status: e.kind === 'not_found' ? 404 : 400, error: e, values });
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
