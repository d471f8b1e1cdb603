// Sign-up, sign-in and sign-out pages. They run the same operations as POST /api/auth/* (sign-up and
// sign-in are public operations) and set the same session cookie; forms post and redirect, no script.
import { handleSchema, isDomainError, type DomainError } from '@tributary/domain';
import { globalPeerOf, instanceSettings, peerAtOrigin, signIn, signOut, signUp } from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import {
  clearSessionCookie,
  principalOf,
  runOperation,
  setSessionCookie,
  STATUS_OF_KIND,
  type HttpContext,
} from '../http/index.js';
import { button, field, notice, problemNotice } from './components.js';
import { endedSummary } from './operator-account-pages.js';
import { html, type Html } from './html.js';
import { csrfFor, safeEqual } from './page-forms.js';
import {
  fieldErrors,
  formText,
  pageErrors,
  pageFormBody,
  pageViewer,
  safeReturnTo,
  visitorCsrf,
  visitorCsrfOk,
} from './page-session.js';
import { sendHtml } from './page-shell.js';

const SIGN_IN_NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'password-reset': 'Your password is changed and every credential of your account ended with the old one.',
};

/** A valid handle close to what was typed: "Ada Bakery" → "ada_bakery". */
export function suggestHandle(typed: string): string {
  let h = typed
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 30)
    .replace(/_+$/, '');
  if (h.length < 3) h = `${h || 'me'}_site`.slice(0, 30);
  return h;
}

export function accountPages(ctx: HttpContext): Router {
  const r = Router();
  const body = pageFormBody(ctx);

  async function signUpPage(
    req: Request,
    res: Response,
    o: { status?: number; error?: DomainError; values?: Record<string, string> } = {},
  ) {
    const csrf = visitorCsrf(ctx, req, res);
    const errors = o.error?.code === 'input.invalid' ? fieldErrors(o.error) : {};
    const v = o.values ?? {};
    // Taken: the person may already have an account here — offer the ways back in.
    const taken =
      o.error?.code === 'account.email_taken'
        ? 'email'
        : o.error?.code === 'agent.handle_taken'
          ? 'handle'
          : null;
    if (taken === 'email') errors.email = 'An account here already has this email address.';
    if (taken === 'handle') errors.handle = 'This handle is taken.';
    // A handle that lowercasing cannot repair: say what is wrong in words and offer one that works.
    if (v.handle_fix) errors.handle = v.handle_fix;
    // The password is typed again only when it was the problem (the page is never cached).
    const keepPassword = !!o.error && !errors.password && o.error.code !== 'auth.throttled';
    const returnTo = safeReturnTo(v.return_to ?? req.query.return_to);
    const instance = await ctx.services.instance.read.get();
    const first = !instance?.controllers.length;
    const claimed = first && !!ctx.services.accounts.operatorClaim?.required();
    if (!first && !(await instanceSettings(ctx.services)).signupOpen && !o.error)
      return sendHtml(res, o.status ?? 200, {
        title: 'Create your account',
        narrow: true,
        viewer: await pageViewer(ctx, req),
        body: html`${notice('warning', html`<p><strong>Sign-up is closed on this instance.</strong> Its operators are not taking new accounts for now.</p>`)}
          <p>Already have an account? <a href="/signin">Sign in</a>.</p>`,
      });
    sendHtml(res, o.status ?? 200, {
      title: 'Create your account',
      narrow: true,
      viewer: await pageViewer(ctx, req),
      body: html`${first && !claimed ? notice('info', html`<p>This instance has no accounts yet: the first account becomes its <strong>operator</strong>.</p>`) : ''}
        ${claimed ? notice('info', html`<p>This instance has no operator yet, and it can be reached from the network. To become its <strong>operator</strong>, give the <strong>setup code</strong> printed where it was started (it is also in the file <code>setup-code</code> in its data folder), or run <code>tributary admin create-operator</code> there.</p>`) : ''}
        ${o.error && o.error.code !== 'input.invalid' && !taken ? problemNotice(o.error, 'Could not create the account.') : ''}
        ${
          taken
            ? notice(
                'error',
                html`<p>
                    <strong
                      >${taken === 'email' ? 'An account here already has this email address.' : 'Someone here already has this handle.'}</strong
                    >
                    If it is yours,
                    <a
                      href="/signin${returnTo === '/home' ? '' : `?return_to=${encodeURIComponent(returnTo)}`}"
                      >sign in</a
                    >
                    or
                    <a href="/account/forgot-password">reset your password</a
                    >.${taken === 'handle' ? ' Otherwise, choose another handle.' : ' Otherwise, use another address.'}
                  </p>
                  <p class="small muted">
                    Error code: <code data-error-code="${o.error!.code}">${o.error!.code}</code>
                  </p>`,
              )
            : ''
        }
        ${o.error?.code === 'input.invalid' ? notice('error', html`<p><strong>Please correct the fields marked below.</strong></p>`) : ''}
        ${v.handle_note ? notice('info', html`<p>Handles are in lowercase: yours is <strong>@${v.handle}</strong>.</p>`) : ''}
        <form method="post" action="/signup" novalidate>
          <input type="hidden" name="csrf" value="${csrf}" /><input
            type="hidden"
            name="return_to"
            value="${returnTo}"
          />
          ${claimed ? field({ name: 'setup_code', label: 'Setup code', value: v.setup_code, autocomplete: 'off', hint: 'Like ABCD-EFGH-JKMN-PQRS, from the terminal that started the instance.', error: errors.setupCode, required: true }) : ''}
          ${field({ name: 'name', label: 'Your name', value: v.name, autocomplete: 'name', maxlength: 100, hint: 'Shown to others; you can change it later.', error: errors.name })}
          ${field({ name: 'handle', label: 'Handle', value: v.handle, autocomplete: 'username', hint: '3–30 characters: a–z, 0–9 and _, starting with a letter. You sign in with it.', error: errors.handle, required: true })}
          ${field({ name: 'email', label: 'Email (optional)', type: 'email', value: v.email, autocomplete: 'email', error: errors.email })}
          ${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 10 characters.', error: errors.password, required: true, minlength: 10, value: keepPassword ? v.password : undefined })}
          <div class="actions">${button('Create account', { kind: 'primary' })}</div>
        </form>
        <p>
          Already have an account?
          <a href="/signin${returnTo === '/home' ? '' : `?return_to=${encodeURIComponent(returnTo)}`}"
            >Sign in</a
          >.
        </p>`,
    });
  }

  /**
   * Where a person with an account on the global instance signs in: its /signin, which (once they are
   * signed in there) goes on to its session hand-off for this instance, whose landing brings them back
   * to `returnTo` here as a remote viewer (docs/sso.md). Only when the global instance is a registered,
   * unblocked peer, the one allowed to issue sign-on assertions for anyone.
   */
  async function homeSignIn(returnTo: string): Promise<{ name: string; href: string } | null> {
    const global = await globalPeerOf(ctx.services);
    if (!global) return null;
    const handoff = `/api/federation/sso/session-handoff?to=${encodeURIComponent(ctx.baseUrl)}&next=${encodeURIComponent(returnTo)}`;
    const href = `${global.baseUrl.replace(/\/+$/, '')}/signin?return_to=${encodeURIComponent(handoff)}`;
    return { name: global.name, href };
  }

  /**
   * When the sign-in continues to the session hand-off for a registered, unblocked peer, that peer's
   * origin: the browser follows the form's redirects there (its landing), which form-action must allow.
   */
  async function handoffPeerOrigin(returnTo: string): Promise<string | null> {
    const prefix = '/api/federation/sso/session-handoff?';
    if (!returnTo.startsWith(prefix)) return null;
    const to = new URLSearchParams(returnTo.slice(prefix.length)).get('to');
    let origin: string;
    try {
      origin = new URL(to ?? '').origin;
    } catch {
      return null;
    }
    return (await peerAtOrigin(ctx.services, origin)) ? origin : null;
  }

  async function signInPage(
    req: Request,
    res: Response,
    o: { status?: number; message?: Html; identifier?: string } = {},
  ) {
    const csrf = visitorCsrf(ctx, req, res);
    const returnTo = safeReturnTo(formText(req, 'return_to') || req.query.return_to);
    const home = await homeSignIn(returnTo);
    const handoffTo = await handoffPeerOrigin(returnTo);
    sendHtml(res, o.status ?? 200, {
      title: 'Sign in',
      // Signing in on the way to a session hand-off: the form's redirects end on that peer.
      ...(handoffTo && { csp: { formAction: ["'self'", handoffTo] } }),
      narrow: true,
      viewer: await pageViewer(ctx, req),
      body: html`${o.message ?? (SIGN_IN_NOTICES[String(req.query.notice)] ? notice('success', html`<p>${SIGN_IN_NOTICES[String(req.query.notice)]} ${req.query.notice === 'password-reset' ? endedSummary(req.query) : ''} ${req.query.notice === 'password-reset' ? 'Sign in with the new one.' : ''}</p>`) : '')}
        <form method="post" action="/signin">
          <input type="hidden" name="csrf" value="${csrf}" /><input
            type="hidden"
            name="return_to"
            value="${returnTo}"
          />
          ${field({ name: 'identifier', label: 'Email or handle', value: o.identifier, autocomplete: 'username', required: true })}
          ${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true })}
          <div class="actions">${button('Sign in', { kind: 'primary' })}</div>
        </form>
        <p><a href="/account/forgot-password">Forgot your password?</a></p>
        ${
          home
            ? html`<p>
                Your account is on ${home.name}?
                <a class="btn" href="${home.href}" data-home-signin>Sign in with your home instance</a>
              </p>`
            : ''
        }
        <p>
          New here?
          <a href="/signup${returnTo === '/home' ? '' : `?return_to=${encodeURIComponent(returnTo)}`}"
            >Create an account</a
          >.
        </p>`,
    });
  }

  const expired = () => notice('error', html`<p>The form expired. Please try again.</p>`);

  r.get('/signup', async (req, res) => {
    if ((await principalOf(ctx, req)).kind === 'session')
      return res.redirect(303, safeReturnTo(req.query.return_to));
    await signUpPage(req, res);
  });
  r.post('/signup', ...body, async (req, res) => {
    const values: Record<string, string> = Object.fromEntries(
      ['name', 'handle', 'email', 'return_to', 'setup_code'].map((k) => [k, formText(req, k)]),
    );
    // What can be repaired is: handles are lowercase, so `Ada` is taken to mean `ada` (and the page says so).
    const typed = values.handle!.trim();
    values.handle = typed.toLowerCase();
    if (!handleSchema.safeParse(values.handle).success) {
      // Not a case the page can repair ("Ada Bakery"): keep what was typed, say why, suggest one.
      values.handle = typed;
      if (typed !== '')
        values.handle_fix = `“${typed}” cannot be a handle: use only a–z, 0–9 and _ (no spaces or other signs), 3–30 characters, starting with a letter. Try “${suggestHandle(typed)}”.`;
    } else if (typed !== values.handle) values.handle_note = '1';
    if (!visitorCsrfOk(req)) return signUpPage(req, res, { status: 403, values, error: undefined });
    try {
      const { result } = await runOperation(
        ctx,
        signUp,
        {
          ...(values.handle && { handle: values.handle }),
          ...(values.email && { email: values.email.trim() }),
          ...(values.name && { name: values.name.trim() }),
          ...(values.setup_code && { setupCode: values.setup_code.trim() }),
          password: formText(req, 'password'),
        },
        'anonymous',
      );
      setSessionCookie(res, ctx.cookie, result.session.token, result.session.expiresAt);
      const to = safeReturnTo(values.return_to);
      res.redirect(303, values.handle_note && to === '/home' ? '/home?notice=handle-lowercased' : to);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      await signUpPage(req, res, {
        status: STATUS_OF_KIND[e.kind] ?? 400,
        error: e,
        values: { ...values, password: formText(req, 'password') },
      });
    }
  });

  r.get('/signin', async (req, res) => {
    if ((await principalOf(ctx, req)).kind === 'session')
      return res.redirect(303, safeReturnTo(req.query.return_to));
    await signInPage(req, res);
  });
  r.post('/signin', ...body, async (req, res) => {
    const identifier = formText(req, 'identifier');
    if (!visitorCsrfOk(req)) return signInPage(req, res, { status: 403, message: expired(), identifier });
    try {
      const { result } = await runOperation(
        ctx,
        signIn,
        { identifier, password: formText(req, 'password') },
        'anonymous',
      );
      setSessionCookie(res, ctx.cookie, result.session.token, result.session.expiresAt);
      res.redirect(303, safeReturnTo(formText(req, 'return_to')));
    } catch (e) {
      if (!isDomainError(e)) throw e;
      // Every refusal in words with its code in small print (error-words.ts): a wrong password, a
      // pause after too many, a disabled account, a home instance that cannot be reached.
      const retryAfter = Number(e.details?.retryAfter);
      if (e.code === 'auth.throttled' && retryAfter > 0) res.setHeader('Retry-After', String(retryAfter));
      await signInPage(req, res, {
        status: e.code === 'auth.throttled' ? 429 : (STATUS_OF_KIND[e.kind] ?? 400),
        identifier,
        message: problemNotice(e, ''),
      });
    }
  });

  r.post('/signout', ...body, async (req, res) => {
    const principal = await principalOf(ctx, req);
    const csrf = csrfFor(ctx, req);
    const given = formText(req, 'csrf');
    // Without a matching token nothing happens: another site cannot sign a person out.
    if (principal.kind === 'session' && csrf && safeEqual(given, csrf)) {
      await runOperation(ctx, signOut, {}, principal);
      clearSessionCookie(res, ctx.cookie);
      return res.redirect(303, '/signin?notice=signed-out');
    }
    res.redirect(303, principal.kind === 'session' ? '/home' : '/signin');
  });
  r.use(pageErrors(ctx));
  return r;
}
