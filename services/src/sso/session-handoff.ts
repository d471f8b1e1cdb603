// svc.sso.session_handoff (GET /api/federation/sso/session-handoff): the signed-in person's session here
// becomes an assertion for another instance (a registered peer) — by default their home instance, as
// recorded here (docs/sso.md#home) — and the browser is sent to its landing.
import { invalid, unauthenticated } from '@tributary/domain';
import { z } from 'zod';
import { defineSsoOperation } from './sso-operation.js';
import { landUrlOf } from './issue-assertion.js';
import { issueAssertionFor, originOf, peerAtOrigin } from './support.js';

export const sessionHandoff = defineSsoOperation({
  name: 'svc.sso.session_handoff',
  title: 'Hand a session to another instance',
  description:
    'Turns the current session into a sign-on assertion for a registered peer and answers where to send the browser.',
  kind: 'command',
  ownEndpoint: true,
  actsForAgent: false,
  scopes: ['svc.sso.write'],
  enabledFor: [],
  input: z.strictObject({
    to: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('the instance to hand the session to; without it, the person’s recorded home instance'),
    next: z.string().max(2000).optional(),
  }),
  output: z.object({ location: z.string(), audience: z.string(), expiresAt: z.string() }),
  async run(ctx, input) {
    if (ctx.principal.kind !== 'session')
      throw unauthenticated('auth.required', 'a session hands itself to another instance');
    let to = input.to;
    if (to === undefined) {
      const homeId = await ctx.services.sso.read.homeOf(ctx.principal.agentId);
      const home = homeId ? await ctx.services.federation!.read.peer(homeId) : null;
      if (!homeId)
        throw invalid(
          'sso.no_home_instance',
          'no home instance is recorded for you here: name one with `to`',
        );
      if (!home || home.blocked)
        throw invalid('sso.unknown_audience', 'your home instance is no longer a registered peer here');
      to = home.baseUrl;
    }
    const audience = originOf(to);
    const peer = audience ? await peerAtOrigin(ctx.services, audience) : null;
    if (!audience || !peer)
      throw invalid('sso.unknown_audience', 'a session is handed only to a registered peer’s origin');
    const issued = await issueAssertionFor(ctx, ctx.principal.agentId, audience);
    return {
      location: landUrlOf(peer.baseUrl, issued.assertion, input.next),
      audience,
      expiresAt: issued.expiresAt,
    };
  },
});
