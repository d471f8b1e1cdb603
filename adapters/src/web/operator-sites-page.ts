// The operator's sites page (/operator/sites): suspended sites, suspending one with a reason, lifting it.
import { isDomainError, type DomainError } from '@tributary/domain';
import { listSuspendedSites, suspendSite, unsuspendSite } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import {
  button,
  card,
  csrfField,
  field,
  notice,
  postButton,
  problemNotice,
  table,
  when,
} from './components.js';
import { html } from './html.js';
import {
  formText,
  pageFormBody,
  redirectWithNotice,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';
import { operatorTabs, requireOperator, postingOperator, NOTICES } from './operator-kit.js';

export function operatorSitesRoutes(r: Router, ctx: HttpContext): void {
  const body = pageFormBody(ctx);
  async function sitesPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; siteId?: string; reason?: string } = {},
  ) {
    const after = typeof req.query.after === 'string' ? req.query.after : undefined;
    const page = (await runOperation(ctx, listSuspendedSites, { ...(after && { after }) }, person.principal))
      .result;
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    sendPersonPage(
      res,
      person,
      {
        title: 'Operator',
        current: '/operator',
        body: html`${operatorTabs('/operator/sites')}
        ${NOTICES[key] ? notice('success', html`<p>${NOTICES[key]}</p>`) : ''}
        ${o.error ? problemNotice(o.error) : ''}
        ${card(
          'Suspended sites',
          html`${table({
            caption: 'Suspended sites',
            head: ['Site', 'Reason', 'Since', 'Actions'],
            rows: page.sites.map((s) => [
              html`<strong>${s.title}</strong><br /><code class="small">${s.siteId}</code><br /><span
                  class="small muted"
                  >owner <code>${s.ownerAgentId}</code></span
                >`,
              s.reason,
              when(s.suspendedAt),
              postButton({
                action: '/operator/sites/lift',
                csrf: person.csrf,
                fields: { siteId: s.siteId },
                label: html`Lift<span class="visually-hidden"> the suspension of ${s.title}</span>`,
              }),
            ]),
            empty: after ? 'No more suspended sites.' : 'No site is suspended.',
          })}
          ${page.nextAfter ? html`<p><a href="/operator/sites?after=${encodeURIComponent(page.nextAfter)}">Next page</a></p>` : ''}`,
          { id: 'suspended' },
        )}
        ${card(
          'Suspend a site',
          html`<p>
              A suspended site answers 451 with the reason at every address and domain, and serves none of its
              content until an operator lifts it. Its owner sees the reason.
            </p>
            <form method="post" action="/operator/sites/suspend">
              ${csrfField(person.csrf)}
              ${field({ name: 'siteId', label: 'Site id', value: o.siteId, required: true, autocomplete: 'off', hint: 'As the site’s owner sees it, or from the site’s settings.' })}
              ${field({ name: 'reason', label: 'Reason', value: o.reason, required: true, maxlength: 500, hint: 'Shown to the owner and on the 451 page.' })}
              <div class="actions">${button('Suspend the site', { kind: 'danger' })}</div>
            </form>`,
          { id: 'suspend' },
        )}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/operator/sites', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (person) await sitesPage(req, res, person);
  });

  r.post('/operator/sites/suspend', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const siteId = formText(req, 'siteId').trim();
    const reason = formText(req, 'reason').trim();
    try {
      await runOperation(ctx, suspendSite, { siteId, reason }, person.principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return sitesPage(req, res, person, {
        status: e.kind === 'not_found' ? 404 : 400,
        error: e,
        siteId,
        reason,
      });
    }
    redirectWithNotice(res, '/operator/sites', 'site-suspended');
  });

  r.post('/operator/sites/lift', ...body, async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(ctx, unsuspendSite, { siteId: formText(req, 'siteId') }, person.principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return sitesPage(req, res, person, { status: e.kind === 'not_found' ? 404 : 400, error: e });
    }
    redirectWithNotice(res, '/operator/sites', 'site-unsuspended');
  });
}
