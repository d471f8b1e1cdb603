// Email verification and password reset for local accounts (docs/mail.md#accounts), on the same mail
// consumer as every other message. A link carries a single-use token, derived from the message's random
// request key with the instance's secret key (so the key, not the log, is what makes it): it is never
// stored, the consumer puts it into the link just before sending. Only its SHA-256 is kept (it names
// the token's stream), it expires after MAIL_TOKEN_SECONDS, and redeeming it is an append at the
// stream's expected version, so it works once. Asking for a reset answers the same whether or not the
// address has an account.
import {
  accountStream,
  decideIssueMailToken,
  decideUseMailToken,
  conflict,
  forbidden,
  invalid,
  isDomainError,
  mailTokenStream,
  normalizeEmail,
  type AccountState,
  type MailTokenPurpose,
  type MailTokenState,
  type NewEvent,
} from '@tributary/domain';
import { z } from 'zod';
import { defineMailAreaOperation, defineMailOperation, type MailOperationContext } from './mail-operation.js';
import { emailSchema, password } from '../shared/schemas.js';
import { passwordHeldAtHome } from '../sso/index.js';
import { credentialEnding } from '../accounts/index.js';
import { requestMail } from './request-mail.js';

const REQUEST_KEY_BYTES = 32;
const token = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Issues a token for `purpose` and asks for the mail carrying its link, in one commit. */
async function mailToken(
  ctx: MailOperationContext,
  a: { accountId: string; email: string },
  purpose: MailTokenPurpose,
): Promise<void> {
  const { services } = ctx;
  const mail = services.mail;
  // A fresh, unguessable key: one message per token.
  const requestKey = `token-${services.ids.secret(REQUEST_KEY_BYTES)}`;
  const digest = services.ids.sha256(`mail-token:${mail.linkToken(requestKey)}`);
  const stream = mailTokenStream(digest);
  const base = ctx.instance.baseUrl;
  const link = purpose === 'verify_email' ? `${base}/account/verify-email` : `${base}/account/reset-password`;
  const expiresAt = new Date(ctx.now.getTime() + mail.settings.tokenSeconds * 1000).toISOString();
  await requestMail(ctx, {
    requester: { kind: 'instance', purpose },
    requestKey,
    template: purpose === 'verify_email' ? 'verification' : 'password_reset',
    to: [a.email],
    variables: { link },
    tokenIn: 'link',
    linkOrigin: base,
    alongside: {
      stream,
      decide: (state) =>
        decideIssueMailToken(
          stream,
          { purpose, accountId: a.accountId, email: a.email, expiresAt },
          state as MailTokenState,
        ),
    },
  });
}

export const sendVerificationEmail = defineMailOperation({
  name: 'svc.account.send_verification_email',
  title: 'Send me a verification email',
  description:
    'Email a single-use link (valid MAIL_TOKEN_SECONDS) to your account’s address; opening it marks the address as ' +
    'verified. At most MAIL_RATE_PER_RECIPIENT_PER_HOUR messages an hour reach one address.',
  kind: 'command',
  scopes: ['svc.profile.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({}),
  output: z.object({ sentTo: z.string(), alreadyVerified: z.boolean() }),
  async run(ctx) {
    const p = ctx.principal;
    if (p.kind !== 'session' && p.kind !== 'token')
      throw forbidden('account.required', 'only a person with an account has an address to verify');
    const account = await ctx.services.accounts.read.accountById(p.accountId);
    if (!account?.email) throw invalid('mail.no_email', 'your account has no email address');
    const events = await ctx.services.store.readStream(accountStream(p.accountId));
    const verified = events.some(
      (e) => e.type === 'account.email_verified' && e.data.email === account.email,
    );
    if (verified) return { sentTo: account.email, alreadyVerified: true };
    await mailToken(ctx, { accountId: p.accountId, email: account.email }, 'verify_email');
    return { sentTo: account.email, alreadyVerified: false };
  },
});

export const verifyEmail = defineMailAreaOperation({
  name: 'svc.auth.verify_email',
  title: 'Verify an email address',
  description:
    'Redeem the token of a verification link: the account’s address is verified. A token works once.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({ token }),
  output: z.object({ verified: z.literal(true) }),
  async run(ctx, input) {
    const { services } = ctx;
    const stream = mailTokenStream(services.ids.sha256(`mail-token:${input.token}`));
    const issued = (await services.store.readStream(stream)).find((e) => e.type === 'mail.token_issued');
    const accountId = String(issued?.data.accountId ?? '');
    const account = issued ? await services.accounts.read.accountById(accountId) : null;
    if (!issued || !account) throw invalid('mail.token_invalid', 'that link is not valid');
    await ctx.commit(
      [stream, accountStream(accountId)],
      (states) => {
        const used = decideUseMailToken(
          stream,
          states.get(stream) as MailTokenState,
          'verify_email',
          ctx.now,
        );
        const verified: NewEvent = {
          stream: accountStream(used.accountId),
          type: 'account.email_verified',
          data: { email: used.email },
        };
        return [...used.events, verified];
      },
      { actorId: account.agentId },
    );
    return { verified: true as const };
  },
});

export const requestPasswordReset = defineMailOperation({
  name: 'svc.auth.request_password_reset',
  title: 'Ask for a password reset link',
  description:
    'If an account has this email address, a single-use reset link is emailed to it (on a delegating instance, ' +
    'an account whose password its home instance holds gets a link to that instance’s reset page instead). ' +
    'The answer is the same whether or not it has one.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({ email: emailSchema }),
  output: z.object({ accepted: z.literal(true) }),
  async run(ctx, input) {
    const email = normalizeEmail(input.email);
    const account = await ctx.services.accounts.read.accountByIdentifier(email);
    if (account && account.email === email) {
      try {
        // A linked account on a delegating instance: its password is the global instance's, so the mail
        // sends the person there instead of a local link that could not work (docs/sso.md#password-reset).
        // The answer stays the same either way.
        const home = await passwordHeldAtHome(ctx, account.accountId);
        if (home)
          await requestMail(ctx, {
            requester: { kind: 'instance', purpose: 'password_held_at_home' },
            requestKey: `home-${ctx.services.ids.secret(REQUEST_KEY_BYTES)}`,
            template: 'password_held_at_home',
            to: [email],
            variables: { link: home.forgotPasswordUrl },
            linkOrigin: home.globalBaseUrl,
          });
        else await mailToken(ctx, { accountId: account.accountId, email }, 'reset_password');
      } catch (e) {
        // Over the address's hourly allowance: nothing is sent, and the answer still says nothing.
        if (!isDomainError(e) || e.code !== 'mail.rate_limited') throw e;
      }
    }
    return { accepted: true as const };
  },
});

export const resetPassword = defineMailAreaOperation({
  name: 'svc.auth.reset_password',
  title: 'Choose a new password with a reset link',
  description:
    'Redeem the token of a reset link with a new password: the password is replaced and, in the same commit, ' +
    'every credential of the account ends — its sessions, MCP tokens, OAuth access tokens and grants (refresh ' +
    'tokens) — and the answer says how many. A token works once. An account whose password its home instance holds (a linked account on ' +
    'a delegating instance) is refused 409 sso.password_held_at_home, with the link to reset it there.',
  kind: 'command',
  public: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({ token, password }),
  output: z.object({
    reset: z.literal(true),
    sessionsEnded: z.number(),
    tokensRevoked: z.number().describe('MCP tokens and OAuth access tokens revoked'),
    grantsRevoked: z.number().describe('OAuth grants (refresh-token families) revoked'),
  }),
  async run(ctx, input) {
    const { services } = ctx;
    const stream = mailTokenStream(services.ids.sha256(`mail-token:${input.token}`));
    const issued = (await services.store.readStream(stream)).find((e) => e.type === 'mail.token_issued');
    // Checked before hashing, so a bad token costs no bcrypt round.
    decideUseMailToken(
      stream,
      (issued ? { issued: issued.data, used: false } : { used: false }) as MailTokenState,
      'reset_password',
      ctx.now,
    );
    const accountId = String(issued!.data.accountId);
    // A token issued before the account was linked: the local hash is only the fallback now, so a new one
    // here would not sign the person in. Refused, nothing changed, the token left unused.
    const home = await passwordHeldAtHome(ctx, accountId);
    if (home)
      throw conflict(
        'sso.password_held_at_home',
        'your password is held by your home instance: reset it there',
        { forgotPasswordUrl: home.forgotPasswordUrl },
      );
    const passwordHash = await services.accounts.passwords.hash(input.password);
    const account = await services.accounts.read.accountById(accountId);
    // A new password ends every credential of the account, the person's sign-on authority with them: the
    // revocation federates, and every peer ends the remote-viewer credentials it minted for them
    // (docs/sso.md#revocation).
    const ending = account ? await credentialEnding(services, account, ctx.now) : null;
    await ctx.commit(
      [stream, accountStream(accountId), ...(ending?.streams ?? [])],
      (states) => {
        const used = decideUseMailToken(
          stream,
          states.get(stream) as MailTokenState,
          'reset_password',
          ctx.now,
        );
        if (!(states.get(accountStream(accountId)) as AccountState).exists)
          throw invalid('mail.token_invalid', 'that link is not valid');
        return [
          ...used.events,
          {
            stream: accountStream(accountId),
            type: 'account.password_changed',
            data: { passwordHash, reason: 'reset' as const },
          },
          ...(ending?.decide(states) ?? []),
        ];
      },
      account ? { actorId: account.agentId } : undefined,
    );
    const ended = ending?.ended ?? { sessionsEnded: 0, tokensRevoked: 0, grantsRevoked: 0 };
    return { reset: true as const, ...ended };
  },
});

export const accountMailOperations = [
  sendVerificationEmail,
  verifyEmail,
  requestPasswordReset,
  resetPassword,
];
