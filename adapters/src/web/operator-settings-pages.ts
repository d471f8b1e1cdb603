// The operator's run-time settings page (/operator/settings, controllers only): whether sign-up is open,
// the notice every page shows, and whether mail sending is paused — read and changed through
// svc.instance.read_settings / svc.instance.update_settings, as over REST and MCP
// (docs/operations.md#run-time-settings).
import { isDomainError, SETTINGS_NOTICE_MAX, type DomainError } from '@tributary/domain';
import { readInstanceSettings, updateInstanceSettings } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, STATUS_OF_KIND, type HttpContext } from '../http/index.js';
import {
  badge,
  button,
  card,
  checkboxes,
  csrfField,
  field,
  keyValues,
  notice,
  problemNotice,
  when,
} from './components.js';
import { html } from './html.js';
import { operatorTabs, postingOperator, requireOperator } from './operator-kit.js';
import {
  fieldErrors,
  formList,
  formText,
  pageErrors,
  pageFormBody,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';

/** An API message as a sentence under a field ("The notice is at most 200 characters."). */
const asSentence = (t: string) => `${t.charAt(0).toUpperCase()}${t.slice(1)}${t.endsWith('.') ? '' : '.'}`;

export function operatorSettingsPages(ctx: HttpContext): Router {
  const r = Router();

  async function settingsPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; notice?: string; reservedHandles?: string } = {},
  ) {
    const s = (await runOperation(ctx, readInstanceSettings, {}, person.principal)).result;
    const saved = req.query.notice === 'settings-saved';
    const noticeError =
      o.error?.code === 'instance.bad_setting' ||
      (o.error?.code === 'input.invalid' &&
        !JSON.stringify(o.error.details?.issues ?? '').includes('reservedHandles'));
    // Under a field, the schema's words for it (or the setting's refusal), never the API's summary.
    const fieldOf = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    sendPersonPage(
      res,
      person,
      {
        title: 'Operator',
        current: '/operator',
        body: html`${operatorTabs('/operator/settings')}
        ${saved ? notice('success', html`<p>Settings saved. Every process of the instance applies them within ${s.refreshSeconds} s.</p>`) : ''}
        ${o.error ? problemNotice(o.error, 'The settings were not changed.') : ''}
        ${card(
          'Now',
          keyValues([
            ['Sign-up', s.signupOpen ? badge('open', 'ok') : badge('closed', 'warn')],
            [
              'Mail sending',
              ctx.services.mail?.transport.mode === 'log'
                ? html`${badge('no mail server', 'warn')}
                    <span class="small"
                      >Nothing is mailed: messages go to the <a href="/operator/outbox">outbox</a>. Set
                      <code>SMTP_URL</code> to send
                      mail.${s.mailPaused ? ' Sending is also paused.' : ''}</span
                    >`
                : s.mailPaused
                  ? badge('paused', 'warn')
                  : badge('running', 'ok'),
            ],
            ['Notice', s.notice || html`<span class="muted">none</span>`],
            [
              'Reserved handles',
              s.reservedHandles.length > 0
                ? s.reservedHandles.join(' ')
                : html`<span class="muted">the built-in list only</span>`,
            ],
            [
              'Last change',
              s.updatedAt ? html`${when(s.updatedAt)} (change ${s.revision})` : 'never: the defaults',
            ],
          ]),
          { id: 'now' },
        )}
        ${card(
          'Run-time settings',
          html`<p>
              These take effect while the instance runs, without a restart: every process re-reads them at
              most ${s.refreshSeconds} s apart. Each change is an event on the log.
            </p>
            <form method="post" action="/operator/settings">
              ${csrfField(person.csrf)}<input type="hidden" name="form" value="settings" />
              ${checkboxes({
                name: 'on',
                legend: 'Switches',
                items: [
                  {
                    value: 'signupOpen',
                    label: 'Sign-up is open',
                    note: 'Unticked, /signup and POST /api/auth/signup refuse new accounts (account.signup_closed). People with an account still sign in.',
                    checked: s.signupOpen,
                  },
                  {
                    value: 'mailPaused',
                    label: 'Pause mail sending',
                    note: 'Ticked, no mail leaves (verification, password reset, delegated mail): requests wait, in order, and go once unticked.',
                    checked: s.mailPaused,
                  },
                ],
              })}
              ${field({ name: 'notice', label: 'Notice on every page', value: o.notice ?? s.notice, maxlength: SETTINGS_NOTICE_MAX, hint: `One line of plain text, at most ${SETTINGS_NOTICE_MAX} characters, shown at the top of every page (planned maintenance, say). Empty for none.`, error: noticeError ? (o.error!.code === 'instance.bad_setting' ? asSentence(o.error!.message) : (fieldOf.notice ?? 'Check this notice.')) : undefined })}
              ${field({ name: 'reservedHandles', label: 'Reserved handles', value: o.reservedHandles ?? s.reservedHandles.join(' '), hint: 'Handles no sign-up may take, separated by spaces, on top of the built-in list (admin, root, support, operator, …). Existing accounts keep theirs.', error: o.error?.code === 'input.invalid' && !noticeError ? (fieldOf.reservedHandles ?? 'Check these handles.') : undefined })}
              <div class="actions">${button('Save settings', { kind: 'primary' })}</div>
            </form>`,
          { id: 'settings' },
        )}`,
      },
      o.status ?? 200,
    );
  }

  r.get('/operator/settings', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (person) await settingsPage(req, res, person);
  });

  r.post('/operator/settings', ...pageFormBody(ctx), async (req, res) => {
    const person = await postingOperator(ctx, req, res);
    if (!person) return;
    const on = formList(req, 'on');
    const noticeText = formText(req, 'notice');
    const reservedText = formText(req, 'reservedHandles');
    const reservedHandles = reservedText
      .split(/[\s,]+/)
      .map((h) => h.replace(/^@/, '').toLowerCase())
      .filter(Boolean);
    try {
      await runOperation(
        ctx,
        updateInstanceSettings,
        {
          signupOpen: on.includes('signupOpen'),
          mailPaused: on.includes('mailPaused'),
          notice: noticeText,
          reservedHandles,
        },
        person.principal,
      );
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return settingsPage(req, res, person, {
        status: STATUS_OF_KIND[e.kind] ?? 400,
        error: e,
        notice: noticeText,
        reservedHandles: reservedText,
      });
    }
    res.redirect(303, '/operator/settings?notice=settings-saved');
  });
  r.use(pageErrors(ctx));
  return r;
}
