// The operator's accounts page (/operator/accounts, controllers only): disable an account — it can no
// longer sign in, and every credential it held ends in the same commit — or enable it again, through
// svc.admin.disable_account / svc.admin.enable_account as over REST and MCP
// (docs/agent-access.md#credential-change).
import { isDomainError, type DomainError } from '@tributary/domain';
import { disableAccount, enableAccount } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, STATUS_OF_KIND, type HttpContext } from '../http/index.js';
import { button, card, csrfField, field, notice, problemNotice } from './components.js';
import { html } from './html.js';
import { operatorTabs, postingOperator, requireOperator } from './operator-kit.js';
import { formText, pageErrors, pageFormBody, sendPersonPage, type PagePerson } from './page-session.js';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a credential change ended, in words ("2 sessions, 1 token and 1 app connection ended"), from the
 * counts a redirect carries; '' when they are not plain small numbers.
 */
export function endedSummary(query: Request['query']): string {
  const count = (name: string) => {
    const v = query[name];
    return typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : null;
  };
  const [sessions, tokens, apps] = [count('sessions'), count('tokens'), count('apps')];
  if (sessions === null || tokens === null || apps === null) return '';
  return (
    `${plural(sessions, 'session', 'sessions')}, ${plural(tokens, 'token', 'tokens')} and ` +
    `${plural(apps, 'app connection', 'app connections')} ended.`
  );
}

/** The query that carries a change's counts to the page it redirects to. */
export const endedQuery = (e: { sessionsEnded: number; tokensRevoked: number; grantsRevoked: number }) =>
  `sessions=${e.sessionsEnded}&tokens=${e.tokensRevoked}&apps=${e.grantsRevoked}`;

export function operatorAccountPages(ctx: HttpContext): Router {
  const r = Router();

  async function accountsPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; account?: string; reason?: string } = {},
  ) {
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    const done =
      key === 'account-disabled'
        ? html`<p>Account disabled: it can no longer sign in. ${endedSummary(req.query)}</p>`
        : key === 'account-enabled'
          ? html`<p>Account enabled: it signs in with its password again.</p>`
          : '';
    sendPersonPage(
      res,
      person,
      {
        title: 'Operator',
        current: '/operator',
        body: html`${operatorTabs('/operator/accounts')} ${done ? notice('success', done) : ''}
        ${o.error ? problemNotice(o.error, 'Nothing was changed.') : ''}
        ${card(
          'Disable an account',
          html`<p>
              A disabled account cannot sign in. In the same step every credential it holds ends: its browser
              sessions, its MCP tokens, the access and refresh tokens of the apps it connected, and its
              sign-on at other instances. An operator’s account cannot be disabled.
            </p>
            <form method="post" action="/operator/accounts/disable">
              ${csrfField(person.csrf)}
              ${field({ name: 'account', label: 'Account', value: o.account, required: true, autocomplete: 'off', maxlength: 254, hint: 'Its handle, email or account id.' })}
              ${field({ name: 'reason', label: 'Reason (optional)', value: o.reason, maxlength: 500, hint: 'Kept in the log with the change.' })}
              <div class="actions">${button('Disable the account', { kind: 'danger' })}</div>
            </form>`,
          { id: 'disable' },
        )}
        ${card(
          'Enable an account',
          html`<p>The account signs in with its password again. Nothing it held before comes back.</p>
            <form method="post" action="/operator/accounts/enable">
              ${csrfField(person.csrf)}
              ${field({ name: 'account', label: 'Account', required: true, autocomplete: 'off', maxlength: 254, hint: 'Its handle, email or account id.' })}
              <div class="actions">${button('Enable the account')}</div>
            </form>`,
          { id: 'enable' },
        )}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/operator/accounts', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (person) await accountsPage(req, res, person);
  });

  r.post('/operator/accounts/disable', ...pageFormBody(ctx), async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const account = formText(req, 'account').trim();
    const reason = formText(req, 'reason').trim();
    try {
      const { result } = await runOperation(
        ctx,
        disableAccount,
        { account, ...(reason && { reason }) },
        person.principal,
      );
      res.redirect(303, `/operator/accounts?notice=account-disabled&${endedQuery(result)}`);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await accountsPage(req, res, person, {
        status: STATUS_OF_KIND[e.kind] ?? 400,
        error: e,
        account,
        reason,
      });
    }
  });

  r.post('/operator/accounts/enable', ...pageFormBody(ctx), async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const account = formText(req, 'account').trim();
    try {
      await runOperation(ctx, enableAccount, { account }, person.principal);
      res.redirect(303, '/operator/accounts?notice=account-enabled');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await accountsPage(req, res, person, { status: STATUS_OF_KIND[e.kind] ?? 400, error: e, account });
    }
  });
  r.use(pageErrors(ctx));
  return r;
}
