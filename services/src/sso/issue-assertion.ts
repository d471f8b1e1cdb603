// svc.sso.issue_assertion (POST /api/federation/sso/issue, the global instance only): an email or handle
// and a password become a signed, short-lived assertion for one registered peer (docs/sso.md#issue).
// The password check spends sign-in's budgets (services/src/shared/password-budget.ts): guesses here and
// on every other password route count together.
import { invalid, requireGlobalInstance, unauthenticated } from '@tributary/domain';
import { z } from 'zod';
import { defineSsoOperation } from './sso-operation.js';
import { checkLocalPassword, issueAssertionFor, originOf, peerAtOrigin } from './support.js';

export const issuedAssertion = z.object({
  assertion: z.string().describe('base64url of the signed assertion’s JSON; single use, for `audience` only'),
  audience: z.string().describe('the origin of the instance it is for'),
  expiresAt: z.string(),
  landUrl: z.string().describe('where to send the browser: the audience’s landing with the assertion'),
});

export const issueAssertion = defineSsoOperation({
  name: 'svc.sso.issue_assertion',
  title: 'Issue a sign-on assertion',
  description:
    'The global instance checks an email-or-handle and password and answers a signed assertion for one registered peer.',
  kind: 'command',
  public: true,
  ownEndpoint: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    identifier: z.string().trim().min(1).max(254),
    password: z.string().min(1).max(200),
    audience: z.string().min(1).max(200),
  }),
  output: issuedAssertion,
  async run(ctx, input) {
    requireGlobalInstance(ctx.instance.role, 'issue sign-on assertions');
    const audience = originOf(input.audience);
    const peer = audience ? await peerAtOrigin(ctx.services, audience) : null;
    if (!audience || !peer)
      throw invalid('sso.unknown_audience', 'assertions are issued only for a registered peer’s origin');
    const account = await checkLocalPassword(ctx.services, input.identifier, input.password);
    if (!account) throw unauthenticated('auth.invalid_credentials', 'wrong email, handle or password');
    const issued = await issueAssertionFor(ctx, account.agentId, audience);
    return {
      assertion: issued.assertion,
      audience,
      expiresAt: issued.expiresAt,
      landUrl: landUrlOf(peer.baseUrl, issued.assertion),
    };
  },
});

export const landUrlOf = (baseUrl: string, assertion: string, next?: string) =>
  `${baseUrl.replace(/\/+$/, '')}/api/federation/sso/land?assertion=${assertion}${
    next ? `&next=${encodeURIComponent(next)}` : ''
  }`;
