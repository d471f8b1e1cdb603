// The pages the account mails link to (docs/web.md#account-mail): verify an email address, choose a new
// password with a reset link, and ask for that link ("Forgot your password?" on /signin). They run the
// same public operations as POST /api/auth/email/verify, /password-reset and /password-reset/confirm.
//
// The token must not stay where it can leak. The link's URL (`?token=…`, what the mail holds) is answered
// by a redirect only, with `Referrer-Policy: no-referrer`, that moves the token into a short-lived
// HttpOnly cookie scoped to that one path and lands on the same path without it: no document is ever
// shown at a URL holding the token (so no Referer, no history entry of a rendered page, no script can
// read it), and the access log redacts `token=` (request-logging.ts). The token is redeemed only by
// posting the page's form — a mail scanner that fetches the link verifies nothing.
import { isDomainError, type DomainError } from '@tributary/domain';
import { requestPasswordReset, resetPassword, verifyEmail } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { parse as parseCookies } from 'cookie';
import { runOperation, type HttpContext } from '../http/index.js';
import { button, field, notice, problemNotice } from './components.js';
import { endedQuery } from './operator-account-pages.js';
import { html, type Html } from './html.js';
import {
  fieldErrors,
  formText,
  pageErrors,
  pageFormBody,
  pageViewer,
  visitorCsrf,
  visitorCsrfOk,
} from './page-session.js';
import { sendHtml } from './page-shell.js';

/** How long the token waits in its cookie between opening the link and posting the form. */
const TOKEN_COOKIE_SECONDS = 30 * 60;
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

interface TokenPage {
  path: '/account/verify-email' | '/account/reset-password';
  cookie: string;
}
const VERIFY: TokenPage = { path: '/account/verify-email', cookie: 'tributary_verify_token' };
const RESET: TokenPage = { path: '/account/reset-password', cookie: 'tributary_reset_token' };

export function accountMailPages(ctx: HttpContext): Router {
  const r = Router();
  const body = pageFormBody(ctx);
  const cookieOptions = (p: TokenPage) => ({
    httpOnly: true,
    // Lax, not Strict: the link is opened from a mail client or webmail (another site), and the
    // redirect's landing must carry the cookie.
    sameSite: 'lax' as const,
    secure: ctx.cookie.secure,
    path: p.path,
  });
  const heldToken = (req: Request, p: TokenPage): string | null => {
    const v = parseCookies(req.headers.cookie ?? '')[p.cookie];
    return v && TOKEN.test(v) ? v : null;
  };
  const forget = (res: Response, p: TokenPage) => res.clearCookie(p.cookie, cookieOptions(p));

  /** GET <path>?token=… : the token into its cookie, then the same page without it. */
  function takeToken(p: TokenPage) {
    return (req: Request, res: Response, next: () => void) => {
      if (req.query.token === undefined) return next();
      res.setHeader('Referrer-Policy', 'no-referrer').setHeader('Cache-Control', 'no-store');
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      // A malformed token is not kept; the page then says the link does not work.
      if (TOKEN.test(token))
        res.cookie(p.cookie, token, { ...cookieOptions(p), maxAge: TOKEN_COOKIE_SECONDS * 1000 });
      else forget(res, p);
      res.redirect(303, TOKEN.test(token) ? p.path : `${p.path}?notice=bad-link`);
    };
  }

  /** A link that does not work (mail.token_invalid, or no token held), with the way to a new one. */
  const invalidLink = (again: Html, code?: string) =>
    notice(
      'error',
      html`<p>
          <strong>This link does not work.</strong> It was used already, it expired, or it is not a link we
          sent.
        </p>
        <p>${again}</p>
        ${code ? html`<p class="small muted">Error code: <code data-error-code="${code}">${code}</code></p>` : ''}`,
    );
  /** Why the page cannot go on: a dead link, or any other refusal in words (the code in small print). */
  const refused = (again: Html, e?: DomainError) =>
    !e || e.code === 'mail.token_invalid' ? invalidLink(again, e?.code) : problemNotice(e);

  async function page(
    req: Request,
    res: Response,
    o: { status: number; title: string; body: Html },
  ): Promise<void> {
    sendHtml(res, o.status, {
      title: o.title,
      narrow: true,
      viewer: await pageViewer(ctx, req),
      body: o.body,
    });
  }

  // ----- verify an email address -----
  const verifyAgain = html`To get a new link, <a href="/home">sign in</a> and choose
    <strong>Send a verification email</strong> on your home page.`;

  async function verifyPage(req: Request, res: Response, o: { status?: number; error?: DomainError } = {}) {
    const csrf = visitorCsrf(ctx, req, res);
    const done = req.query.notice === 'verified';
    const held = heldToken(req, VERIFY);
    const body = done
      ? html`${notice('success', html`<p>Your email address is verified.</p>`)}
          <p><a href="/home">Go to your home page</a></p>`
      : o.error || !held
        ? refused(verifyAgain, o.error)
        : html`<p>Confirm that this address is yours: it is then marked as verified on your account.</p>
            <form method="post" action="${VERIFY.path}">
              <input type="hidden" name="csrf" value="${csrf}" />
              <div class="actions">${button('Verify my email address', { kind: 'primary' })}</div>
            </form>`;
    await page(req, res, {
      status: o.status ?? (done || held ? 200 : 400),
      title: 'Verify your email',
      body,
    });
  }

  r.get(VERIFY.path, takeToken(VERIFY), (req, res) => verifyPage(req, res));
  r.post(VERIFY.path, ...body, async (req, res) => {
    const token = heldToken(req, VERIFY);
    if (!visitorCsrfOk(req))
      return page(req, res, {
        status: 403,
        title: 'Verify your email',
        body: notice('error', html`<p>The form expired. Open the link from the email again.</p>`),
      });
    if (!token) return verifyPage(req, res, { status: 400 });
    try {
      await runOperation(ctx, verifyEmail, { token }, 'anonymous');
      forget(res, VERIFY);
      res.redirect(303, `${VERIFY.path}?notice=verified`);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      forget(res, VERIFY);
      await verifyPage(req, res, { status: 400, error: e });
    }
  });

  // ----- forgot password: ask for the reset mail -----
  async function forgotPage(
    req: Request,
    res: Response,
    o: { status?: number; error?: DomainError; email?: string; message?: Html } = {},
  ) {
    const csrf = visitorCsrf(ctx, req, res);
    const errors = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    const sent = req.query.notice === 'sent';
    await page(req, res, {
      status: o.status ?? 200,
      title: 'Forgot your password?',
      body: html`${
          sent
            ? ctx.services.mail?.transport.mode === 'log'
              ? // Without SMTP_URL nothing is mailed (docs/mail.md#outbox): the page says so.
                notice(
                  'warning',
                  html`<p>
                    This instance has no mail server, so no email was sent. If an account has that address,
                    the message with its reset link is in the outbox, where the operator of this instance can
                    read it: ask them for the link.
                  </p>`,
                )
              : notice(
                  'success',
                  html`<p>
                    If an account has that address, we sent it a link to choose a new password. It works once,
                    for a limited time. Check your inbox.
                  </p>`,
                )
            : ''
        }
        ${o.message ?? ''} ${o.error && o.error.code !== 'input.invalid' ? problemNotice(o.error) : ''}
        <p>Give the email address of your account; we send it a link to choose a new password.</p>
        <form method="post" action="/account/forgot-password" novalidate>
          <input type="hidden" name="csrf" value="${csrf}" />
          ${field({ name: 'email', label: 'Email', type: 'email', value: o.email, autocomplete: 'email', required: true, error: errors.email })}
          <div class="actions">${button('Send me a reset link', { kind: 'primary' })}</div>
        </form>
        <p><a href="/signin">Back to sign in</a></p>`,
    });
  }
  r.get('/account/forgot-password', (req, res) => forgotPage(req, res));
  r.post('/account/forgot-password', ...body, async (req, res) => {
    const email = formText(req, 'email').trim();
    if (!visitorCsrfOk(req))
      return forgotPage(req, res, {
        status: 403,
        email,
        message: notice('error', html`<p>The form expired. Please try again.</p>`),
      });
    try {
      await runOperation(ctx, requestPasswordReset, { email }, 'anonymous');
      res.redirect(303, '/account/forgot-password?notice=sent');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await forgotPage(req, res, { status: 400, error: e, email });
    }
  });

  // ----- reset the password with the link -----
  const resetAgain = html`<a href="/account/forgot-password">Ask for a new link</a>.`;

  async function resetPage(req: Request, res: Response, o: { status?: number; error?: DomainError } = {}) {
    const csrf = visitorCsrf(ctx, req, res);
    const held = heldToken(req, RESET);
    const errors = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    const linkDead = !held || (o.error && o.error.code !== 'input.invalid');
    const home =
      o.error?.code === 'sso.password_held_at_home' ? String(o.error.details?.forgotPasswordUrl ?? '') : '';
    const body = home
      ? // The password is the home instance's (docs/sso.md#password-reset): send the person there.
        html`${notice(
            'info',
            html`<p>
                Your password for this account is held by your home instance, which checks it when you sign
                in, so it can only be changed there. Nothing was changed here.
              </p>
              <p><a href="${home}">Reset your password at your home instance</a>.</p>`,
          )}
          <p class="small muted">
            Error code: <code data-error-code="${o.error!.code}">${o.error!.code}</code>
          </p>`
      : linkDead
        ? refused(resetAgain, o.error)
        : html`${o.error ? notice('error', html`<p><strong>Please correct the field marked below.</strong></p>`) : ''}
            <p>Choose a new password. Every place you are signed in is signed out.</p>
            <form method="post" action="${RESET.path}" novalidate>
              <input type="hidden" name="csrf" value="${csrf}" />
              ${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'At least 10 characters.', required: true, minlength: 10, error: errors.password })}
              <div class="actions">${button('Set the new password', { kind: 'primary' })}</div>
            </form>`;
    await page(req, res, { status: o.status ?? (held ? 200 : 400), title: 'Choose a new password', body });
  }
  r.get(RESET.path, takeToken(RESET), (req, res) => resetPage(req, res));
  r.post(RESET.path, ...body, async (req, res) => {
    const token = heldToken(req, RESET);
    if (!visitorCsrfOk(req))
      return page(req, res, {
        status: 403,
        title: 'Choose a new password',
        body: notice('error', html`<p>The form expired. Open the link from the email again.</p>`),
      });
    if (!token) return resetPage(req, res, { status: 400 });
    try {
      const { result } = await runOperation(
        ctx,
        resetPassword,
        { token, password: formText(req, 'password') },
        'anonymous',
      );
      forget(res, RESET);
      res.redirect(303, `/signin?notice=password-reset&${endedQuery(result)}`);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // A refused password keeps the link for another try; a dead link is forgotten.
      if (e.code !== 'input.invalid') forget(res, RESET);
      await resetPage(req, res, { status: e.code === 'sso.password_held_at_home' ? 409 : 400, error: e });
    }
  });
  r.use(pageErrors(ctx));
  return r;
}
