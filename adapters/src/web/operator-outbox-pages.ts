// The outbox (docs/web.md#operator-pages): on an instance with no mail server, the messages it would
// have sent, as their recipients would have read them, with their links clickable — so the operator of
// a development or small instance can open a verification link or pass it on by hand. It runs
// svc.mail.list_outbox, the same operation as POST /api/ops/svc.mail.list_outbox and the MCP tool.
import { listOutbox } from '@tributary/services';
import { Router } from 'express';
import { runOperation, type HttpContext } from '../http/index.js';
import { badge, card, emptyState, keyValues, notice, when, type BadgeKind } from './components.js';
import { html, type Html } from './html.js';
import { operatorTabs, requireOperator } from './operator-kit.js';
import { pageErrors, sendPersonPage } from './page-session.js';

const STATUS_BADGE: Record<string, BadgeKind> = {
  sent: 'ok',
  pending: 'neutral',
  sending: 'neutral',
  retrying: 'warn',
  failed: 'danger',
  unknown: 'warn',
};
const STATUS_WORDS: Record<string, string> = { sent: 'written to the outbox', pending: 'waiting' };

/** A message's text with each http(s) link made clickable; everything else escaped. */
function linked(text: string): Html {
  const parts: Html[] = [];
  let at = 0;
  for (const m of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    parts.push(html`${text.slice(at, m.index)}<a href="${m[0]}">${m[0]}</a>`);
    at = m.index + m[0].length;
  }
  parts.push(html`${text.slice(at)}`);
  return html`${parts}`;
}

export function operatorOutboxPages(ctx: HttpContext): Router {
  const r = Router();
  r.get('/operator/outbox', async (req, res) => {
    const person = await requireOperator(ctx, req, res);
    if (!person) return;
    const { delivery, messages } = (await runOperation(ctx, listOutbox, {}, person.principal)).result;
    sendPersonPage(res, person, {
      title: 'Operator',
      current: '/operator',
      body: html`${operatorTabs('/operator/outbox')}
      ${
        delivery === 'log'
          ? notice(
              'warning',
              html`<p>
                  <strong>This instance has no mail server</strong>, so it mails nothing: each message it
                  would send is written here (and to its log) instead. Open a link yourself, or pass it on to
                  the person it is for. To send real mail, set <code>SMTP_URL</code> (<a
                    href="/docs/guide#mail"
                    >how</a
                  >).
                </p>
                <p class="small">
                  Anyone who can read this page, or the instance's log, can use these links: configure a mail
                  server before others sign up.
                </p>`,
            )
          : notice(
              'info',
              html`<p>
                This instance sends mail through its mail server. The outbox keeps only the messages written
                while it had none.
              </p>`,
            )
      }
      ${card(
        'Outbox',
        messages.length
          ? html`${messages.map(
              (m) =>
                html`<article class="outbox-message">
                  <h3>${m.subject}</h3>
                  ${keyValues([
                    ['To', m.to.join(', ')],
                    ['When', when(m.requestedAt)],
                    [
                      'Status',
                      badge(STATUS_WORDS[m.status] ?? m.status, STATUS_BADGE[m.status] ?? 'neutral'),
                    ],
                    ['Kind', html`<code class="small">${m.template}</code>`],
                  ])}
                  <pre class="mail-text">${linked(m.text)}</pre>
                </article>`,
            )}`
          : emptyState('No messages yet. Verification and password-reset mails appear here.'),
        { id: 'outbox' },
      )}`,
    });
  });
  r.use(pageErrors(ctx));
  return r;
}
