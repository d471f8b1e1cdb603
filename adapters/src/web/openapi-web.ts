// The web app's pages and their forms in the OpenAPI document (docs/web.md): HTML for people, listed so
// the document names every route the app answers. Each form post needs the session (or, before sign-in,
// the form's own token), comes from our origin, carries `csrf`, and answers 303 to the next page.
import {
  publicSecurity,
  rateLimitedResponse as rateLimited,
  sessionSecurity as session,
} from '../http/index.js';

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** A page: GET, HTML; `signedIn` pages redirect a visitor to /signin. */
export const page = (operationId: string, summary: string, signedIn = true) => ({
  get: {
    operationId,
    summary,
    tags: ['pages'],
    security: signedIn ? session : publicSecurity,
    responses: {
      '200': html('The page'),
      ...(signedIn && { '303': { description: 'No session: to /signin?return_to=<this page>' } }),
    },
  },
});

/** A form post of a page: urlencoded fields, 303 on success, the page again with the error otherwise. */
export const formPost = (
  operationId: string,
  summary: string,
  fields: Record<string, string>,
  required: string[],
  o: { signedIn?: boolean; then?: string } = {},
) => ({
  post: {
    operationId,
    summary,
    tags: ['pages'],
    security: o.signedIn !== false ? session : publicSecurity,
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['csrf', ...required],
            properties: Object.fromEntries(
              Object.entries({ csrf: 'the form’s CSRF token', ...fields }).map(([k, description]) => [
                k,
                { type: 'string', description },
              ]),
            ),
          },
        },
      },
    },
    responses: {
      '303': { description: o.then ?? 'Done: back to the page, with a notice' },
      '400': html('The page again, with what was wrong'),
      '403': html('No session, a wrong CSRF token, or another origin: nothing written'),
    },
  },
});

export function webPaths(): Record<string, unknown> {
  return {
    '/assets/{hash}/{name}': {
      get: {
        operationId: 'web.asset',
        summary: "The pages' stylesheet, scripts and icons, cached for a year (the hash covers every asset)",
        tags: ['pages'],
        security: publicSecurity,
        parameters: [
          { name: 'hash', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'The file' },
          '404': { description: 'No such asset, or an old hash' },
        },
      },
    },
    '/signup': {
      ...page('web.sign_up_page', 'The sign-up form', false),
      ...formPost(
        'web.sign_up',
        'Sign up (svc.auth.sign_up) and start a session; the first account becomes the operator',
        { handle: '', email: '', name: '', password: '', return_to: 'a local path to go to next' },
        ['password'],
        { signedIn: false, then: 'Signed in (session cookie set): to return_to or /home' },
      ),
    },
    '/signin': {
      ...page('web.sign_in_page', 'The sign-in form', false),
      ...formPost(
        'web.sign_in',
        'Sign in (svc.auth.sign_in); throttled as the JSON route is (429 with Retry-After)',
        { identifier: 'email or handle', password: '', return_to: 'a local path to go to next' },
        ['identifier', 'password'],
        { signedIn: false, then: 'Signed in (session cookie set): to return_to or /home' },
      ),
    },
    '/account/forgot-password': {
      ...page('web.forgot_password_page', 'Forgot your password? The form that asks for a reset mail', false),
      ...formPost(
        'web.forgot_password',
        'Ask for a password reset mail (svc.auth.request_password_reset); the same answer whether or not an account has the address',
        { email: '' },
        ['email'],
        { signedIn: false, then: 'To /account/forgot-password?notice=sent' },
      ),
    },
    '/account/reset-password': {
      get: {
        operationId: 'web.reset_password_page',
        summary:
          'The reset link of the mail: with `token`, a 303 (Referrer-Policy: no-referrer) that keeps the token in an HttpOnly cookie for this path and lands here without it; then the new-password form',
        tags: ['pages'],
        security: publicSecurity,
        parameters: [{ name: 'token', in: 'query', required: false, schema: { type: 'string' } }],
        responses: {
          '200': html('The new-password form'),
          '303': { description: 'The token moved into its cookie: to /account/reset-password' },
          '400': html('No token held, or a malformed one: the link does not work'),
        },
      },
      ...formPost(
        'web.reset_password',
        'Set the new password with the held token (svc.auth.reset_password): every session of the account ends',
        { password: '' },
        ['password'],
        { signedIn: false, then: 'To /signin?notice=password-reset' },
      ),
    },
    '/account/verify-email': {
      get: {
        operationId: 'web.verify_email_page',
        summary:
          'The verification link of the mail: with `token`, a 303 (Referrer-Policy: no-referrer) that keeps the token in an HttpOnly cookie for this path and lands here without it; then the Verify button (opening the link verifies nothing by itself)',
        tags: ['pages'],
        security: publicSecurity,
        parameters: [{ name: 'token', in: 'query', required: false, schema: { type: 'string' } }],
        responses: {
          '200': html('The page with the Verify button, or that the address is verified'),
          '303': { description: 'The token moved into its cookie: to /account/verify-email' },
          '400': html('No token held, or a malformed one: the link does not work'),
        },
      },
      ...formPost(
        'web.verify_email',
        'Verify the address with the held token (svc.auth.verify_email)',
        {},
        [],
        { signedIn: false, then: 'To /account/verify-email?notice=verified' },
      ),
    },
    '/home/email/verification': formPost(
      'web.send_verification_email',
      'Send me a verification email (svc.account.send_verification_email)',
      {},
      [],
    ),
    '/signout': formPost('web.sign_out', 'Sign out (svc.auth.sign_out): ends the session', {}, [], {
      then: 'To /signin',
    }),
    '/home': page('web.home', 'Home: who you are, your identities, recent tool calls and events, links'),
    '/home/time-zone': formPost(
      'web.choose_time_zone',
      'Choose the time zone your pages are written in on every device (svc.account.set_time_zone, kept on the account); an empty zone gives the choice back to each browser’s own. A zone not in the list is 400 `account.time_zone_unknown` and changes nothing; a zone chosen in this browser before (`tz_chosen`) is cleared',
      { zone: 'an IANA time zone of the list (e.g. Pacific/Auckland), or empty for the browser’s own' },
      [],
      { then: 'To /home' },
    ),
    '/home/personas': formPost(
      'web.create_persona',
      'Create an identity (svc.agent.create_persona)',
      { name: '', handle: '' },
      ['name'],
    ),
    '/home/personas/rename': formPost(
      'web.rename_persona',
      'Rename an identity (svc.profile.update)',
      { agentId: '', name: '' },
      ['agentId', 'name'],
    ),
    '/home/personas/delete': formPost(
      'web.delete_persona',
      'Delete an identity (svc.agent.delete_persona; the password is asked again)',
      { agentId: '', password: '' },
      ['agentId', 'password'],
    ),
    '/access': page(
      'web.agent_access',
      'Agent access: your scoped tokens (status, last use) and the form to issue one',
    ),
    '/access/tokens': formPost(
      'web.issue_token',
      'Issue a token (svc.tokens.issue); the token is shown once, on the page the answer redirects to',
      {
        label: '',
        as: 'the agent it acts as (you or one of your identities)',
        preset: 'custom (the ticked scopes), read, site or all',
        scopes: 'repeated: each scope (with preset custom)',
        lifetime: 'seconds, or date (then expires_on)',
        expires_on: 'YYYY-MM-DD: the token works until the end of that day, UTC',
        client: '',
      },
      ['label'],
      {
        then: 'Issued: to /access?notice=token-issued, which shows the token once (it rides in a short-lived cookie sealed to the session)',
      },
    ),
    '/access/revoke': formPost('web.revoke_token', 'Revoke a token (svc.tokens.revoke)', { jti: '' }, [
      'jti',
    ]),
    '/operator': page(
      'web.operator',
      'Operators: peers, federation status per peer, and the form to add a peer',
    ),
    '/operator/peers/check': formPost(
      'web.check_peer',
      "Read a peer's signed manifest from its base URL (over the guarded outbound client) and ask for its key id",
      { baseUrl: '' },
      ['baseUrl'],
      { then: 'Not used: the answer is the confirmation page (200)' },
    ),
    '/operator/peers': formPost(
      'web.register_peer',
      'Register the peer (svc.federation.register_peer) with the key id the operator typed; a generated shared secret is shown once (201)',
      {
        instanceId: '',
        baseUrl: '',
        role: '',
        publicKey: '',
        name: '',
        keyId: 'as the peer’s operator gave it',
      },
      ['instanceId', 'baseUrl', 'role', 'publicKey', 'keyId'],
    ),
    '/operator/peers/rotate': formPost(
      'web.rotate_peer_secret',
      'Generate a new shared secret for a peer (svc.federation.update_peer), shown once',
      { peerId: '' },
      ['peerId'],
      { then: 'Not used: the answer is the page with the secret (200)' },
    ),
    '/operator/keys/rotate': formPost(
      'web.rotate_signing_key',
      "Rotate this instance's signing key (svc.instance.rotate_key); the current key stays valid for the overlap",
      { overlapSeconds: '86400' },
      ['overlapSeconds'],
    ),
    '/operator/keys/revoke': formPost(
      'web.revoke_signing_key',
      'Revoke a retired signing key of this instance (svc.instance.revoke_key)',
      { keyId: '' },
      ['keyId'],
    ),
    '/operator/peers/block': formPost(
      'web.block_peer',
      'Block (with a reason) or unblock a peer (svc.federation.update_peer)',
      { peerId: '', blocked: 'true or false', reason: '' },
      ['peerId', 'blocked'],
    ),
    '/operator/sites': page(
      'web.operator_sites',
      'Operators: the suspended sites (svc.builder.list_suspended_sites; `after` pages on) with their reasons, and the form to suspend one',
    ),
    '/operator/sites/suspend': formPost(
      'web.suspend_site',
      'Suspend a site with a reason (svc.builder.suspend_site)',
      { siteId: '', reason: 'shown to the owner and on the 451 page' },
      ['siteId', 'reason'],
    ),
    '/operator/sites/lift': formPost(
      'web.unsuspend_site',
      'Lift the suspension of a site (svc.builder.unsuspend_site)',
      { siteId: '' },
      ['siteId'],
    ),
    '/operator/accounts': page(
      'web.operator_accounts',
      'Operators: the forms to disable an account (ending every credential it holds) and to enable it again; after a disable, how many credentials ended',
    ),
    '/operator/accounts/disable': formPost(
      'web.disable_account',
      'Disable an account (svc.admin.disable_account): it cannot sign in, and its sessions, MCP tokens, OAuth access tokens and grants end in the same commit',
      { account: 'handle, email or account id', reason: 'kept in the log' },
      ['account'],
    ),
    '/operator/accounts/enable': formPost(
      'web.enable_account',
      'Enable a disabled account again (svc.admin.enable_account)',
      { account: 'handle, email or account id' },
      ['account'],
    ),
    '/operator/log': page(
      'web.operator_log',
      'Operators: the last `tributary log verify` and the latest public events',
    ),
    '/operator/outbox': page(
      'web.operator_outbox',
      'Operators: the messages written to the outbox for want of a mail server (svc.mail.list_outbox), links clickable',
    ),
    '/operator/settings': {
      ...page(
        'web.operator_settings',
        'Operators: the run-time settings (svc.instance.read_settings) and the form to change them',
      ),
      ...formPost(
        'web.update_settings',
        'Change the run-time settings (svc.instance.update_settings); every process applies them within its refresh bound',
        {
          on: 'repeated: signupOpen, mailPaused — each one ticked (absent: false)',
          notice: 'the notice on every page, one line; empty for none',
          reservedHandles: 'the handles no sign-up may take (beyond the built-in list), separated by spaces',
        },
        [],
      ),
    },
    '/docs/guide': page(
      'web.docs_guide',
      'The guide for people: your site, your assistant, connecting an agent, mail',
      false,
    ),
    '/docs': page('web.docs', 'The reference site: what this instance is', false),
    '/docs/connect': page(
      'web.docs_connect',
      'How to connect an agent: the MCP endpoint, tokens, OAuth, the device flow',
      false,
    ),
    '/docs/api': page('web.docs_api', 'The HTTP API, rendered from this document', false),
    '/docs/tools': page('web.docs_tools', 'The MCP tool catalogue with the scopes each tool needs', false),
    '/docs/federation': page('web.docs_federation', 'The federation documents peers read', false),
  };
}

/** The landing page (landing-routes.ts). */
export function landingPaths(): Record<string, unknown> {
  return {
    '/': {
      get: {
        operationId: 'landing',
        summary: 'A page naming this instance (name, role, id, signing key id) with links to start from',
        tags: ['discovery'],
        security: publicSecurity,
        responses: { '200': html('The landing page'), '429': rateLimited },
      },
    },
  };
}
